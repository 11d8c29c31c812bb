import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { FULL } from "./scale.js";

const OUT_DIR = join(import.meta.dirname, "..", "test-output");
export const SUMMARY_FILE = join(OUT_DIR, "stress-summary.jsonl");

/**
 * Prints one summary line per suite ("crash(fs): 1000 kills, 0 failures") and appends
 * the figures to test-output/stress-summary.jsonl, which the stress script prints at the end.
 */
export function report(suite: string, line: string, figures: Record<string, unknown>): void {
  const text = `${suite}: ${line}`;
  console.log(`[stress ${FULL ? "full" : "short"}] ${text}`);
  mkdirSync(OUT_DIR, { recursive: true });
  appendFileSync(
    SUMMARY_FILE,
    `${JSON.stringify({ suite, mode: FULL ? "full" : "short", line: text, ...figures, at: new Date().toISOString() })}\n`,
  );
}
