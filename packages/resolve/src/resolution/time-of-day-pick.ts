/**
 * The record a time of day points at ("what did you run around 18:40?"): the one whose timestamp, read as written (its
 * own offset), lies nearest that time on the most recent day it occurs, within the time's window.
 */
import type { IndexedExecution } from "./executions.js";
import type { ParsedQuery } from "./query-types.js";
import { type Scored, unscored } from "./score.js";
import type { TimeOfDay } from "./time-of-day.js";

/** A timestamp's clock as written: calendar day number, minute of the day, second, and the instant it names. */
export interface WallClock {
  day: number;
  minute: number;
  second: number;
  instant: number;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/** "2026-11-24T18:41:00+01:00" → 18:41 on 2026-11-24 (its own offset, not UTC); undefined when unreadable. */
export function wallClock(timestamp: unknown): WallClock | undefined {
  if (typeof timestamp !== "string") return undefined;
  const m = ISO.exec(timestamp.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as number[];
  const instant = Date.parse(timestamp.trim());
  const date = Date.UTC(y!, mo! - 1, d!);
  // "2026-02-30", "25:99": no time of any day.
  if (!Number.isFinite(instant) || h! > 23 || mi! > 59 || s! > 60 || new Date(date).getUTCDate() !== d)
    return undefined;
  return { day: date / 86_400_000, minute: h! * 60 + mi!, second: s!, instant };
}

export interface TimeOfDayPick {
  s: Scored;
  /** "ran at 18:41 (asked "around 18:40")". */
  why: string;
  /** Every record that ran in that same minute, when more than one does and nothing else tells them apart. */
  same: Scored[];
}

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/**
 * Among `kind` (the records the message can be about), the one that ran nearest the time asked, on the latest day
 * that time occurs with a record within its window (a session across midnight: the most recent occurrence), at or
 * before `now` when given. Two equally near: the later. Without readable timestamps, or none within the window:
 * nothing (the time is never guessed).
 */
export function pickTimeOfDay(kind: readonly Scored[], at: TimeOfDay, now?: Date): TimeOfDayPick | undefined {
  const limit = now && Number.isFinite(now.getTime()) ? now.getTime() : Number.POSITIVE_INFINITY;
  let best: { s: Scored; clock: WallClock; at: number; dist: number }[] = [];
  const days = new Set<number>();
  for (const s of kind) {
    const clock = wallClock(s.x.source.timestamp);
    if (clock) days.add(clock.day);
    if (!clock || clock.instant > limit) continue;
    const t = clock.day * 1440 + clock.minute;
    for (const asked of at.minutes)
      for (const shift of [-1, 0, 1]) {
        const occurrence = (clock.day + shift) * 1440 + asked;
        const dist = Math.abs(t - occurrence);
        if (dist > at.window) continue;
        const cur = best[0];
        // The latest occurrence first, then the nearest record to it; equally near: both kept (the later wins below).
        if (!cur || occurrence > cur.at || (occurrence === cur.at && dist < cur.dist))
          best = [{ s, clock, at: occurrence, dist }];
        else if (occurrence === cur.at && dist === cur.dist && !best.some((b) => b.s === s))
          best.push({ s, clock, at: occurrence, dist });
      }
  }
  if (best.length === 0) return undefined;
  best.sort((a, b) => a.clock.instant - b.clock.instant || a.s.x.index - b.s.x.index);
  const last = best.at(-1)!;
  // Records of the same minute are told apart only by what the message says of them (their scores).
  const minuteOf = (b: (typeof best)[number]) => b.clock.day * 1440 + b.clock.minute;
  let same = best.filter((b) => minuteOf(b) === minuteOf(last));
  const top = Math.max(...same.map((b) => b.s.total));
  if (top > 0) same = same.filter((b) => b.s.total >= 0.9 * top);
  const chosen = same.at(-1)!;
  const on = days.size > 1 ? ` on ${new Date(chosen.clock.day * 86_400_000).toISOString().slice(0, 10)}` : "";
  return {
    s: chosen.s,
    why: `ran at ${hhmm(chosen.clock.minute)}${on} (asked "${at.phrase}")`,
    same: same.length > 1 ? same.map((b) => b.s) : [],
  };
}

/**
 * The records a time of day ranges over: `kind` (what the message's words, tool and outcome pick), unless its only tool
 * word is a verb of doing ("what did you run around 18:40?": a listing run then counts as much as a command); then the
 * records its content words match, else every record.
 */
export function timeOfDayPool(
  query: ParsedQuery,
  kind: Scored[],
  scored: Scored[],
  list: readonly IndexedExecution[],
): Scored[] {
  if (!query.verbHintsOnly) return kind;
  const worded = scored.filter((s) => s.matchedWeight > 0);
  if (worded.length > 0) return worded;
  const byRecord = new Map(scored.map((s) => [s.x, s]));
  return list.map((x) => byRecord.get(x) ?? unscored(query, x));
}
