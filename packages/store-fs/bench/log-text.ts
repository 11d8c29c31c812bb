/** A generated log of about `bytes` bytes (one request line each, deterministic for a `seed`): the benches' input. */
export function logText(bytes: number, seed: number): string[] {
  const lines: string[] = [];
  let x = seed;
  let total = 0;
  for (let i = 1; total < bytes; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const line = `2026-11-23T10:${String(i % 60).padStart(2, "0")}:00Z INFO worker-${x % 16} request ${i} took ${x % 997}ms id=${x.toString(16)}\n`;
    lines.push(line);
    total += line.length;
  }
  return lines;
}
