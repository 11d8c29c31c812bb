// The scripted model behind the local fake provider servers, independent of any wire format.

/** The scripted model's next move: call a tool with these arguments, or answer with text. */
export type Move = { tool: string; args: Record<string, unknown> } | { text: string };

/** Decides each reply from the request's raw body and its index (0-based). */
export type Script = (raw: string, index: number) => Move;

/** The scripted agent turn: call read_log, then artifacts_get on the ref it was given, then answer. */
export function logScript(raw: string, index: number): Move {
  if (index === 0) return { tool: "read_log", args: { path: "test.log" } };
  if (index === 1) {
    const ref = /art:[0-9a-f]{12,64}/.exec(raw)?.[0];
    if (ref === undefined) return { text: "NO REFERENCE IN THE PROMPT" };
    return { tool: "artifacts_get", args: { ref, selector: { mode: "grep", pattern: "^FAIL", context: 0 } } };
  }
  const failures = raw.match(/FAIL test\/case-\d+/g) ?? [];
  return { text: `found ${new Set(failures).size} failures` };
}

/** ~100 KB test log: 2,000 lines with 4 failures; each line is unique. */
export function bigLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 2000; i++)
    lines.push(
      i % 500 === 0
        ? `FAIL test/case-${i}.test.ts > expected ${i} got ${i + 1}`
        : `ok ${i} test/case-${i}.test.ts (${(i * 7) % 13} ms) ${"-".repeat(24)}`,
    );
  return `${lines.join("\n")}\n`;
}

/** A line from the middle of bigLog(): if it ever reaches a request body, the payload leaked. */
export const BIG_LOG_MIDDLE = bigLog().split("\n")[1000]!;

/**
 * ~120 KB tool output of 2,400 unique lines (a FAIL line every 600th), different for each `turn`
 * when one is given; its line 1,200 is `turnLogMiddle(turn)`.
 */
export function turnLog(turn?: number): string {
  const tag = turn === undefined ? "" : ` turn ${turn}`;
  const lines = Array.from({ length: 2400 }, (_, i) =>
    i === 1199
      ? turnLogMiddle(turn)
      : (i + 1) % 600 === 0
        ? `FAIL${tag} test/case-${i + 1}.test.ts`
        : `ok ${i + 1}${tag} test/case-${i + 1}.test.ts ${"-".repeat(turn === undefined ? 20 : 12)}`,
  );
  return `${lines.join("\n")}\n`;
}

/** The middle line of `turnLog(turn)`: if it ever reaches a request body, the payload leaked. */
export function turnLogMiddle(turn?: number): string {
  return turn === undefined ? "ok 1200 test/case-1200.test.ts" : `ok 1200 turn ${turn} test/case-1200.test.ts`;
}
