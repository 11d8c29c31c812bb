// Deterministic log text for tests that need a large tool output.

/** Deterministic multi-line log text of about `chars` characters. */
export function bigLog(chars: number, seed = 1): string {
  const lines: string[] = [];
  let total = 0;
  for (let i = 1; total < chars; i++) {
    const line = `${seed}:${i} ${i % 17 === 0 ? "ERROR" : "INFO"} worker-${(i * 7 + seed) % 13} handled request ${(i * 2654435761 + seed) % 100000} in ${(i * 31) % 997}ms`;
    lines.push(line);
    total += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}
