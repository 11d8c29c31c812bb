import { clip } from "../text.js";

/**
 * `head`, then "tail:" and as many of the last `lines` as fit in `maxChars` (at most `maxLines`,
 * each numbered and clipped to `lineMax` chars). Shared by the log and test-output previews.
 */
export function withNumberedTail(
  head: string,
  lines: readonly string[],
  maxChars: number,
  maxLines: number,
  lineMax: number,
): string {
  const tail: string[] = [];
  let room = maxChars - head.length - 20;
  for (let i = lines.length - 1; i >= 0 && tail.length < maxLines; i--) {
    const line = `${i + 1}: ${clip(lines[i]!, lineMax)}`;
    if (line.length + 1 > room) break;
    tail.unshift(line);
    room -= line.length + 1;
  }
  return clip(`${head}${head ? "\n\n" : ""}tail:\n${tail.join("\n")}`, maxChars);
}
