import { clip, fmtInt, fold } from "../text.js";
import { withNumberedTail } from "./tail.js";
import type { RawPreview } from "./types.js";

const ERROR_RE =
  /\b(error|errors|err|fatal|panic|exception|traceback|critical|crit|emerg|alert|failed|failure|segfault|refused|denied|timed out|timeout)\b|\bE\d{4}\b|\bERR!/i;
const WARN_RE = /\b(warn|warning|warnings|deprecated|deprecation)\b/i;
const NOT_ERROR_RE = /\b(0 errors?|no errors?|errors?: 0|0 failed|without errors?)\b/i;

export function classifyLine(line: string): "error" | "warning" | undefined {
  if (ERROR_RE.test(line) && !NOT_ERROR_RE.test(line)) return "error";
  if (WARN_RE.test(line)) return "warning";
  return undefined;
}

/** Logs: counts of error and warning lines, the first errors, the distinct messages, and the tail. */
export function previewLog(text: string, maxChars: number): RawPreview {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const errors: number[] = [];
  const warnings: number[] = [];
  lines.forEach((line, i) => {
    const c = classifyLine(line);
    if (c === "error") errors.push(i);
    else if (c === "warning") warnings.push(i);
  });
  // Most repeated error message (numbers and hex folded), to say "1,412 x upstream timed out".
  const counts = new Map<string, { n: number; sample: string }>();
  for (const i of errors) {
    const key = normalizeMessage(lines[i]!);
    const cur = counts.get(key);
    if (cur) cur.n++;
    else counts.set(key, { n: 1, sample: lines[i]! });
  }
  const top = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  const firstError = errors.length ? fold(lines[errors[0]!]!) : undefined;
  const summary = [
    `Log, ${fmtInt(lines.length)} lines: ${fmtInt(errors.length)} error${errors.length === 1 ? "" : "s"}, ${fmtInt(warnings.length)} warning${warnings.length === 1 ? "" : "s"}`,
    top && top.n > 1
      ? `most frequent (${fmtInt(top.n)}x): ${clip(fold(top.sample), 160)}`
      : firstError
        ? `first error: ${clip(firstError, 180)}`
        : undefined,
  ]
    .filter(Boolean)
    .join("; ");

  const parts: string[] = [];
  const budget = maxChars;
  if (errors.length) {
    parts.push(`errors (${fmtInt(errors.length)}), first ones:`);
    for (const i of errors.slice(0, 8)) parts.push(`${i + 1}: ${clip(lines[i]!, 240)}`);
  }
  if (warnings.length) {
    parts.push(`warnings (${fmtInt(warnings.length)}), first ones:`);
    for (const i of warnings.slice(0, 4)) parts.push(`${i + 1}: ${clip(lines[i]!, 200)}`);
  }
  const head = parts.join("\n");
  const preview = withNumberedTail(head, lines, budget, 15, 240);
  return {
    summary,
    preview,
    stats: { lines: lines.length, errors: errors.length, warnings: warnings.length, chars: text.length },
  };
}

function normalizeMessage(line: string): string {
  return line
    .replace(/^\S*\d{2}:\d{2}:\d{2}\S*\s*/, "")
    .replace(/0x[0-9a-f]+/gi, "#")
    .replace(/\d+/g, "#")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}
