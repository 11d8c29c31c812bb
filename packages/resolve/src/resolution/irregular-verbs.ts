/**
 * Irregular verbs: the forms a stemmer does not join ("ringing" ~ "rang", "dying" ~ "died", "broke" ~ "broken"). A
 * message says "the phone ringing", the record says "the phone rang". Forms that are also common words of another
 * meaning ("left", "bit", "ground", "rose", "saw", "felt", "lay") are left out.
 */
import { stem } from "./tokens.js";

const GROUPS: string[][] = [
  "ring rang rung",
  "sing sang sung",
  "sink sank sunk",
  "drink drank drunk",
  "shrink shrank shrunk",
  "begin began begun",
  "swim swam swum",
  "run ran",
  "write wrote written",
  "break broke broken",
  "speak spoken",
  "freeze froze frozen",
  "choose chose chosen",
  "steal stole stolen",
  "wake woke woken",
  "take took taken",
  "shake shook shaken",
  "forget forgot forgotten",
  "get got gotten",
  "give gave given",
  "forgive forgave forgiven",
  "drive drove driven",
  "ride rode ridden",
  "rise risen",
  "hide hid hidden",
  "bite bitten",
  "eat ate eaten",
  "fall fell fallen",
  "grow grew grown",
  "throw threw thrown",
  "blow blew blown",
  "know knew known",
  "draw drew drawn",
  "fly flew flown",
  "show showed shown",
  "tear torn",
  "wear wore worn",
  "swear swore sworn",
  "sit sat",
  "hang hung",
  "sting stung",
  "swing swung",
  "stick stuck",
  "strike struck",
  "dig dug",
  "win won",
  "spin spun",
  "send sent",
  "spend spent",
  "lend lent",
  "bend bent",
  "build built",
  "lose lost",
  "shoot shot",
  "catch caught",
  "teach taught",
  "buy bought",
  "bring brought",
  "think thought",
  "fight fought",
  "seek sought",
  "sell sold",
  "tell told",
  "hold held",
  "keep kept",
  "sleep slept",
  "sweep swept",
  "creep crept",
  "weep wept",
  "meet met",
  "feed fed",
  "bleed bled",
  "flee fled",
  "slide slid",
  "die died dying dead",
  "lie lied lying",
  "pay paid",
  "say said",
  "mean meant",
  "deal dealt",
  "hear heard",
  "stand stood",
  "understand understood",
  "come came",
  "become became",
  "go went gone",
  "do did done",
  "see seen",
  "find found",
  "make made",
].map((g) => g.split(" "));

const BY_STEM = new Map<string, string[]>();
for (const group of GROUPS) {
  if (group.length < 2) continue;
  for (const form of group) {
    const key = stem(form);
    BY_STEM.set(key, [...new Set([...(BY_STEM.get(key) ?? []), ...group])]);
  }
}

/** The other forms of an irregular verb ("ringing" → "ring", "rang", "rung"); [] for any other word. */
export function irregularForms(word: string): string[] {
  const forms = BY_STEM.get(stem(word)) ?? [];
  return forms.filter((f) => f !== word);
}
