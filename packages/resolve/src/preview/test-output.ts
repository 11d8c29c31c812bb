import { clip, fmtInt, fold } from "../text.js";
import { withNumberedTail } from "./tail.js";
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

const COUNT_PAIR = /(\d[\d,]*)\s+(passed|passing|failed|failing|skipped|pending|errors?|xfailed|xpassed)\b/gi;
/** What may stand before the first count of a one-count summary line: decoration and a runner's label. */
const SUMMARY_PREFIX = /^[\s=\-_*#>|:]*(?:(?:Tests?|Test Files|Test Suites|Specs?|Suites?)\s*:?\s+)?$/i;

/**
 * The counts of a runner's summary line, or undefined when the line is not one.
 * A summary line has two counts or more ("1 failed | 46 passed", "3 failed, 211 passed in 2.1s"),
 * or one count at its start ("  1 failing", "==== 2 failed in 0.3s ====", "Tests: 4 passed").
 * "step 3000 failed" or "INFO job 12 passed to worker" is a log line, not a summary.
 */
export function summaryCounts(line: string): RegExpMatchArray[] | undefined {
  const found = [...line.matchAll(COUNT_PAIR)];
  if (found.length === 0) return undefined;
  if (found.length >= 2) return found;
  return SUMMARY_PREFIX.test(line.slice(0, found[0]!.index)) ? found : undefined;
}

/**
 * TAP output: a "TAP version N" header or a plan line ("1..N") with at least one test line,
 * or test lines in TAP's "ok N - name" form. A log whose lines merely start with "ok 12" is not TAP.
 */
export function isTap(whole: string): boolean {
  // The header and the plan are at the start or the end: look at both ends, not the whole text.
  const text = whole.length <= 16_384 ? whole : `${whole.slice(0, 8_192)}\n${whole.slice(-8_192)}`;
  if (/^TAP version \d+\s*$|^\s*1\.\.\d+\s*(#.*)?$/m.test(text)) return /^\s*(not )?ok \d+\b/m.test(text);
  return /^(not )?ok \d+ - \S/m.test(text);
}

/** Pass/fail counts from the runner's summary line (the last one found wins). */
export function testCounts(text: string): Counts {
  const counts: Counts = {};
  const tail = text.slice(-16_384);
  // "46 passed, 1 failed", "1 failed | 46 passed (47)", "3 failed, 211 passed in 2.1s", "Tests: 1 failed, 46 passed"
  for (const line of tail.split("\n")) {
    if (/^\s*Test Files\b/i.test(line)) continue; // vitest's per-file line; the Tests line follows
    const found = summaryCounts(line);
    if (!found) continue;
    const next: Counts = {};
    for (const m of found) {
      const word = m[2]!.toLowerCase();
      const key: keyof Counts = word.startsWith("pass")
        ? "passed"
        : word.startsWith("fail")
          ? "failed"
          : word.startsWith("error")
            ? "errors"
            : "skipped";
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
    if (!pass && !fail && isTap(text)) {
      // TAP: the "# pass N" / "# fail N" footer of node:test and tape, else the test lines
      const footer = (word: "pass" | "fail") =>
        [...tail.matchAll(new RegExp(String.raw`^# ${word}\s+(\d+)\s*$`, "gm"))].at(-1)?.[1];
      const passFooter = footer("pass");
      const failFooter = footer("fail");
      if (passFooter !== undefined || failFooter !== undefined)
        Object.assign(counts, { passed: Number(passFooter ?? 0), failed: Number(failFooter ?? 0) });
      else {
        const ok = (tail.match(/^ok \d+/gm) ?? []).length;
        const notOk = (tail.match(/^not ok \d+/gm) ?? []).length;
        if (ok || notOk) Object.assign(counts, { passed: ok, failed: notOk });
      }
    }
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
        if (name.length > 0 && name.length < 300 && !names.includes(name) && !/^\d+ (passed|failed)/.test(name))
          names.push(name);
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
    failing.length
      ? `failing: ${clip(failing.slice(0, 5).join("; "), 300)}${failing.length > 5 ? ` (+${failing.length - 5} more)` : ""}`
      : undefined,
  ]
    .filter(Boolean)
    .join("; ");
  const assertion: { l: string; i: number }[] = [];
  for (let i = 0; i < lines.length && assertion.length < 10; i++) {
    if (/\b(AssertionError|assert|Expected|expected|Received|received|Error:|E\s{2,})/.test(lines[i]!))
      assertion.push({ l: lines[i]!, i });
  }
  const parts: string[] = [];
  if (failing.length)
    parts.push(`failing tests (${fmtInt(failing.length)}):`, ...failing.slice(0, 15).map((n) => `  ${clip(n, 200)}`));
  if (assertion.length)
    parts.push("first assertion lines:", ...assertion.map(({ l, i }) => `${i + 1}: ${clip(l, 200)}`));
  const head = parts.join("\n");
  return {
    summary,
    preview: withNumberedTail(head, lines, maxChars, 12, 200),
    stats: {
      lines: lines.length,
      failed,
      ...(counts.passed === undefined ? {} : { passed: counts.passed }),
      ...(counts.skipped === undefined ? {} : { skipped: counts.skipped }),
      failing_names: failing.length,
    },
  };
}
