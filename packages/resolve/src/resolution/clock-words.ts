/** Clock words: "an hour ago", "a few minutes ago", read against the executions' timestamps. */
import type { TemporalOp } from "./query-types.js";

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "an hour ago", "a few minutes ago", "20 min ago", "half an hour ago", "earlier today". */
export function parseClock(lower: string): TemporalOp | undefined {
  if (/\bhalf an? hour ago\b/.test(lower)) return { kind: "clock", agoMs: 30 * UNIT_MS.m!, why: '"half an hour ago"' };
  const m =
    /\b(an?|one|\d+|a few|few|several|a couple of|couple of|a couple|couple|two|three|four|five|ten|twenty|thirty)\s+(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)\s+(?:or so\s+)?(?:ago|back|earlier)\b/.exec(
      lower,
    );
  if (!m) return undefined;
  const n: Record<string, number> = {
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
    twenty: 20,
    thirty: 30,
  };
  const count = n[m[1]!] ?? Number(m[1]);
  const unit = m[2]!.startsWith("s") ? "s" : m[2]!.startsWith("m") ? "m" : m[2]!.startsWith("h") ? "h" : "d";
  return { kind: "clock", agoMs: count * UNIT_MS[unit]!, why: `"${m[0]}"` };
}
