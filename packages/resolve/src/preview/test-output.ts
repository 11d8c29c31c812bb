import { clip, fmtInt, fold } from "../text.js";
import type { RawPreview } from "./types.js";

/** Failing-test line patterns of common runners; group 1 is the test's name. */
const FAILING: RegExp[] = [
  /^\s*(?:FAIL|×|✗|✕|❯)\s+(.+?\.(?:test|spec)\.[cm]?[jt]sx?\s*>.+?)(?:\s+\d+m?s)?\s*$/, // vitest/jest: FAIL file > name
  /^\s*(?:×|✗|✕)\s+(.+?)(?:\s+\(?\d+\s*m?s\)?)?\s*$/, // vitest/jest/mocha symbol lines
  /^FAILED\s+(\S+::\S+)/, // pytest short summary
  /^_{3,}\s+(\S.*?)\s+_{3,}$/, // pytest failure header
  /^\s*--- FAIL:\s+(\S+)/, // go test
  /^not ok \d+\s+-?\s*(.+)$/, // TAP
  /^test\s+(\S+)\s+\.\.\.\s+FAILED$/, // cargo test
  /^\s*\d+\)\s+(.+)$/, // mocha "1) suite name"
];

interface Counts {
  passed?: number;
  failed?: number;
  skipped?: number;
  errors?: number;
}

/** Pass/fail counts from the runner's summary line (the last one found wins). */
export function testCounts(text: string): Counts {
  const counts: Counts = {};
  const tail = text.slice(-16_384);
  // "46 passed, 1 failed", "1 failed | 46 passed (47)", "3 failed, 211 passed in 2.1s", "Tests: 1 failed, 46 passed"
  for (const line of tail.split("\n")) {
    if (/^\s*Test Files\b/i.test(line)) continue; // vitest's per-file line; the Tests line follows
    const found = [...line.matchAll(/(\d[\d,]*)\s+(passed|passing|failed|failing|skipped|pending|errors?|xfailed|xpassed)\b/gi)];
    if (found.length === 0) continue;
    const next: Counts = {};
    for (const m of found) {
      const word = m[2]!.toLowerCase();
      const key: keyof Counts = word.startsWith("pass") ? "passed" : word.startsWith("fail") ? "failed" : word.startsWith("error") ? "errors" : "skipped";
      if (word === "xfailed" || word === "xpassed") continue;
      next[key] = Number(m[1]!.replace(/,/g, ""));
    }
    Object.assign(counts, next);
  }
  // go test: count "--- PASS" / "--- FAIL" when there is no summary line
  if (counts.passed === undefined && counts.failed === undefined) {
    const pass = (tail.match(/^\s*--- PASS:/gm) ?? []).length;
    const fail = (tail.match(/^\s*--- FAIL:/gm) ?? []).length;
    if (pass || fail) Object.assign(counts, { passed: pass, failed: fail });
    const ok = (tail.match(/^ok \d+/gm) ?? []).length;
    const notOk = (tail.match(/^not ok \d+/gm) ?? []).length;
    if (!pass && !fail && (ok || notOk)) Object.assign(counts, { passed: ok, failed: notOk });
  }
  return counts;
}

export function failingTests(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split("\n")) {
    for (const re of FAILING) {
      const m = re.exec(line);
      if (m?.[1]) {
        const name = fold(m[1]);
        if (name.length > 0 && name.length < 300 && !names.includes(name) && !/^\d+ (passed|failed)/.test(name)) names.push(name);
        break;
      }
    }
    if (names.length >= 50) break;
  }
  return names;
}

/** Test output: counts, failing test names, the first assertion errors, and the tail. */
export function previewTestOutput(text: string, maxChars: number): RawPreview {
  const counts = testCounts(text);
  const failing = failingTests(text);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const countText = (["failed", "passed", "skipped", "errors"] as const)
    .filter((k) => counts[k] !== undefined)
    .map((k) => `${fmtInt(counts[k]!)} ${k}`)
    .join(", ");
  const failed = counts.failed ?? (failing.length || 0);
  const summary = [
    `Test run${countText ? `: ${countText}` : `, ${fmtInt(lines.length)} lines`}`,
    failing.length ? `failing: ${clip(failing.slice(0, 5).join("; "), 300)}${failing.length > 5 ? ` (+${failing.length - 5} more)` : ""}` : undefined,
  ]
    .filter(Boolean)
    .join("; ");
  const assertion = lines
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => /\b(AssertionError|assert|Expected|expected|Received|received|Error:|E\s{2,})/.test(l))
    .slice(0, 10);
  const parts: string[] = [];
  if (failing.length) parts.push(`failing tests (${fmtInt(failing.length)}):`, ...failing.slice(0, 15).map((n) => `  ${clip(n, 200)}`));
  if (assertion.length) parts.push("first assertion lines:", ...assertion.map(({ l, i }) => `${i + 1}: ${clip(l, 200)}`));
  const head = parts.join("\n");
  const tail: string[] = [];
  let room = maxChars - head.length - 10;
  for (let i = lines.length - 1; i >= 0 && tail.length < 12; i--) {
    const l = `${i + 1}: ${clip(lines[i]!, 200)}`;
    if (l.length + 1 > room) break;
    tail.unshift(l);
    room -= l.length + 1;
  }
  return {
    summary,
    preview: clip(`${head}${head ? "\n\n" : ""}tail:\n${tail.join("\n")}`, maxChars),
    stats: {
      lines: lines.length,
      failed,
      ...(counts.passed === undefined ? {} : { passed: counts.passed }),
      ...(counts.skipped === undefined ? {} : { skipped: counts.skipped }),
      failing_names: failing.length,
    },
  };
}
