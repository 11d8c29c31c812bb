/** Clock words: "an hour ago", "a few minutes ago", read against the executions' timestamps. */
import type { TemporalOp } from "./query-types.js";

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** What stands after the amount of time to make it a time before now: "ago", "back", "earlier" ("or so" may stand between). */
const BEFORE_NOW = String.raw`\s*(?:or so\s+)?(?:ago|back|earlier)\b`;

const COUNTS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  "a few": 3,
  few: 3,
  several: 5,
  "a couple of": 2,
  "couple of": 2,
  "a couple": 2,
  couple: 2,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  ten: 10,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
};

/** "half an hour", "an hour and a half", "a quarter of an hour", "half hour": amounts said in parts of an hour. */
const HOUR_PARTS: Array<[RegExp, number]> = [
  [/\b(?:an?|one) hour and a half\b/, 90],
  [/\b(?:an? )?hour and a half\b/, 90],
  [/\b(?:an? )?(?:one and a half|1\.5) hours?\b/, 90],
  [/\bhalf (?:an? )?hour\b/, 30],
  [/\b(?:a )?quarter (?:of )?an? hour\b/, 15],
];

/**
 * "an hour ago", "a few minutes ago", "20 min ago", "half an hour back", "40m ago", "~2h earlier": a time before now.
 * A tilde or "about" before the amount ("~40 min ago") is read as the amount.
 */
export function parseClock(lower: string): TemporalOp | undefined {
  for (const [re, mins] of HOUR_PARTS) {
    const m = new RegExp(`${re.source}${BEFORE_NOW}`).exec(lower);
    if (m) return { kind: "clock", agoMs: mins * UNIT_MS.m!, why: `"${m[0]}"` };
  }
  const words = Object.keys(COUNTS)
    .sort((a, b) => b.length - a.length)
    .join("|");
  // A number may stand right before its unit ("40min", "40m", "2h"); a one-letter unit only right after the number
  // ("5 m back" is a distance); a word needs a space ("a few minutes").
  const units = "seconds?|secs?|minutes?|mins?|hours?|hrs?|days?";
  const m = new RegExp(
    String.raw`\b(?:(\d+)(?:-?ish)?(?:\s*(${units})|([smhd]))|(${words})\s+(${units}))${BEFORE_NOW}`,
  ).exec(lower);
  if (!m) return undefined;
  const count = m[1] !== undefined ? Number(m[1]) : COUNTS[m[4]!]!;
  const u = m[2] ?? m[3] ?? m[5]!;
  const unit = u.startsWith("s") ? "s" : u.startsWith("m") ? "m" : u.startsWith("h") ? "h" : "d";
  return { kind: "clock", agoMs: count * UNIT_MS[unit]!, why: `"${m[0].trim()}"` };
}
