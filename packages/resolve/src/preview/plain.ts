import { clip, fmtInt, fold } from "../text.js";
import type { RawPreview } from "./types.js";

/** Plain text: line and word counts, the first heading or line, head and tail. */
export function previewText(text: string, maxChars: number): RawPreview {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const words = (text.match(/\S+/g) ?? []).length;
  const first = lines.find((l) => l.trim().length > 0) ?? "";
  const headings = lines
    .filter((l) => /^#{1,3}\s+\S/.test(l))
    .slice(0, 8)
    .map((l) => fold(l.replace(/^#+\s*/, "")));
  const summary = `Text, ${fmtInt(lines.length)} lines, ${fmtInt(words)} words: ${clip(fold(first), 200)}${headings.length > 1 ? `; sections: ${clip(headings.slice(1).join(", "), 200)}` : ""}`;
  if (text.length <= maxChars)
    return { summary, preview: text, stats: { lines: lines.length, words, chars: text.length } };
  const half = Math.floor((maxChars - 40) / 2);
  const head: string[] = [];
  let used = 0;
  for (const l of lines) {
    const c = clip(l, half);
    if (used + c.length + 1 > half) break;
    head.push(c);
    used += c.length + 1;
  }
  const tail: string[] = [];
  used = 0;
  for (let i = lines.length - 1; i >= head.length; i--) {
    const c = clip(lines[i]!, half);
    if (used + c.length + 1 > half) break;
    tail.unshift(c);
    used += c.length + 1;
  }
  const omitted = lines.length - head.length - tail.length;
  const preview = `${head.join("\n")}\n[… ${fmtInt(omitted)} lines omitted …]\n${tail.join("\n")}`;
  return { summary, preview: clip(preview, maxChars), stats: { lines: lines.length, words, chars: text.length } };
}
