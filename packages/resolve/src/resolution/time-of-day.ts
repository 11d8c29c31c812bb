/**
 * A time of day in a message ("at 18:40", "around 7:20pm", "half past 8", "at noon"): the minutes since midnight it
 * names, read as the order of the message (its words are no content words).
 */

export interface TimeOfDay {
  /** Minutes since midnight; both readings of a 12-hour time said without am/pm ("7:20": 440 and 1160). */
  minutes: number[];
  /** How far (minutes) a record's time may lie from it: tight for an exact time, wider for "around" or a bare hour. */
  window: number;
  /** The phrase as written, lowercased ("around 18:40"). */
  phrase: string;
  /** The words of the phrase, as the content-word reader splits them ("18", "40", "7.20"): the order, not content. */
  words: string[];
}

/** Minutes a record may be off an exact time ("at 18:40"), a time said roughly ("around 18:40"), a bare hour ("at 9pm"). */
export const EXACT_WINDOW = 5;
export const ROUGH_WINDOW = 20;
export const HOUR_WINDOW = 30;

/** What may stand before a time of day: "at", "around", "about", "like", "~", combined ("at like", "at about"). */
const ROUGH = String.raw`(?:around|about|roughly|approximately|approx\.?|circa|like|~)`;
/** A rough word alone ("around 5"); "like" only after "at" ("i'd like 5"), "about" not after "what/how" ("what about 5?"). */
const ROUGH_ALONE = String.raw`(?:around|(?<!(?:what|how)\s+)about|roughly|approximately|approx\.?|circa|~)`;
const LEAD = String.raw`(?:(?:at|@)\s+(?:${ROUGH}\s+)?|${ROUGH_ALONE}\s*)`;
const HOUR_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
const HOUR = String.raw`(\d{1,2}|${Object.keys(HOUR_WORDS).join("|")})`;
const PARTS: Record<string, number> = { quarter: 15, half: 30, five: 5, ten: 10, twenty: 20, "twenty-five": 25 };
const AM_PM = String.raw`(?:\s*(a\.?m\.?|p\.?m\.?)(?![a-z]))`;
/** "7:20 this morning", "9 in the evening": which half of the day. */
const DAYPART = String.raw`(?:\s+(?:in the|this)\s+(morning|afternoon|evening)|\s+(tonight|last night))`;
/** After a time: a unit or a word of amount makes it a duration, a price or a size ("3:20 min", "at 2.50 eur"). */
const UNIT_AFTER =
  /^\s*(?:%|x\b|percent|ms\b|s\b|secs?\b|seconds?|mins?\b|minutes?|h\b|hrs?\b|hours?|days?|[kmgt]i?b\b|k\b|m\b|eur|euros?|usd|dollars?|bucks|each|per\b|\/|[$€£]|ratio|split|lead|long\b|mark\b|pace|times?\b|[a-z]*fps|rps|qps)/;
/** Before a time: a word that makes it a duration, a ratio, a score or a version ("took 3:20", "ratio 4:30"). */
const WORD_BEFORE =
  /\b(?:took|takes|taking|lasted|lasts|last|in|for|within|under|over|runtime|duration|elapsed|timer|clocked|ratio|aspect|odds|score|scored|scores|won|lost|beat|leads?|led|draw|tied|version|versions|ver|release|v|node|python|to|than|between|by|till|until|since|before|after|upto)(?:\s+(?:was|is|were|of|a|the|it))?\s*$/;
/** Characters that make a number part of a larger token: an address, a path, a port, a version, a price. */
const GLUED_BEFORE = /[\w.:/=@#$€£\\-]$/;
const GLUED_AFTER = /^(?:[.:]\d|(?!-?ish\b)[\w/\\@-])/;
/** Before "at 7.20" or "at 5": a word that makes the number an amount or a level ("priced at 2.50", "stuck at 5"). */
const LEVEL_BEFORE =
  /\b(?:priced|sold|bought|capped|set|stuck|pinned|locked|fixed|held|stayed|stays|sits|sitting|peaked|topped|maxed|rate|rated|costs?|price|limit|version|level|step|line|page|row|retry|attempt|is|was|were|are|be|been)\s+$/;
/** "ran at 5", "and at 5?": a bare hour is a time only after a word of doing or asking, or said roughly ("around 5"). */
const BARE_HOUR_BEFORE =
  /\b(?:ran|run|runs|did|done|do|happened|happen|came|come|got|get|went|started|printed|showed|said|command|call|request|check|job|thing|one|it|that|this|the build|and|what about|how about|or)\s+$/;

/** The time of day the message names, if any (quoted and back-quoted text is no message text). */
export function parseTimeOfDay(lower: string): TimeOfDay | undefined {
  const text = lower
    .replace(/`[^`]*`?/g, (m) => " ".repeat(m.length))
    .replace(/"[^"]*"/g, (m) => " ".repeat(m.length))
    .replace(/(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu, (m) => " ".repeat(m.length));
  return (
    named(text) ??
    pastOrTo(text) ??
    withColon(text) ??
    withDot(text) ??
    hourWithHalf(text) ??
    bareHour(text) ??
    undefined
  );
}

function result(text: string, start: number, end: number, minutes: number[], window: number): TimeOfDay {
  const phrase = text.slice(start, end).trim();
  const raw = phrase.match(/[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*/gu) ?? [];
  const words = [...new Set(raw.flatMap((w) => [w, ...w.split(/[.-]/)]).filter((w) => w.length > 0))];
  return { minutes: [...new Set(minutes)].sort((a, b) => a - b), window, phrase, words };
}

/** Both readings of an hour said without am/pm (1-12), or the one of a 24-hour hour (0, 13-23). */
function readings(hour: number, minute: number, half: string | undefined, padded = false): number[] | undefined {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  if (half) {
    if (hour < 1 || hour > 12) return undefined;
    const h = (hour % 12) + (half === "pm" ? 12 : 0);
    return [h * 60 + minute];
  }
  // "06:00": an hour written with its leading zero is a 24-hour one.
  if (hour >= 1 && hour <= 12 && !padded) return [(hour % 12) * 60 + minute, ((hour % 12) + 12) * 60 + minute];
  return [hour * 60 + minute];
}

/** "am" / "pm" from an am/pm mark or a part of the day after the time. */
function halfOf(mark: string | undefined, part: string | undefined): string | undefined {
  if (mark) return mark.startsWith("a") ? "am" : "pm";
  if (!part) return undefined;
  return part === "morning" ? "am" : "pm";
}

function hourOf(word: string): number {
  return HOUR_WORDS[word] ?? Number(word);
}

/** The lead word ("at", "around") at the end of `before`, and whether it says the time roughly. */
function leadOf(before: string): { lead: string; rough: boolean } | undefined {
  const m = new RegExp(`${LEAD}$`).exec(before);
  if (!m) return undefined;
  return { lead: m[0], rough: new RegExp(ROUGH).test(m[0]) };
}

/** Neither a word before nor a unit after makes the number something else than a time. */
function plainAround(text: string, start: number, end: number): boolean {
  const before = text.slice(0, start);
  const after = text.slice(end);
  if (GLUED_BEFORE.test(before) || GLUED_AFTER.test(after) || UNIT_AFTER.test(after)) return false;
  // A lead word ("at", "around") says a time whatever stood before it; without one, the word before decides.
  const lead = leadOf(before);
  const rest = lead ? before.slice(0, before.length - lead.lead.length) : before;
  if (!lead && WORD_BEFORE.test(rest)) return false;
  // "from 16:25 to 16:40", "between 16:25 and 16:40": a span of time, no one time.
  if (/^\s*(?:to|until|till|through|-|–)\s*\d/.test(after) || /\bbetween\s+[\d:.apm ]+\s+and\s+$/.test(before))
    return false;
  return true;
}

/** "noon", "midday", "midnight" (after a lead word or "at"): 12:00 and 0:00. */
function named(text: string): TimeOfDay | undefined {
  const re = new RegExp(String.raw`(?<![\p{L}\p{N}])${LEAD}(noon|midday|midnight)\b`, "gu");
  for (const m of text.matchAll(re)) {
    const lead = leadOf(m[0].slice(0, m[0].length - m[1]!.length))!;
    return result(
      text,
      m.index,
      m.index + m[0].length,
      [m[1] === "midnight" ? 0 : 720],
      lead.rough ? ROUGH_WINDOW : EXACT_WINDOW,
    );
  }
  return undefined;
}

/** "half past 8", "quarter to seven", "ten past 9", "20 past 7": a part of an hour before or after it. */
function pastOrTo(text: string): TimeOfDay | undefined {
  const parts = Object.keys(PARTS)
    .sort((a, b) => b.length - a.length)
    .join("|");
  const re = new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:${LEAD})?(?:a\s+)?(${parts}|\d{1,2}(?=\s+(?:minutes?\s+|mins?\s+)?past))\s+(?:minutes?\s+|mins?\s+)?(past|to|after)\s+${HOUR}(?![\p{L}\p{N}:.])${AM_PM}?${DAYPART}?`,
    "gu",
  );
  for (const m of text.matchAll(re)) {
    const part = PARTS[m[1]!] ?? Number(m[1]);
    if (!(part > 0 && part < 60)) continue;
    // "20 after 7" is no time said this way; "ten after 9" is.
    if (m[2] === "after" && /^\d/.test(m[1]!)) continue;
    // "from ten to twelve", "five after seven": a number word before "to/after" is a part of an hour only after "at".
    if (m[2] !== "past" && !/^(?:quarter|half)$/.test(m[1]!) && !new RegExp(`^${LEAD}`).test(m[0])) continue;
    const hour = hourOf(m[3]!);
    const base = readings(hour, 0, halfOf(m[4], m[5] ?? m[6]));
    if (!base) continue;
    const mins = base.map((x) => (m[2] === "to" ? x - part : x + part));
    const lead = new RegExp(`^${LEAD}`).exec(m[0]);
    const window = lead && new RegExp(ROUGH).test(lead[0]) ? ROUGH_WINDOW : EXACT_WINDOW;
    return result(text, m.index, m.index + m[0].length, [...new Set(mins.map((x) => (x + 1440) % 1440))], window);
  }
  return undefined;
}

/** "18:40", "at 7:20pm", "around 03:55", "9:13:40": hours and minutes with a colon. */
function withColon(text: string): TimeOfDay | undefined {
  const re = new RegExp(
    String.raw`(?<![\p{L}\p{N}])(\d{1,2}):(\d{2})(?::\d{2})?(?!\d)${AM_PM}?(?:-?ish)?${DAYPART}?`,
    "gu",
  );
  for (const m of text.matchAll(re)) {
    const before = text.slice(0, m.index);
    const end = m.index + m[0].length;
    if (!plainAround(text, m.index, end)) continue;
    const r = readings(Number(m[1]), Number(m[2]), halfOf(m[3], m[4] ?? m[5]), /^0\d/.test(m[1]!));
    if (!r) continue;
    const lead = leadOf(before);
    const start = lead ? m.index - lead.lead.length : m.index;
    return result(text, start, end, r, lead?.rough ? ROUGH_WINDOW : EXACT_WINDOW);
  }
  return undefined;
}

/** "at 7.20", "around 18.40": hours and minutes with a dot, only after a lead word (else a version or an amount). */
function withDot(text: string): TimeOfDay | undefined {
  const re = new RegExp(String.raw`(?<![\p{L}\p{N}])(\d{1,2})\.(\d{2})(?!\d)${AM_PM}?(?:-?ish)?${DAYPART}?`, "gu");
  for (const m of text.matchAll(re)) {
    const before = text.slice(0, m.index);
    const lead = leadOf(before);
    const end = m.index + m[0].length;
    if (!lead || !plainAround(text, m.index, end)) continue;
    if (LEVEL_BEFORE.test(before.slice(0, before.length - lead.lead.length))) continue;
    const r = readings(Number(m[1]), Number(m[2]), halfOf(m[3], m[4] ?? m[5]));
    if (!r) continue;
    return result(text, m.index - lead.lead.length, end, r, lead.rough ? ROUGH_WINDOW : EXACT_WINDOW);
  }
  return undefined;
}

/** "9pm", "at 7 am", "seven o'clock", "at 9 in the evening": an hour with its half of the day or "o'clock". */
function hourWithHalf(text: string): TimeOfDay | undefined {
  const re = new RegExp(
    String.raw`(?<![\p{L}\p{N}.:$€£])${HOUR}(?:(\s*o'?clock)|${AM_PM})${DAYPART}?(?![\p{L}\p{N}])|(?<![\p{L}\p{N}.:$€£])${HOUR}${DAYPART}`,
    "gu",
  );
  for (const m of text.matchAll(re)) {
    const before = text.slice(0, m.index);
    const end = m.index + m[0].length;
    const hour = hourOf(m[1] ?? m[6]!);
    const half = halfOf(m[3], m[4] ?? m[5] ?? m[7] ?? m[8]);
    // "in the morning" alone after a number needs a lead word ("at 7 in the morning"); am/pm and o'clock do not.
    const lead = leadOf(before);
    if (m[6] !== undefined && !lead) continue;
    if (!lead && WORD_BEFORE.test(before)) continue;
    if (UNIT_AFTER.test(text.slice(end))) continue;
    const r = readings(hour, 0, half);
    if (!r) continue;
    return result(text, lead ? m.index - lead.lead.length : m.index, end, r, HOUR_WINDOW);
  }
  return undefined;
}

/** "around 5", "what did you run at 5?", "and at seven?": a bare hour, read only where it can be nothing else. */
function bareHour(text: string): TimeOfDay | undefined {
  const re = new RegExp(
    String.raw`(?<![\p{L}\p{N}])${LEAD}${HOUR}(?:-?ish)?(?=\s*(?:or so\b|[?!,;]|\.(?!\d)|$))`,
    "gu",
  );
  for (const m of text.matchAll(re)) {
    const lead = new RegExp(`^${LEAD}`).exec(m[0])![0];
    const before = text.slice(0, m.index);
    const rough = new RegExp(ROUGH).test(lead);
    if ((!rough && !BARE_HOUR_BEFORE.test(before)) || LEVEL_BEFORE.test(before)) continue;
    const r = readings(hourOf(m[1]!), 0, undefined);
    if (!r) continue;
    return result(text, m.index, m.index + m[0].length, r, HOUR_WINDOW);
  }
  return undefined;
}
