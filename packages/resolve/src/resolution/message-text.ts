/** The message as written: chat shorthand and order synonyms written out, and the names (files, paths, URLs) in it. */

/** File names, paths and URLs. */
export const NAME_RE =
  /(?:https?:\/\/[^\s'"`<>()]+)|(?:[~.]?[\w@-]*[\\/][\w@.\-\\/*]+)|(?:\b[\w-]+\.[A-Za-z][\w]{0,9}\b)/g;

/** Chat shorthand for function words ("u", "wat", "b4"): written out before anything is read. */
const SHORTHAND: Record<string, string> = {
  u: "you",
  ya: "you",
  ur: "your",
  wat: "what",
  wut: "what",
  wht: "what",
  pls: "please",
  plz: "please",
  b4: "before",
  teh: "the",
  hte: "the",
  thx: "thanks",
  abt: "about",
  cuz: "because",
  coz: "because",
  rn: "right now",
  lemme: "let me",
  gimme: "give me",
};

/** Writes out chat shorthand and turns dashes between clauses into commas. */
export function normalizeMessage(text: string): string {
  return text
    .replace(/(^|[\s,.;:!?(])([A-Za-z][A-Za-z0-9]{0,4})(?=$|[\s,.;:!?)])/g, (whole, pre: string, w: string) => {
      const full = SHORTHAND[w.toLowerCase()];
      return full ? `${pre}${full}` : whole;
    })
    .replace(/\s+[—–]+\s*|\s*[—–]+\s+|\s+-{1,2}\s+/g, ", ")
    .replace(ORDER_SYNONYMS, (whole) => {
      const l = whole.toLowerCase().replace(/[\s-]+/g, " ");
      return l.startsWith("prior to") || l.startsWith("preceding")
        ? whole.replace(/^prior to|^preceding/i, "before")
        : l.startsWith("following") || l.startsWith("subsequent to")
          ? whole.replace(/^following|^subsequent to/i, "after")
          : "second to last";
    });
}

/**
 * Order words written otherwise, read as the words the order reading knows: "prior to"/"preceding" + a determiner
 * or a gerund → "before", "following"/"subsequent to" → "after", "last but one"/"one before last" → "second to last".
 */
const ORDER_SYNONYMS =
  /\b(?:prior to|preceding|following|subsequent to)(?=\s+(?:the|my|our|your|that|this|we|you|i|[a-z]+ing)\b)|\b(?:last[- ]but[- ]one|(?:the\s+)?one[- ]before[- ]last)\b/gi;

/** Only the start of a very long message is read (a pasted log must not cost seconds). */
export const MAX_MESSAGE_CHARS = 4_000;

/** Quoted phrases that are not names ("translate 'heat pump'") are the object of a task, not a reference: dropped. */
export function dropQuotedPhrases(text: string): string {
  // An apostrophe inside a word ("yesterday's", "don't") opens or closes no quote.
  return text.replace(
    /(?<![\p{L}\p{N}])(["'`‘“])([^"'`’”]{1,200})(["'`’”])(?![\p{L}\p{N}])/gu,
    (_whole, _a: string, inner: string) => (/[./\\]/.test(inner) ? inner : " "),
  );
}

/** The file names, paths and URLs written in the message (no bare version numbers, no "e.g.", no "w/o" or "b/c"). */
export function readNames(body: string): string[] {
  return [
    ...new Set(
      (body.match(NAME_RE) ?? [])
        .map((n) => n.replace(/[?!,;:]+$/, ""))
        // "w/o", "b/c", "n/a": a letter, a slash and a letter abbreviate words, they name no path.
        .filter((n) => !/^\d+(\.\d+)*$/.test(n) && !/^(e\.g|i\.e|etc)\b/i.test(n) && !/^[a-z]\/[a-z]$/i.test(n)),
    ),
  ];
}

/**
 * Compounds in which a word for an execution only qualifies another noun ("the command line", "a search engine",
 * "the file system"): they name a thing of the world, not a command, a search or a file of the session.
 */
const WORLD_COMPOUNDS =
  /\b(command|search|file|call)[\s-]+(line|prompt|palette|engines?|bar|box|field|systems?|explorer|manager|cent(?:er|re)s?)\b/g;

/** The message with such compounds written as one word ("the commandline"), so no reading takes them for a record. */
export function joinWorldCompounds(lower: string): string {
  return lower.replace(WORLD_COMPOUNDS, "$1$2");
}
