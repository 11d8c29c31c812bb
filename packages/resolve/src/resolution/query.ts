import { ArefError } from "@artifact-refs/schema";
import { CONCEPTS, EXECUTION_NOUNS, GENERAL_QUESTION, HINT_RULES, type ToolClass, numberWord } from "./lexicon.js";
import { GENERIC_NOUNS, camelParts, isStopword, stem } from "./tokens.js";
import { nearWords } from "./near-words.js";

export type TemporalOp =
  | { kind: "latest"; why: string }
  | {
      kind: "previous";
      why: string /** "before this/it": before the current execution, not the latest of the kind. */;
      demonstrative?: boolean;
      /** "the one before the last, how many …?": a generic noun, then a clause of its own: the one before the latest execution. */
      overall?: boolean;
      /** "two checks back", "a couple of steps ago": how many of the kind back from the latest (1 when absent). */
      back?: number;
    }
  /** `overall`: "the first/third thing (we did)": the position in the whole session, whatever the other words name. */
  | { kind: "first"; why: string; overall?: boolean }
  | { kind: "nth"; n: number; why: string; overall?: boolean }
  /** `within`: an order among the records on that side ("the first df, before all the cleanup": the earliest). */
  | { kind: "event"; side: "before" | "after"; phrase: string; why: string; within?: TemporalOp }
  /** "yesterday's", "today's": by the executions' calendar day (0 = the latest timestamp's day, 1 = the day before). */
  | { kind: "day"; daysBack: number; why: string }
  /** "an hour ago", "a few minutes ago": by the executions' timestamps. */
  | { kind: "clock"; agoMs: number; why: string };

export interface QueryTerm {
  /** The word as written (lowercased). */
  word: string;
  stem: string;
  /** 1 for a content word, less for a generic noun ("file", "page"). */
  weight: number;
  /** Words of the same concept (matched at a discount), and their stems. */
  related: string[];
  relatedStems: string[];
  /** Words near it in the word vectors, and their stems: matched only when the word, its stem, a typo and a concept word all miss. */
  near: string[];
  nearStems: string[];
  /** Written like a name: has a dot, slash, underscore, digit or inner capital. */
  nameLike: boolean;
}

export interface ParsedQuery {
  text: string;
  terms: QueryTerm[];
  /** Explicit file names, paths and URLs in the message. */
  names: string[];
  hints: Map<ToolClass | "data" | "file", { weight: number; what: string }>;
  temporal: TemporalOp | undefined;
  /** "that error", "what went wrong", "the 500": the message is about a failed execution. */
  wantsError: boolean;
  statusCodes: string[];
  /** How many executions a plural reference asks for ("the two READMEs"). */
  count: number | undefined;
  /** "compare A with B": the parts, each resolved on its own. */
  parts: string[] | undefined;
  /** A general question or a task that refers to no execution. */
  general: boolean;
  /** A definite reference to something of the session (the/that/my + noun, "what I just ..."). */
  referring: boolean;
  /** A demonstrative or possessive on an execution noun ("that error", "my query", "this listing"). */
  demonstrative: boolean;
  /** "the" + a word, for each such word (to check whether it names something of the session). */
  definiteWords: string[];
  /** Word sequence for phrase matches. */
  sequence: string[];
  /** "vs" parts that each carry a name (a dot, digit, underscore or slash): a comparison of session things. */
  partsNamed: boolean;
  /** Adjacent words a record may hold as one ("crunchy data" → "crunchydata"). */
  compounds: Array<{ word: string; parts: [string, string] }>;
  /** Stems of words the message sets aside ("so much for android", "not the staging one"). */
  negated: string[];
  /** A follow-up on the previous answer ("the other one", "the one before that", "both of them"). */
  followUp: FollowUp | undefined;
  /** A question about an amount ("how many …", "how much …", "what was the total …"): its answer is a number in a result. */
  asksValue: boolean;
  /** The kind of amount asked ("how much disk …" → size, "how long did it take" → duration) and the message's words that say it. */
  valueUnit: { kind: ValueKind; words: string[] } | undefined;
  /** The message speaks of something that happened (a past-tense verb): a result of the session rather than a general fact. */
  past: boolean;
  /** A question (which/what/who/how/where/when/did/was/is …) that names no file or URL: it asks what a result said. */
  asksResult: boolean;
  /**
   * The message talks about the session rather than asking a general question: "you"/"we" with a verb ("what do
   * you see"), a pronoun standing for something of the session ("why won't it install"), an action in the past
   * ("did it get applied"), or a definite thing of the session's state ("the new setting", "the code today").
   */
  aboutSession: boolean;
  /**
   * Every tool hint comes from a verb in the past ("we ran …", "you searched …"), none from a noun ("the tests"):
   * the verb's object must then be something of the session for the hint to count.
   */
  verbHintsOnly: boolean;
  /**
   * A statement in the first person, or about someone else ("my cousin runs a shop", "he just wants it up"), with no
   * question and no request ("we currently have three kids", "my cat knocked over my coffee"): it tells something
   * rather than asking for a record.
   */
  statement: boolean;
  /** "the last run that passed", "the run where everything worked", "the green build": the outcome was success. */
  wantsSuccess: boolean;
  /**
   * A question about what to do or what would happen ("should we add a gate in CI?", "do we have to file X?", "do
   * you think we should move to k8s?", "does the store split it if we ship Y?"): it asks for advice, not a record.
   */
  advice: boolean;
  /**
   * The message is about the world, not the session: how a product behaves in general ("what does systemd do when a
   * unit hits its limit?", "does the host charge for api calls?"), a comparison of products ("is X faster than Y?"),
   * a plan or the future ("next week we want to move the zone"), or what would happen ("what happens if a disk dies").
   */
  world: boolean;
  /**
   * "did you also check X?", "did you run it against Y too?": whether something more was done. Only a record that
   * holds every word of that something answers it.
   */
  alsoAsked: boolean;
  /**
   * A present question about a bare name asking its present state ("does aws still offer a free tier?", "does nginx
   * still reload cleanly?"): about the world unless a record holds most of what it talks about.
   */
  stateAsked: boolean;
  /**
   * A failure asked about that is the session's: in the past, or persisting ("does nginx still crash?", "… anymore?",
   * "… now?"); a failure in the present of a world question ("how often do disks fail?") is the world's.
   */
  sessionFailure: boolean;
  /** "which/what <noun> <present verb> …" ("which linux command shows open ports?"): asks which thing does something. */
  whichDoes: boolean;
  /**
   * The main clause (before "so", "when", "before", "if" …; not "that", which also points) points at a record or an order: "how would you
   * set up alerts so i find out before it's this bad" points at nothing, "how would you redo that build" does.
   */
  mainPointed: boolean;
  /** Content words that are not order or time words ("currently", "latest"): what the message is about. */
  topicWords: string[];
}

export type ValueKind = "size" | "duration" | "fill";

/** Words that ask for an amount of a kind: a size in bytes, or a duration. */
const UNIT_WORDS: Record<Exclude<ValueKind, "fill">, RegExp> = {
  size: /^(disk|space|size|sizes|storage|memory|ram|footprint|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?|kb|mb|gb|tb|kib|mib|gib|big|bigger|large|larger|heavy)$/,
  duration:
    /^(time|times|took|duration|latency|elapsed|runtime|fast|faster|slow|slower|quick|quickly|seconds?|minutes?|hours?|ms|secs?|mins?)$/,
};

/** The kind of amount a value question asks for, from its words ("how long did/does …" asks a duration). */
function valueUnitOf(lower: string): ParsedQuery["valueUnit"] {
  const words = lower.match(/[a-z]+/g) ?? [];
  for (const kind of ["size", "duration"] as const) {
    const said = words.filter((w) => UNIT_WORDS[kind].test(w));
    if (kind === "duration" && /\bhow long (?:did|does|do|will|would|was|were|has|had|to|it)\b/.test(lower))
      said.push("long");
    if (said.length) return { kind, words: [...new Set(said)] };
  }
  return undefined;
}

/** How full something is ("how full", "close to full", "filling up", "running out of space"): asks for a share used. */
const FILL_ASK =
  /\bhow full\b|\b(?:close|closer|closest|near|nearly|almost|getting)\s+(?:to\s+)?(?:full|filling|capacity)\b|\bfill(?:ing|s|ed)?\s+up\b|\brunning out of (?:space|room|disk|memory)\b|\bout of (?:space|room)\b/;

function fillAsked(lower: string): ParsedQuery["valueUnit"] {
  const m = FILL_ASK.exec(lower);
  return m ? { kind: "fill", words: m[0].match(/[a-z]+/g) ?? [] } : undefined;
}

/** "sizes", "durations", "timings": a plural that names a kind of amount asks for the amounts themselves. */
function amountNamed(lower: string): ParsedQuery["valueUnit"] {
  if (/\b(sizes|file sizes|durations|timings|run ?times|latencies)\b/.test(lower)) return valueUnitOf(lower);
  return undefined;
}

/** Each hint rule's pattern with the global flag, built once (matchAll needs it; the rules are tested without). */
const GLOBAL_HINT_RES = new Map(HINT_RULES.map((rule) => [rule, new RegExp(rule.re.source, `${rule.re.flags}g`)]));

/** A hint matched through a verb in the past alone ("ran", "wrote", "searched", "we just read"). */
const PAST_VERB = /^(?:(?:i|you|we)\s+(?:just\s+)?)?(?:ran|wrote|read|took|got|made|built|found|saw|[a-z]{3,}ed)$/;

/** A past-tense verb: "was", "did", "came", "took", "found", or a regular "-ed" form. */
const PAST_TENSE =
  /\b(was|were|did|had|got|came|went|took|ran|found|saw|made|gave|wrote|read|left|grew|fell|rose|showed|shown|done|been|[a-z]{3,}ed)\b/;

/**
 * Cues that a message talks about the session's own things and actions (ParsedQuery.aboutSession): "you"/"we"
 * doing something (not a request: "can you help"), "it"/"they" as the subject of a verb ("won't it", "did they"),
 * an irregular past-tense verb of an action (regular "-ed" words are too often adjectives: "based", "expected";
 * "was"/"were" as often ask about history in general), or the
 * current state of a thing ("the new setting", "still", "right now").
 */
const SESSION_TALK: RegExp[] = [
  /(?<!\b(?:can|could|would|will|wo)(?:n'?t)?\s+)\b(?:you|we)\s+(?!should\b|think\b|know\b|recommend\b|help\b|please\b)(?:\w+n'?t\s+|just\s+|also\s+|actually\s+)?[a-z]{2,}/,
  /\b(?:did|does|do|didn'?t|doesn'?t|won'?t|wont|can'?t|cant|will|would|has|have|had)\s+(?:it|they)\b/,
  /\b(?:did|got|came|went|took|ran|found|saw|gave|wrote|left|grew|fell|rose|showed|shown|done)\b/,
  /\bthe\s+(?:new|old|current|latest|fresh|same|existing|remaining)\b|\b(?:today|right now|currently|still|anymore|so far)\b/,
  // A pointer at a thing in view: "this box", "that module", "in there", "the invoice thing".
  /\b(?:in|from|out of|on|of) there\b|\bthe\s+\w+\s+(?:thing|stuff)\b/,
];

/** Questions whose answer is an amount: the result that gives a number for the message's words answers them. */
const VALUE_QUESTION =
  /\bhow\s+(many|much|big|large|small|long|full|fast|slow|often|old|high|low|far|heavy|busy|close)\b|\bwhat\s+(?:was|is|were|are|'s)\s+(?:the\s+)?(?:\w+\s+)?(count|number|total|size|rate|amount|percentage|percent|share|ratio|score|average|mean|median|p\d+|latency|usage|peak|max|maximum|min|minimum)\b/;

const NAME_RE = /(?:https?:\/\/[^\s'"`<>()]+)|(?:[~.]?[\w@-]*[\\/][\w@.\-\\/*]+)|(?:\b[\w-]+\.[A-Za-z][\w]{0,9}\b)/g;

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

export function parseQuery(input: string): ParsedQuery {
  // Control characters are spaces; a message longer than MAX_MESSAGE_CHARS is read up to it.
  const text = input
    .slice(0, MAX_MESSAGE_CHARS)
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, " ")
    .trim();
  if (text.length === 0) {
    throw new ArefError("INVALID_INPUT", "the message to resolve is empty", {
      hint: 'pass the user\'s words, e.g. "summarize what I just loaded"',
    });
  }
  // Quoted phrases that are not names ("translate 'heat pump'") are the object of a task, not a reference.
  const negation = splitNegation(normalizeMessage(text));
  // An apostrophe inside a word ("yesterday's", "don't") opens or closes no quote.
  const body = negation.positive.replace(
    /(?<![\p{L}\p{N}])(["'`‘“])([^"'`’”]{1,200})(["'`’”])(?![\p{L}\p{N}])/gu,
    (_whole, _a: string, inner: string) => (/[./\\]/.test(inner) ? inner : " "),
  );
  const names = [
    ...new Set(
      (body.match(NAME_RE) ?? [])
        .map((n) => n.replace(/[?!,;:]+$/, ""))
        .filter((n) => !/^\d+(\.\d+)*$/.test(n) && !/^(e\.g|i\.e|etc)\b/i.test(n)),
    ),
  ];
  const lower = body.toLowerCase().replace(/[’‘]/g, "'");
  // Hints are read from the words around names, not inside them ("tests/test_dates.py").
  let hintText = lower;
  for (const n of names) hintText = hintText.split(n.toLowerCase()).join(" ");
  // What the thing itself does ("what does it write out?", "which tables does it query") or what a third party did
  // ("who wrote the book", "she ran a shop") is no tool of the session.
  hintText = hintText.replace(
    /\b(?:does|did|do|will|would|can)\s+(?:it|they|this|that|he|she)\s+\w+|\b(?:it|they|who|he|she)\s+(?:\w+s|wrote|read|ran|called|fetched|listed|searched|queried|made|built|tested)\b/g,
    " ",
  );

  const hints: ParsedQuery["hints"] = new Map();
  const consumed = new Set<string>();
  let verbHintsOnly = true;
  for (const rule of HINT_RULES) {
    if (!rule.re.test(hintText)) continue;
    for (const m of hintText.matchAll(GLOBAL_HINT_RES.get(rule)!))
      if (!PAST_VERB.test(m[0].trim())) verbHintsOnly = false;
    for (const [cls, w] of Object.entries(rule.hints) as Array<[ToolClass | "data" | "file", number]>) {
      const cur = hints.get(cls);
      if (!cur || cur.weight < w) hints.set(cls, { weight: w, what: rule.what });
    }
    for (const c of rule.consumes ?? []) consumed.add(c);
  }
  // "who wrote the book", "she ran a bakery": an action of a third party is no word of the session's records.
  const thirdParty =
    /(?:(?:^|[,;.!?]\s*)who|\b(?:he|she))\s+(?:wrote|read|ran|made|built|took|got|did|found|saw|gave|went|came|left)\b/g;
  for (const m of lower.matchAll(thirdParty)) consumed.add(m[0].trim().split(/\s+/).at(-1)!);
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

  // "before and after the fix" names two things (parts below), not one order.
  const temporal = /\bbefore and after\b/.test(lower) ? undefined : (parseTemporal(lower) ?? negation.order);
  // "the status before the restart vs after": a comparison of two positions keeps its parts (below).
  if (temporal?.kind === "event" && !/\s(?:vs\.?|versus)\s/.test(lower)) {
    // The event clause ("before the migration ran") anchors the order; the rest describes the referent.
    const clause = `${temporal.side} ${temporal.phrase}`;
    const at = lower.indexOf(clause);
    // "right/just after the grep": the modifier belongs to the event clause, not to the rest.
    const head = body.slice(0, at).replace(/\b(?:right|just|immediately|directly)\s*$/i, "");
    const rest = at >= 0 ? `${head} ${body.slice(at + clause.length)}`.trim() : "";
    if (rest.replace(/[^\p{L}\p{N}]/gu, "").length > 0) {
      const inner = parseQuery(rest);
      const within = inner.temporal && inner.temporal.kind !== "event" ? inner.temporal : undefined;
      return {
        ...inner,
        text,
        temporal: within ? { ...temporal, within } : temporal,
        negated: [...inner.negated, ...negation.words],
      };
    }
  }
  const statusCodes = [...lower.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => m[1]!);
  const failureWords =
    /\b(that|the|this|an?|any|last|latest|first|earliest|previous|second|third|other|newest|most recent)\s+(error|errors|failure|failures|crash|exception|traceback)\b(?!\s+(log|logs|handler|handlers|docs?|page|pages|file|files|message|code|codes|reference|rate|budget|class|type))/.test(
      lower,
    ) ||
    /\b(went red|turned red|gone red|went wrong|go wrong|goes wrong|broke|broken|fail|failed|failing|fails|couldn'?t|could not|can'?t|cannot|didn'?t work|did not work|wasn'?t able|errored|crash|crashed|crashes|crashing|blew up|blow up|blows up|died|exploded|panicked|bombed|choked|rejected|refused|(?:did not|didn'?t|would not|wouldn'?t|will not|won'?t|wont|does not|doesn'?t) (?:accept|install|start|build|compile|connect|load|boot|mount|deploy|pass))\b/.test(
      lower,
    ) ||
    /\bthe\s+[1-5]\d\d\b/.test(lower) ||
    /\b[1-5]\d\d'?d\b/.test(lower) ||
    /\berror\s*[?.!]*\s*$/.test(lower);
  // "ok now or still broken?": the outcome is the question, not a description of the execution.
  const outcomeAsked =
    /\bor\b/.test(lower) &&
    /\b(ok|okay|fine|green|pass|passed|passing|passes|works?|worked|working|succeed|succeeded|success|successful|fixed)\b/.test(
      lower,
    );
  const wantsError = failureWords && !outcomeAsked;
  const past = PAST_TENSE.test(lower);

  // Content terms.
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const termText = body.replace(
    /\b(a|one|a few|few)\s+(moment|minute|second|sec|min)s?\s+ago\b|\bjust now\b|\bright now\b|\bthis time\b|\bfirst time\b|\bside[- ]by[- ]side\b|\b(?:at|from) the (very )?(start|beginning|outset|get[- ]go)\b|\bfirst thing\b|\bin the (very )?beginning\b|\bto begin with\b|\b(an?|one|\d+|a few|few|several|a couple of|couple of|a couple|couple|two|three|four|five|ten|twenty|thirty)\s+(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)\s+(?:or so\s+)?(?:ago|back|earlier)\b|\b(right|just|immediately|directly)\s+(?=before\b|after\b)/gi,
    " ",
  );
  const rawWords = termText.match(/[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*/gu) ?? [];
  for (const raw of rawWords) {
    const pieces =
      raw.includes(".") && !/^\d/.test(raw) ? [raw, ...raw.split(/[.-]/)] : raw.includes("-") ? raw.split("-") : [raw];
    for (const piece of pieces) {
      const word = piece.toLowerCase();
      if (!word || seen.has(word)) continue;
      seen.add(word);
      if (consumed.has(word) || isStopword(word) || word.length < 2) continue;
      // "open" at the start of a request means "show"; elsewhere ("tickets that are open") it is a word.
      if (word === "open" && /^\s*(please\s+|can you\s+|could you\s+|now\s+|and\s+)?(re)?open\b/.test(lower)) continue;
      if (numberWord(word) !== undefined) continue;
      const nameLike =
        /[._\d]/.test(piece) ||
        camelParts(piece).length > 1 ||
        (piece.length >= 2 && piece === piece.toUpperCase() && /[A-Z]/.test(piece));
      const related = relatedWords(word, lower);
      // Words near it in the word vectors (names are spelled as they are): weaker than the lexicon's concept words.
      const near = nameLike ? [] : nearWords(word).filter((w) => !related.includes(w));
      terms.push({
        word,
        stem: stem(word),
        // Generic nouns ("file", "page") and bare numbers ("23") say little on their own.
        weight: GENERIC_NOUNS.has(word) || /^\d+(\.\d+)*$/.test(word) ? 0.3 : 1,
        related,
        relatedStems: related.map(stem),
        near,
        nearStems: near.map(stem),
        nameLike,
      });
    }
  }

  // Multi-word concepts ("how many", "only one") stand for words that may be written otherwise.
  for (const group of CONCEPTS) {
    for (const phrase of group) {
      if (!phrase.includes(" ") || !new RegExp(`\\b${phrase}\\b`).test(lower) || seen.has(phrase)) continue;
      seen.add(phrase);
      const related = group
        .filter((g) => g !== phrase)
        .flatMap((g) => (g.includes(" ") ? [g.replace(/ /g, "-"), g.replace(/ /g, "")] : [g]));
      terms.push({
        word: phrase,
        stem: phrase,
        weight: 0.5,
        related,
        relatedStems: related.map(stem),
        near: [],
        nearStems: [],
        nameLike: false,
      });
    }
  }

  const sequence = (lower.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.replace(/s$/, ""));
  let count: number | undefined;
  for (const w of lower.match(/\b(two|both|pair|three|four|five)\b/g) ?? []) count = numberWord(w);
  let parts: string[] | undefined;
  let partsNamed = false;
  const cut = (p: string) => p.split(/[,;?!]|\.(?:\s|$)/)[0]!.trim();
  const strip = (p: string) =>
    p.replace(/^\s*(?:please\s+)?(?:compare|diff|contrast|differences? between)\s+/, "").trim();
  const beforeAfter = /^(.*?)\s*\bbefore and after\s+(.+)$/.exec(lower);
  // "line up A against B", "put A next to B": a comparison in other words.
  const cmp =
    /\b(?:compare|diff|contrast|line up|differences? between|(?:changed|changes?) between)\s+(.+?)\s+(?:with|and|to|against|next to|beside|alongside|vs\.?|versus)\s+(.+)$/.exec(
      lower,
    ) ?? /\b(?:put|place|lay|show)\s+(.+?)\s+(?:next to|beside|alongside|side by side with)\s+(.+)$/.exec(lower);
  const versus = /(?:^|[,;:.!?]\s*)([^,;:.!?]+?)\s+(?:vs\.?|versus)\s+(.+)$/.exec(lower);
  // "the first and the last status": two positions of one kind.
  const pair =
    /^(.*?)\b(first|initial|earliest|original|oldest)\s+and\s+(?:the\s+)?(last|latest|final|current|newest|most recent)\s+(.+)$/.exec(
      lower,
    );
  if (pair && !cmp) {
    const what = cut(pair[4]!);
    parts = [`${strip(pair[1]!)} ${pair[2]} ${what}`.trim(), `the ${pair[3]} ${what}`];
    count = Math.max(count ?? 0, 2);
  } else if (beforeAfter && beforeAfter[1]!.trim()) {
    // "the profile before and after the fix": the one before the event, then the one after it.
    const what = strip(beforeAfter[1]!);
    const event = cut(beforeAfter[2]!);
    parts = [`${what} before ${event}`, `${what} after ${event}`];
    count = Math.max(count ?? 0, 2);
  } else if (cmp) {
    parts = [cmp[1]!, cut(cmp[2]!)];
    count = Math.max(count ?? 0, 2);
  } else if (versus) {
    // "q1 vs q2 actuals": each side names something of the session, or it is a general comparison.
    parts = [versus[1]!.trim(), cut(versus[2]!)];
    count = Math.max(count ?? 0, 2);
  } else if (/\b(compare|side[- ]by[- ]side)\b/.test(lower)) count = Math.max(count ?? 0, 2);
  if (parts)
    partsNamed = parts.every((p) =>
      (p.match(/[\p{L}\p{N}_]+(?:[.\-/][\p{L}\p{N}_]+)*/gu) ?? []).some((w) => /[._\d/]/.test(w)),
    );

  // Adjacent content words written apart that a record holds as one word ("crunchy data" → "crunchydata").
  const compounds: ParsedQuery["compounds"] = [];
  const plain = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  for (let i = 0; i + 1 < plain.length; i++) {
    const a = plain[i]!;
    const b = plain[i + 1]!;
    const ta = terms.find((t) => t.word === a);
    const tb = terms.find((t) => t.word === b);
    if (ta && tb && a.length >= 2 && b.length >= 2 && !/^\d+$/.test(a + b))
      compounds.push({ word: a + b, parts: [a, b] });
  }

  const general = GENERAL_QUESTION.some((re) => re.test(lower));
  const referring =
    temporal !== undefined ||
    (/\b(that|this|those|these|my|your|our)\s+(\w+\s+)?(\w+)\b/.test(lower) &&
      hasExecutionNounAfterDemonstrative(lower)) ||
    /\b(i|you|we)\s+(just\s+|had\s+|have\s+|'ve\s+)?(\w+ed|read|ran|got|did|saw|made|wrote|found|sent|put|tried)\b/.test(
      lower,
    ) ||
    /\bthe\s+[\w.-]+\s+(i|you|we)\b/.test(lower) ||
    /\b(again|once more)\b/.test(lower) ||
    definiteExecutionNoun(lower) ||
    names.length > 0;

  const demonstrative = hasExecutionNounAfterDemonstrative(lower);
  const definiteWords = [
    ...lower.matchAll(/\b(?:the|that|this|my)\s+([\w.-]+)(?:\s+([\w.-]+))?(?:\s+([\w.-]+))?/g),
  ].flatMap((m) => [m[1], m[2], m[3]].filter((w): w is string => !!w));
  const followUp = parseFollowUp(lower);
  return {
    text,
    terms,
    names,
    hints,
    temporal,
    wantsError,
    statusCodes,
    count,
    parts,
    partsNamed,
    general,
    referring,
    demonstrative,
    definiteWords,
    sequence,
    compounds,
    negated: negation.words,
    followUp,
    asksValue: VALUE_QUESTION.test(lower),
    // A value question, or a message that names the kind of amount itself ("the bundle sizes", "the run times").
    valueUnit: fillAsked(lower) ?? (VALUE_QUESTION.test(lower) ? valueUnitOf(lower) : amountNamed(lower)),
    past,
    asksResult: names.length === 0 && /^\s*(which|what|who|how|where|when|did|was|were|is|are)\b/.test(lower),
    // "we never did it before": what was never done is no action of the session.
    aboutSession:
      !general &&
      SESSION_TALK.some((re) =>
        re.test(
          lower.replace(thirdParty, " ").replace(/\b(?:i|we|you)\s+(?:have\s+|had\s+|'ve\s+)?never\b[^,;:.!?]*/g, " "),
        ),
      ),
    verbHintsOnly: hints.size > 0 && verbHintsOnly,
    advice: ADVICE.test(lower),
    world:
      ((WORLD_DOES.test(lower) || COMPARISON.test(lower)) && GENERAL_MARK.test(lower)) ||
      (COMPARISON.test(lower) && !pointerAtSession(lower)) ||
      (NORM_QUESTION.test(lower) && !pointerAtSession(lower)) ||
      HYPOTHETICAL.test(lower) ||
      GENERIC.test(lower) ||
      FUTURE.test(lower),
    alsoAsked: ALSO_ASKED.test(lower),
    stateAsked: (WORLD_DOES.test(lower) || COMPARISON.test(lower)) && STATE_MARK.test(lower),
    sessionFailure: wantsError && (past || /\b(?:still|anymore|any more|again|now)\b/.test(text.toLowerCase())),
    whichDoes: /^\s*(?:which|what)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:[a-z]+[^s\W]s|is|are|can|does|do)\b/.test(
      text.toLowerCase(),
    ),
    mainPointed: mainPointed(lower),
    wantsSuccess:
      !wantsError &&
      /\b(?:that|which|where|when|one)\s+(?:everything\s+|all\s+|it\s+|they\s+)?(?:passed|succeeded|worked|went green|was green|were green|came back clean|was clean)\b|\b(?:green|passing|successful|succeeded|clean)\s+(?:run|runs|one|build|builds|test run|deploy|attempt)\b/.test(
        lower,
      ),
    statement:
      !/\?/.test(lower) &&
      // "we got a puppy", "my cat knocked over …": a subject and a verb ("our original status check" is a noun phrase);
      // or a feeling told ("X is driving me nuts", "i'm sick of Y").
      (FEELING.test(lower) ||
        /^\s*(?:(?:so|and|well|btw|oh|ok|okay|also|anyway)\b[\s,]*)?(?:(?:i|we|i'm|we're|i've|we've)\s+\w|(?:my|our)\s+(?:[\w'-]+\s+){1,3}(?:is|are|was|were|has|have|had|got|gets|[a-z]{2,}ed|sat|ran|went|took|made|ate|broke|fell|left|came|saw|won|lost|bought|found|gave|knew|told|wrote|said|did|[a-z]{2,}[^siu']s(?=\s+\w))\b|(?:he|she)\s+(?:\w+n't\s+|just\s+|really\s+)?[a-z]{2,})/.test(
          lower,
        )) &&
      !/\b(?:can|could|would|will) you\b|\b(?:please|pls|plz)\b|\b(?:show|give|tell|find|check|open|compare|summari[sz]e|explain|list)\s+(?:me|us)\b|\b(?:i|we) (?:want|need|wonder|wondered|'d like|would like)\b/.test(
        lower,
      ),
    topicWords: terms
      .filter((t) => t.weight >= 1 && !parseTemporal(t.word) && !FIRST_WORDS.test(t.word) && !LATEST_WORDS.test(t.word))
      .map((t) => t.word),
  };
}

/** A feeling told about something: "X is driving me nuts", "the death of me", "i'm sick of Y", "ugh". */
const FEELING =
  /\b(?:drives?|driving|drove)\s+(?:me|us)\s+(?:crazy|nuts|mad|insane|up the wall)\b|\b(?:killing|kills)\s+(?:me|us)\b|\bthe death of (?:me|us)\b|\b(?:sick|tired) of\b|\bfed up with\b|\bcan'?t stand\b|^\s*ugh\b/;

/** Words of the present ("now", "right now", "currently", "the current", "at the moment"); "just now" is the recent past. */
const PRESENT_WORDS =
  /(?<!\bjust\s)\b(?:right now|as of (?:now|today)|by now|at (?:the|this) (?:moment|point)|these days|nowadays|currently|presently|current|now)\b/gi;

/** "it", "they", "them": a pronoun standing for something of the session ("is it busy?"), not "is it true that …". */
const PRONOUN = /\b(?:it|its|they|them|their)\b/;
const EXPLETIVE_IT =
  /\b(?:is|was|isn't|wasn't|would|will)\s+it\s+(?:be\s+)?(?:true|possible|worth|normal|common|usual|ok|okay|safe|better|worse|bad|good|fine|wise|smart|cheaper|faster|an? \w+ idea)\b|\bit (?:depends|seems|looks like)\b/g;

/**
 * The message without its words of the present, when those are its only order and nothing else of it points at the
 * session (no pronoun standing for a record, no "you/we did", no "that/the output", no name, no failure): the
 * present ("which provider is cheapest right now?", "does X charge for Y now?") is then no position of the session,
 * and the message is decided as the rest of it would be. Undefined otherwise ("is it busy now?", "what does the log
 * say now?" keep their order).
 */
export function withoutPresent(query: ParsedQuery): ParsedQuery | undefined {
  if (query.temporal?.kind !== "latest" || query.followUp) return undefined;
  const lower = query.text.toLowerCase().replace(/[’‘]/g, "'");
  if (lower.search(PRESENT_WORDS) < 0) return undefined;
  const rest = query.text.replace(PRESENT_WORDS, " ").replace(/\s+/g, " ").trim();
  if (!/[\p{L}\p{N}]/u.test(rest)) return undefined;
  const q = parseQuery(rest);
  // "the current one", "what about now?": the present word is all the message names.
  if (q.topicWords.length === 0) return undefined;
  const pointed =
    q.temporal !== undefined ||
    q.referring ||
    q.demonstrative ||
    q.aboutSession ||
    q.wantsError ||
    q.names.length > 0 ||
    PRONOUN.test(rest.toLowerCase().replace(EXPLETIVE_IT, " "));
  return pointed ? undefined : q;
}

/**
 * What is normal, usual, recommended or best in general: "how many retries is normal for …", "what's a sane default
 * for …", "which host has the cheapest plan". Read as a question about the world only when nothing points at the session.
 */
const NORM_QUESTION =
  /\bhow\s+(?:big|large|small|long|many|much|often|fast|high|low)\s+(?:[\w-]+\s+){0,2}?should\s+(?:an?|any)\s|\bwhat(?:'s| is| are)\s+the\s+(?:max|maximum|min|minimum|largest|biggest|smallest|longest|shortest|most|least)\s+(?:[\w-]+\s+){0,3}(?:of|for|in|on)\s+(?:an?|any)\s|\bwhat(?:'s| is| are)\s+the\s+default\s+(?:[\w-]+\s+){0,3}(?:for|of|in|on)\s+(?!(?:the|this|that|these|those|our|my|your|its|their)\b)[a-z]|\b(?:is|are|'s|be|considered)\s+(?:\w+\s+)?(?:normal|typical|usual|standard|customary|recommended|reasonable|sensible|sane|acceptable)\b|\b(?:a|the)\s+(?:good|sane|sensible|reasonable|recommended|typical|usual|normal|standard|best|ideal|common)\s+(?:default|value|number|amount|size|limit|timeout|setting|choice|way|practice|approach|range)\b|\bwhat(?:'s| is| are)\s+(?:the\s+)?(?:best|cheapest|fastest|safest|easiest|most popular)\b|\bwhich\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is|are|has|have|gives?|offers?)\s+the\s+(?:best|cheapest|fastest|most|least|biggest|lowest|highest)\b/;

/**
 * Something in the message points at the session, words of the present and of a continuing state ("now", "still",
 * "today") aside: an order word, "that/this" with a record noun or as a pronoun ("is that normal?"), "you/we did", a
 * definite record noun ("the log"), a pronoun standing for a record ("is it busy?"), or talk of the session's actions.
 */
function pointerAtSession(lower: string): boolean {
  const calm = lower
    .replace(PRESENT_WORDS, " ")
    .replace(/\b(?:still|anymore|any more|so far|today|these days)\b/g, " ");
  return (
    parseTemporal(calm) !== undefined ||
    hasExecutionNounAfterDemonstrative(calm) ||
    /\b(i|you|we)\s+(just\s+|had\s+|have\s+|'ve\s+)?(\w+ed|read|ran|got|did|saw|made|wrote|found|sent|put|tried)\b/.test(
      calm,
    ) ||
    /\bthe\s+[\w.-]+\s+(i|you|we)\b/.test(calm) ||
    /\b(again|once more)\b/.test(calm) ||
    definiteExecutionNoun(calm) ||
    SESSION_TALK.some((re) => re.test(calm)) ||
    PRONOUN.test(calm.replace(EXPLETIVE_IT, " ")) ||
    /\b(?:is|was|are|were|isn't|wasn't)\s+(?:that|this|these|those)\b|\b(?:that|this)\s*[?.!]*\s*$/.test(calm)
  );
}

/** A question about what to do or what would happen, not about what a result said. */
const ADVICE =
  /^\s*(?:will|would|does|do|can|could|what happens|what would happen)\b[^?]*\bif (?:we|i|you)\s+(?!(?:did|had|were|was)\b)\w+|\b(?:should|shall) (?:we|i)\b(?! have\b)|\bdo (?:we|i) (?:have|need) to\b|\b(?:do|would) you (?:think|recommend|suggest|advise)\b|\bwould it (?:be|make sense)\b|\bis it (?:worth|better|safe|ok|okay|normal|common|usual) (?:to|for)\b|\bis it an? (?:bad|good|smart|dumb|terrible|great) idea\b|\b(?:can|could) you recommend\b|\bany (?:good )?alternatives to\b|\bwhat would you (?:name|call|use|pick|choose|recommend)\b|\bif (?:we|i) (?:ship|switch|move|use|add|go|upgrade|migrate|change|drop|keep)\b/;

/**
 * A present or modal question whose subject is a bare name or an indefinite ("does shopify charge …", "how does git
 * bisect pick …", "how many products can a plan hold"), not one pointed at ("does the log say …", "did it …").
 */
const WORLD_DOES =
  /^\s*(?:(?:so|and|but|ok|okay|also|btw|quick question)\b[\s,:]*)?(?:(?:how|what|why|when|where|which|who)(?:\s+(?:long|much|many|often|well|\w+s))?\s+(?:[\w/-]+\s+){0,3})?(?:does|do|can|will)\s+(?!(?:it|that|this|these|those|they|them|you|we|i|he|she|the|your|my|our|its|their|there|any|anything|something)\b)(?!(?:[\w.-]+\s+){0,3}(?:have|has|run|runs|use|uses|contain|contains|include|includes|say|says|show|shows|list|lists|return|returns|point|points|set|mean|means|look)\b)[a-z.]/;
/** A comparison of two things in general: "is psycopg 3 faster than psycopg2 …", "are tabs better than spaces". */
const COMPARISON =
  /^\s*(?:is|are)\s+(?!(?:it|that|this|these|those|they|the|your|my|our|there)\b)[\w.-]+(?:\s+[\w.-]+){0,3}\s+(?:\w+er|more|less|better|worse)\s+than\b/;
/** What would happen, or how one would go about something: "what happens if a disk dies", "if X fills up, does it …". */
const HYPOTHETICAL =
  /\bwhat (?:happens|would happen|will happen)\b|\b(?:why|how|when)\s+(?:would|could|might)\s+(?:an?|any|some)\s|^\s*if\b[^?,]*,\s*(?:does|do|will|would|can|could|is|are|should)\b|\bhow (?:would|should|do) (?:you|we|i) (?:set up|setup|configure|structure|organi[sz]e|approach|monitor|avoid|prevent)\b|\bwhat would you do\b/;
/** The usual way, best (or bad, good, common) practice, a difference between two things in general ("explain the difference between A and B"), what something is called ("what do you call a backup that …"). */
const GENERIC =
  /\bwhat (?:do|does) (?:you|we|people|one) call (?:an?|the|it when)\b|\b(?:the usual way|(?:best|bad|good|common|standard) practices?|in practice)\b|\bwhy does every\b|\b(?:explain|tell) (?:to )?(?:me |us )?the difference between\b|\bwhat(?:'s| is) the difference between\b/;
/** A plan or the future: "next week we want to …", "starting monday", "long term", "we're planning to …". */
const FUTURE =
  /\b(?:next|coming)\s+(?:week|month|year|quarter|sprint|release|spring|summer|fall|autumn|winter)\b|\btomorrow\b|\bstarting\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|next|tomorrow)\b|\b(?:long term|in the future|going forward|from now on|eventually|someday|one day)\b|\b(?:we|i)(?:'re| are| am|'m)?\s+(?:going to|gonna|planning to|plan to|intend to|hope to)\b/;
/** Whether something more was done: "did you also …", "have you … too?", "did you … as well". */
const ALSO_ASKED =
  /^\s*(?:(?:and|so|oh|ok|okay|btw)\b[\s,]*)?(?:did|have|had)\s+(?:you|we)\b(?:\s+also\b|[^?]*\b(?:too|as well|either)\s*[?.!]?\s*$)/;
/** The main clause points at a record (a demonstrative with a record noun) or at a position. */
function mainPointed(lower: string): boolean {
  const main = lower.split(/\b(?:so|when|whenever|before|after|if|because|until|once|while)\b/)[0] ?? lower;
  // "that"/"this" before a verb in -s opens a relative clause ("monitoring that pages us"), it does not point
  // ("that page", "those pages").
  const pointing = main.replace(/\b(?:that|this)\s+(?=[a-z]*[^aiosu']s\b)/g, "which ");
  return hasExecutionNounAfterDemonstrative(pointing) || parseTemporal(main) !== undefined;
}
/** Words that make a question general: an indefinite thing, a condition, "usually", "by default", whether a product supports or requires something (not "even"/"actually"/"still": "did it even run?" is about the session). */
const GENERAL_MARK =
  /\b(?:does|do|can|will)\s+an?\b|\b(?:when|whenever|if)\b|\b(?:usually|generally|normally|typically|in general|forever|automatically|by default)\b|\bhow often\b|\b(?:support|supports|require|requires)\b/;

/** The present state of something ("still", "anymore", "nowadays", "these days"): of a product, or of the session's thing. */
const STATE_MARK = /\b(?:still|anymore|any more|nowadays|these days)\b/;

/** Cues that set a thing aside: "not the first run", "so much for android", "instead of the log". */
const NEGATION_RE =
  /\b(?:not\s+(?=the\b|that\b|this\b|those\b|my\b|your\b|our\b)|not (?:specific|particular|tied) to\s+|never ?mind\s+|forget(?:\s+about)?\s+|so much for\s+|instead of\s+|rather than\s+|other than\s+|apart from\s+|except(?:\s+for)?\s+)((?:the|that|this|those|my|your|our)\s+)?([^,;.!?]+?)\s*(?=,|;|\.(?:\s|$)|!|\?|\bbut\b|$)/gi;
const FIRST_WORDS = /\b(first|earliest|original|oldest|initial)\b/;
const LATEST_WORDS = /\b(last|latest|newest|recent|current)\b|^(this|that)(\s+one)?$/;

/**
 * The message without what it sets aside, the content words set aside, and the order the
 * set-aside words imply when nothing else gives one ("not the first one" → a later one).
 */
export function splitNegation(text: string): { positive: string; words: string[]; order: TemporalOp | undefined } {
  const words: string[] = [];
  let order: TemporalOp | undefined;
  const positive = text.replace(NEGATION_RE, (_whole, _det: string | undefined, what: string) => {
    const lowered = what.toLowerCase().trim();
    if (FIRST_WORDS.test(lowered)) order ??= { kind: "latest", why: `not "${lowered}"` };
    else if (LATEST_WORDS.test(lowered)) order ??= { kind: "previous", why: `not "${lowered}"` };
    // The kind of thing stays ("not the first test run, the second": test runs); names and order words go.
    const kept: string[] = [];
    // "not the first trigger, …": an order word sets aside a position among records of the kind its noun names;
    // the noun stays as the kind.
    const ordered = FIRST_WORDS.test(lowered) || LATEST_WORDS.test(lowered);
    for (const w of lowered.match(/[\p{L}\p{N}_]+/gu) ?? []) {
      if (ordered && !(w.length < 2 || isStopword(w) || FIRST_WORDS.test(w) || LATEST_WORDS.test(w))) {
        if (w !== "one" && w !== "ones") kept.push(w);
        continue;
      }
      if (EXECUTION_NOUNS.has(w) || EXECUTION_NOUNS.has(w.replace(/s$/, ""))) {
        if (w !== "one" && w !== "ones") kept.push(w);
        continue;
      }
      if (w.length < 2 || isStopword(w) || FIRST_WORDS.test(w) || LATEST_WORDS.test(w)) continue;
      words.push(stem(w));
    }
    return ` ${kept.join(" ")} , `;
  });
  return { positive, words, order };
}

/** Follow-ups that only make sense against the previous answer of the conversation. */
export type FollowUp = "other" | "before" | "after" | "both" | "same";

export function parseFollowUp(lower: string): FollowUp | undefined {
  if (
    /\b(both of (them|those|these)|all of (them|those|these)|both (ones|results)|the two of them|each of them)\b|^\s*(and\s+)?both\s*[?.!]*\s*$/.test(
      lower,
    )
  )
    return "both";
  if (/\b(the other (one|ones|file|result|run|page)?|the other\s*[?.!]*$|another one|the rest)\b/.test(lower))
    return "other";
  if (
    /\b(the one|the (file|run|page|result|query|call|search|command)|one|the thing) (just |right )?before (that|it|this|those)( one)?\b|\bbefore (that|it) one\b/.test(
      lower,
    )
  )
    return "before";
  if (
    /\b(the one|the (file|run|page|result|query|call|search|command)|one|the thing) (just |right )?after (that|it|this|those)( one)?\b|\bafter (that|it) one\b|\bthe next one\b/.test(
      lower,
    )
  )
    return "after";
  if (
    /^\s*(and\s+|so\s+|ok\s+|okay\s+)?(what about|how about|show|open|summari[sz]e|explain|more on|more about|tell me more about|go on with|expand on)?\s*(it|that|that one|this one|the same one|same one)(\s+again)?\s*[?.!]*\s*$/.test(
      lower,
    )
  )
    return "same";
  return undefined;
}

/** "the routes file", "the test run", "the docs page": a definite description of an execution. */
function definiteExecutionNoun(lower: string): boolean {
  for (const m of lower.matchAll(/\bthe\s+((?:[\w.-]+\s+){0,2}?)([\w-]+)\b/g)) {
    if (EXECUTION_NOUNS.has(m[2]!) || EXECUTION_NOUNS.has(m[2]!.replace(/s$/, ""))) return true;
  }
  return false;
}

function hasExecutionNounAfterDemonstrative(lower: string): boolean {
  for (const m of lower.matchAll(/\b(?:that|this|those|these|my|your|our)\s+((?:[\w-]+\s+){0,2}?)([\w-]+)\b/g)) {
    const ws = `${m[1] ?? ""}${m[2]}`.trim().split(/\s+/);
    if (ws.some((w) => EXECUTION_NOUNS.has(w) || EXECUTION_NOUNS.has(w.replace(/s$/, "")))) return true;
  }
  return false;
}

function relatedWords(word: string, lower: string): string[] {
  const out = new Set<string>();
  const s = stem(word);
  for (const group of CONCEPTS) {
    if (group.some((g) => g === word || stem(g) === s))
      for (const g of group) if (g !== word && !g.includes(" ")) out.add(g);
  }
  // Multi-word concepts ("how many") come from the message itself.
  for (const group of CONCEPTS) {
    for (const g of group)
      if (g.includes(" ") && lower.includes(g) && g.split(" ").includes(word))
        for (const x of group) if (!x.includes(" ")) out.add(x);
  }
  return [...out];
}

/**
 * The latest execution named by order alone ("the last one", "the most recent step", "the final command"),
 * up to the end of the clause, after one more word (a verb: "the last one say") when an execution noun is
 * named; without one only a verb of what it did may follow ("before the last deploy" is an event).
 */
const LATEST_REF =
  "(?:the|my|your|our|that|this)\\s+(?:very\\s+)?(?:last|latest|most recent|newest|final)(?:\\s+(?:one|step|thing|action|command|call|execution|tool call|result|output)(?:\\s+[a-z]+)?\\s*(?:[?.!,;]|$)|\\s*(?:[?.!,;]|$|(?:say|said|says|take|took|takes|do|did|does|show|showed|print|printed|return|returned|give|gave|output|produce|produced)\\b))";

/** A failure pointed at without a name: "that failure", "that 500", "why did it fail?", "it went red". */
const POINTED_FAILURE =
  /\b(?:that|this)\s+(?:failure|error|crash|exception|traceback|[45]\d\d)\b|\b(?:did|does|has) (?:that|this|it) (?:fail|break|crash|error)\b|\bit (?:went|turned|has gone) red\b/;

/** A position inside a content or a span of time, not among records: "the first line of", "the last week". */
const CONTENT_POSITION =
  /^(?:of|line|lines|row|rows|column|columns|col|cols|entry|entries|item|items|element|elements|field|fields|word|words|char|chars|character|characters|byte|bytes|paragraph|paragraphs|section|sections|chapter|chapters|sentence|sentences|page|pages|half|part|few|couple|week|weeks|month|months|year|years|night|day|days|hour|hours|minute|minutes|time|times|place|one|ones|\d+)$/;

/** Order words: "just", "the last one", "the earlier one", "the one before", "first time", "before my edit". */
export function parseTemporal(lower: string): TemporalOp | undefined {
  // "the third thing you did", "the very first step": an ordinal of a generic noun counts every execution.
  // "the second thing you searched for": a clause with a verb of its own after the generic noun names the kind
  // (a verb that names no kind, "did", "tried", keeps the count over the whole session).
  const overall = (ordinal: string) =>
    new RegExp(
      `\\b${ordinal}\\s+(?:thing|things|step|steps|action|actions)\\b(?!\\s+(?:that\\s+|which\\s+)?(?:i|you|we|u)\\s+(?!(?:did|do|done|does|tried|try|made|make|had|have|got|said|asked|mentioned|told|wanted|needed|were|was|ran|run|executed|called)\\b)(?:[a-z]+ed|ran|wrote|read|built)\\b)`,
    ).test(lower)
      ? { overall: true }
      : {};
  const nounAfter = (re: RegExp) => {
    for (const m of lower.matchAll(re)) {
      const after = lower
        .slice(m.index! + m[0].length)
        .trim()
        .split(/[^\w'-]+/)
        .slice(0, 3);
      if (after.length === 0 || after[0] === "") return true;
      if (after.some((w) => EXECUTION_NOUNS.has(w) || EXECUTION_NOUNS.has(w.replace(/s$/, "")))) return true;
      // "the first file I opened": a noun then a person and a verb
      if (/^(i|you|we)$/.test(after[1] ?? "") || /^(i|you|we)$/.test(after[2] ?? "")) return true;
    }
    return false;
  };

  // "the first df, before all the cleanup", "first status vs latest status": an order word over one or two words
  // that end the clause (or come before an event) orders the kind those words name, whatever the noun; a
  // position inside a content ("the first line of", "the last week") is no order of records.
  const clauseKind = (order: string) => {
    const re = new RegExp(
      `(?:\\bthe\\s+(?:very\\s+)?|^\\s*|[,;:.!?]\\s*)${order}\\s+([\\w.'/-]+)(?:\\s+([\\w.'/-]+))?\\s*(?:[,;:!?]|\\s[-\u2013\u2014]\\s|\\s+(?:before|after|from|when|vs\\.?|versus)\\b|$)`,
      "g",
    );
    for (const m of lower.matchAll(re)) {
      const ws = [m[1], m[2]].filter((w): w is string => !!w);
      if (ws.some((w) => CONTENT_POSITION.test(w) || isStopword(w.replace(/'s$/, "")))) continue;
      return true;
    }
    return false;
  };
  // "the one before the last, how many …?", "the second-to-last result: which …": the order phrase names no kind
  // (a generic noun) and the message's own words come in a clause of their own: the position in the whole session.
  const previousOverall = () =>
    /\b(?:the\s+)?(?:one|result|output|thing|step|action|command|call|execution)\s+before\s+(?:the|that|this)\s+(?:very\s+)?(?:last|latest|most recent|final)(?:\s+(?:one|step|thing|action|command|call|execution|result|output))?\s*[,;:]|\b(?:second[- ]to[- ]last|second[- ]last|penultimate|next[- ]to[- ]last)\s+(?:one|result|output|thing|step|action|command|call|execution)(?:\s+(?:that\s+|which\s+)?(?:i|you|we)\s+(?:ran|run|did|tried|executed|called))?\s*[,;:]/.test(
      lower,
    )
      ? { overall: true }
      : {};
  // "the run before last", "the ping before last": the one before the latest.
  if (
    /\bbefore\s+last\b(?!\s+(?:night|week|month|year|time|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)/.test(
      lower,
    )
  )
    return { kind: "previous", why: '"before last"' };
  // "before the last one", "just before the most recent step (took)": the one before the latest, not an event.
  if (new RegExp(`\\bbefore\\s+${LATEST_REF}`).test(lower))
    return { kind: "previous", why: "the one before the latest", ...previousOverall() };
  // Before/after an event ("before the migration ran", "after my edit"), unless the event is
  // the referent itself ("before it died").
  const ev =
    /\b(before|after)\s+(?!(?:this|that|it|the last|the latest|the previous|the one)\b(?:\s+one)?\s*(?:[?.!,]|$))((?:all\s+(?:of\s+)?)?(?:(?:my|your|the|i|you|we|our|that|this)\b|(?!(?:everything|anything|nothing|something)\b)[a-z]{3,}ing\s+(?:the|my|our|your|that|this|it|a|an)\b)(?:[^?.!,;]|[.](?=\w))*)/.exec(
      lower,
    );
  // "before that slice" names an event; "before that happened", "before this one" do not.
  if (
    ev &&
    !/^(it|they)\b/.test(ev[2]!) &&
    // "before we touched anything": no event of the session but its start (below).
    !/\b(?:touched|changed|did|tried|started|ran|fixed|modified|edited)\s+(?:anything|everything)\s*$/.test(
      ev[2]!.trim(),
    ) &&
    !/^(?:this|that)\s*(?:$|one\b|[a-z]+ed\b|(?:is|was|were|went|broke|ran|came|did|does|do|got|gets|goes|will|would|has|had)\b)/.test(
      ev[2]!.trim(),
    )
  ) {
    const phrase = ev[2]!.split(/\s+(?:vs\.?|versus)\s+/)[0]!.trim();
    return { kind: "event", side: ev[1] as "before" | "after", phrase, why: `"${ev[1]} ${phrase}"` };
  }

  // "the status before we touched anything": before any change of the session is its start.
  if (
    /\bbefore (?:(?:we|you|i) (?:\w+ )?)?(?:touched|changed|did|tried|started|ran|fixed) (?:anything|everything)\b/.test(
      lower,
    )
  )
    return { kind: "first", why: '"before anything"' };
  const clock = parseClock(lower);
  if (clock) return clock;
  const day = /\b(yesterday|today)'s\b|\bfrom (yesterday|today)\b/.exec(lower);
  if (day) return { kind: "day", daysBack: (day[1] ?? day[2]) === "yesterday" ? 1 : 0, why: `"${day[0]}"` };
  // "two checks back", "a couple of steps ago", "one run back": counted back from the latest of the kind; "two years
  // ago", "a few weeks back" is a time before the session, no record counted back.
  const back =
    /\b(one|two|three|four|2|3|4|a couple of|couple of|a few)\s+(?:more\s+)?(?:(?!(?:weeks?|months?|years?|decades?|quarters?|semesters?|summers?|winters?)\b)[a-z]+\s+){0,2}(?:back|ago)\b/.exec(
      lower,
    );
  if (back) {
    const n = {
      one: 1,
      two: 2,
      three: 3,
      four: 4,
      "2": 2,
      "3": 3,
      "4": 4,
      "a couple of": 2,
      "couple of": 2,
      "a couple": 2,
      couple: 2,
      "a few": 3,
    }[back[1] as "one"];
    // The latest is one back ("one step back"); "two checks ago" is the one before it.
    return n === 1 ? { kind: "latest", why: `"${back[0]}"` } : { kind: "previous", why: `"${back[0]}"`, back: n - 1 };
  }
  if (/\b(second[- ]to[- ]last|second[- ]last|penultimate|next[- ]to[- ]last)\b/.test(lower))
    return { kind: "previous", why: "second to last", ...previousOverall() };
  if (
    /\b(just |right |immediately )?before (it|this|that)( one)?\s*([?.!,]|$)/.test(lower) &&
    !/\bbefore (it|this|that) one\b/.test(lower)
  ) {
    return { kind: "previous", why: "the one before this", demonstrative: true };
  }
  if (
    /\b(the one before|one before (it|this|that)|the (one|result|file|run|query|command|page|log) before|before (it|this|that|the last|the latest)( one)?\s*([?.!,]|$)|before this one|before that one|earlier one|the earlier|previous one|the previous|prior one|the prior|the time before|the (?:older|earlier|former)(?: one)? of the (?:two|2)|the older (?:one|\w+)|not (this|that|the latest|the last|the newest)( one)?\b)/.test(
      lower,
    )
  ) {
    return { kind: "previous", why: "the one before the latest" };
  }
  if (
    /\b(earlier|previously|before)\b/.test(lower) &&
    /\b(i|you|we)\b/.test(lower) &&
    // "we never did it before", "have you ever done this before?": "before" as "ever" is no earlier record.
    !/\b(?:never|ever)\b[^,;:.!?]*\b(?:before|previously)\s*(?:[,;:.!?]|$)/.test(lower) &&
    !/\bbefore\s+(?:it|they|he|she)\s+\w/.test(lower)
  ) {
    return { kind: "previous", why: '"earlier"' };
  }
  // "the second file", or a clause that starts with the ordinal ("second thing we looked at, …").
  const nth = /(?:\bthe|^|[,;:.!?]\s*)\s*(second|third|fourth|fifth|2nd|3rd|4th|5th)\b(?![- ](to[- ])?last)/.exec(
    lower,
  );
  if (nth && (nounAfter(new RegExp(`(?:\\bthe|^|[,;:.!?]\\s*)\\s*${nth[1]}\\b`, "g")) || clauseKind(nth[1]!))) {
    const n = { second: 2, third: 3, fourth: 4, fifth: 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5 }[nth[1] as "second"];
    return { kind: "nth", n, why: `"the ${nth[1]}"`, ...overall(nth[1]!) };
  }
  if (
    /\b(first time|the very first|originally|initially|(?:at|from) the (very )?(start|beginning|outset|get[- ]go)|in the (very )?beginning|to begin with|first thing|at first|(?:the|our|my|your) original|the initial|before (?:(?:we|you|i) (?:\w+ )?)?(?:touched|changed|did|tried|started|ran) (?:anything|everything)|before anything (?:else )?(?:was|got|changed|ran)|oldest|earliest)\b/.test(
      lower,
    ) ||
    nounAfter(/\bfirst\b/g) ||
    clauseKind("first")
  ) {
    // "at the very start, what was …?": the phrase is a clause of its own and names no kind: the session's start.
    const sessionStart =
      /(?:^|[,;:.!?]\s*|\b(?:and|so|but|ok|okay)\s+)(?:at|from|in)\s+the\s+(?:very\s+)?(?:start|beginning|outset)\s*[,;:]/.test(
        lower,
      );
    return { kind: "first", why: '"first"', ...(sessionStart ? { overall: true } : overall("first")) };
  }
  // A failure pointed at without a name ("that failure", "that 500", "why did it fail?", "it went red"):
  // the latest of the failures.
  if (POINTED_FAILURE.test(lower)) return { kind: "latest", why: "the failure pointed at" };
  if (
    /\b(i|you|we)\s+just\b|\bjust\s+(now|\w+ed|read|ran|run|did|got|saw|wrote|made|sent)\b|\b(a|one)\s+(moment|minute|second|sec|min)\s+ago\b|\bmoments? ago\b|\bright now\b|\bthis time\b|\bmost recent(ly)?\b|\bnewest\b|\bthe (?:newer|latter)\b|\bthe later (?:one|of)\b|\bjust now\b|\bas (?:it|they) (?:stands?|is|are) now\b|\bas (?:it|they) stands?\b|\bcurrently\b|\bthe current (?:state|version|one|contents?)\b/.test(
      lower,
    ) ||
    nounAfter(/\b(last|latest)\b/g) ||
    clauseKind("(?:last|latest|newest|current)") ||
    /\b(that|this)\s+((?:[\w-]+\s+){0,2}?)(one|result|output|error|listing|query|search|run|command|call|request|page|file|log|response|thing)\b/.test(
      lower,
    ) ||
    // "… now?" asks for the latest; "that's all for now" (for the time being) orders nothing.
    /(?<!\bfor )\bnow\s*[?.!]*\s*$/.test(lower) ||
    /\bwhat (just )?happened( there| here| just now)?\s*[?.!]*\s*$|\bwhat was that\s*[?.!]*\s*$/.test(lower)
  ) {
    return { kind: "latest", why: "the most recent" };
  }
  return undefined;
}

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
