/** Tool words: which kind of tool the message names ("the grep", "the page I fetched", "we ran the tests"). */
import { HINT_RULES, type ToolClass } from "./lexicon.js";
import { joinWorldCompounds } from "./message-text.js";
import { POINTED_FAILURE } from "./order-words.js";
import type { ParsedQuery } from "./query-types.js";
import { regularPast } from "./past-forms.js";

/** Each hint rule's pattern with the global flag, built once (matchAll needs it; the rules are tested without). */
const GLOBAL_HINT_RES = new Map(HINT_RULES.map((rule) => [rule, new RegExp(rule.re.source, `${rule.re.flags}g`)]));

/** A hint matched through a verb in the past alone ("ran", "wrote", "searched", "we just read"). */
const PAST_VERB = new RegExp(
  `^(?:(?:i|you|we)\\s+(?:just\\s+)?)?(?:ran|wrote|read|took|got|made|built|found|saw|${regularPast(3)})$`,
);

/** A noun phrase set apart at the head of the message by a comma or colon ("and the search, …", "the build: …"). */
const HEAD_NOUN = /^\s*(?:(?:and|so|ok|okay|also|now|then|right)[,\s]+)?((?:the|that)\s+[\w-]+(?:\s+[\w-]+)?)\s*[,:]/;

/** "who wrote the book", "she ran a bakery": an action of a third party is no word of the session's records. */
export const THIRD_PARTY =
  /(?:(?:^|[,;.!?]\s*)who|\b(?:he|she))\s+(?:wrote|read|ran|made|built|took|got|did|found|saw|gave|went|came|left)\b/g;

/**
 * The tool hints of a message, the words they consume (not content words), and whether every hint comes from a verb
 * in the past (ParsedQuery.verbHintsOnly).
 */
export function readHints(
  lower: string,
  names: string[],
): { hints: ParsedQuery["hints"]; consumed: Set<string>; verbHintsOnly: boolean } {
  // Hints are read from the words around names, not inside them ("tests/test_dates.py").
  // "the command line", "a search engine" name things of the world, no tool of the session.
  let hintText = joinWorldCompounds(lower);
  for (const n of names) hintText = hintText.split(n.toLowerCase()).join(" ");
  // What the thing itself does ("what does it write out?", "which tables does it query") or what a third party did
  // ("who wrote the book", "she ran a shop") is no tool of the session.
  hintText = hintText.replace(
    /\b(?:does|did|do|will|would|can)\s+(?:it|they|this|that|he|she)\s+\w+|\b(?:it|they|who|he|she)\s+(?:\w+s|wrote|read|ran|called|fetched|listed|searched|queried|made|built|tested)\b/g,
    " ",
  );

  const hints: ParsedQuery["hints"] = new Map();
  /** How many words of the message (over the rules) gave each kind a firm hint (2 or more). */
  const firmRules = new Map<ToolClass | "data" | "file", number>();
  const consumed = new Set<string>();
  let verbHintsOnly = true;
  for (const rule of HINT_RULES) {
    if (!rule.re.test(hintText)) continue;
    const said = new Set<string>();
    for (const m of hintText.matchAll(GLOBAL_HINT_RES.get(rule)!)) {
      said.add(m[0].trim());
      if (!PAST_VERB.test(m[0].trim())) verbHintsOnly = false;
    }
    for (const [cls, w] of Object.entries(rule.hints) as Array<[ToolClass | "data" | "file", number]>) {
      const cur = hints.get(cls);
      if (!cur || cur.weight < w) hints.set(cls, { weight: w, what: rule.what });
      if (w >= 2) firmRules.set(cls, (firmRules.get(cls) ?? 0) + said.size);
    }
    for (const c of rule.consumes ?? []) consumed.add(c);
  }
  // "the web page you fetched": two words of the same kind (a noun and a verb), each a firm hint of it, name the kind
  // outright.
  for (const [cls, n] of firmRules) {
    const cur = hints.get(cls);
    if (n >= 2 && cur && cur.weight < 3) hints.set(cls, { weight: 3, what: cur.what });
  }
  // "and the search, were there …", "the grep: how many hits": a tool noun set apart at the head of the message names
  // the referent itself; the rest asks about it. Its kind counts twice.
  const head = HEAD_NOUN.exec(hintText);
  if (head)
    for (const rule of HINT_RULES)
      if (rule.re.test(head[1]!))
        for (const [cls, w] of Object.entries(rule.hints) as Array<[ToolClass | "data" | "file", number]>) {
          const cur = hints.get(cls);
          if (w >= 3 && cur && cur.weight <= w) hints.set(cls, { weight: 2 * w, what: cur.what });
        }
  for (const m of lower.matchAll(THIRD_PARTY)) consumed.add(m[0].trim().split(/\s+/).at(-1)!);
  // "why did that fail?": the failure word points at the outcome, not at a record whose text says "failed".
  if (POINTED_FAILURE.test(lower)) for (const w of ["fail", "crash", "break", "red"]) consumed.add(w);
  // "the ssh which failed", "the one that crashed": a failure verb in a relative clause names the outcome, not a word of the record.
  for (const m of lower.matchAll(/\b(?:which|that|who)\s+(?:had\s+|has\s+)?(failed|crashed|broke|errored)\b/g))
    consumed.add(m[1]!);
  // "the last result", "the second-to-last output", "right before the latest one": a generic noun after an
  // order word means any execution, not a record whose text says "result".
  for (const m of lower.matchAll(
    /\b(?:last|latest|previous|prior|first|second|third|fourth|fifth|next|final|newest|earlier|most recent)\s+(result|results|output|outputs)\b/g,
  ))
    consumed.add(m[1]!);
  // "the page I opened" is a fetched page, "the file I opened" a file read.
  if (
    hints.has("fetch") &&
    /\b(page|link|url|site|website|article|docs?)\b/.test(hintText) &&
    hints.get("read")?.what === "a file read"
  ) {
    hints.set("fetch", { weight: 3, what: "a fetched page" });
    hints.set("read", { weight: 1, what: "a file read" });
  }
  if (/\bfiles?\b/.test(hintText) && hints.get("fetch")?.what === "a file read") hints.delete("fetch");
  return { hints, consumed, verbHintsOnly: hints.size > 0 && verbHintsOnly };
}

/**
 * "the very first build", "the earlier install", "the second compile": a tool noun right after an order word names
 * the kind outright, as "the earlier test run" does: its hint is raised to a named kind's weight (3).
 */
export function orderedKind(lower: string, hints: ParsedQuery["hints"]): void {
  for (const m of lower.matchAll(
    /\b(?:first|second|third|last|latest|previous|prior|earlier|older|newer|final|original|initial)\s+([a-z]+)\b/g,
  ))
    for (const rule of HINT_RULES)
      if (rule.consumes?.includes(m[1]!))
        for (const [cls, w] of Object.entries(rule.hints) as Array<[ToolClass | "data" | "file", number]>) {
          const cur = hints.get(cls);
          if (cur && w >= 2.5 && cur.weight < 3) hints.set(cls, { weight: 3, what: cur.what });
        }
}
