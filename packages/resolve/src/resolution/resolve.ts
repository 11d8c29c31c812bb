import { ArefError } from "@artifact-refs/schema";
import { type ExecutionLike, type IndexedExecution, executionId, indexExecution } from "./executions.js";
import { type ParsedQuery, type TemporalOp, parseQuery, withoutPresent } from "./query.js";
import { type Scored, candidatePositions, matchName, scoreContext, scoreExecution, unscored } from "./score.js";
import { type PostingWindow, type SessionIndex, sessionIndexOf } from "./session.js";
import { resolveFollowUp } from "./follow-up.js";
import { isStopword, stem } from "./tokens.js";
import { verbsAsNouns } from "./verb-nouns.js";
import type { ToolClass } from "./lexicon.js";
import { type SemanticSimilarities, semanticAnswer } from "./semantic.js";
import { pickTimeOfDay, timeOfDayPool } from "./time-of-day-pick.js";
import { latestAsked } from "./decide-latest.js";

export interface ResolveOptions {
  /** Only executions up to and including this id are considered (the message came right after it). */
  after?: string;
  /** Clock for time words ("an hour ago"); defaults to the latest execution's timestamp. */
  now?: Date;
  /**
   * The previous resolution of the conversation (its candidates' ids, best first, or the
   * Resolution itself): "the other one", "the one before that", "both of them" are read against it.
   */
  previous?: readonly string[] | Resolution;
  /** At most this many candidates (default 5). */
  limit?: number;
  /**
   * Similarity of the message to each execution by id (a sentence-embedding model's, computed by the caller:
   * @artifact-refs/resolve-semantic). Used only when lexical signals find nothing for a message that is not
   * general: a clear semantic winner of the recent window answers it (src/resolution/semantic.ts).
   */
  semantic?: SemanticSimilarities;
}

export interface Candidate {
  id: string;
  /** Plausibility in [0, 1]; the first candidate is the best. */
  score: number;
  /** Why it matched: words, names, tool kind, outcome, order. */
  reasons: string[];
}

export interface Resolution {
  candidates: Candidate[];
  /** Two or more different executions fit equally well: ask which one, or show them all. */
  ambiguous: boolean;
}

/** Share of the best score within which two candidates count as a tie. */
const TIE = 0.9;
/** Share of the best score that makes a candidate one of "the kind in question" for order words. */
const KIND = 0.75;

/**
 * From the user's words and the session's executions (oldest first) to the executions meant.
 * Returns ranked candidates with reasons, `ambiguous` when different executions fit equally,
 * and no candidates when the words refer to none (it never invents a reference).
 */
export function resolveReferences(
  text: string,
  executions: readonly ExecutionLike[],
  options: ResolveOptions = {},
): Resolution {
  return resolveWith(windowedScorer, text, executions, options);
}

/** Scores every record of `list` (session order) for a query, as `resolveParsed` reads them. */
export type SessionScorer = (
  executions: readonly ExecutionLike[],
  list: IndexedExecution[],
) => (query: ParsedQuery) => Scored[];

/** Records looked at per word, tool kind or outcome held by many records (see PostingWindow). */
export const DEFAULT_WINDOW: PostingWindow = { head: 64, tail: 256 };

/** The session index (cached per executions array): scores only the records that can score, within `window`. */
export function indexedScorer(window: PostingWindow = DEFAULT_WINDOW): SessionScorer {
  return (executions, list) => {
    const session = sessionIndexOf(executions, list);
    return (query) => scoreSession(query, list, session, window);
  };
}
const windowedScorer = indexedScorer();

/** resolveReferences with the scoring step given (tests compare the index with a full scan). */
export function resolveWith(
  scorer: SessionScorer,
  text: string,
  executions: readonly ExecutionLike[],
  options: ResolveOptions = {},
): Resolution {
  if (typeof text !== "string") throw new ArefError("INVALID_INPUT", "the message to resolve must be a string");
  if (!Array.isArray(executions))
    throw new ArefError("INVALID_INPUT", "executions must be an array of execution records");
  let list = preparedList(executions);
  if (options.after !== undefined) {
    const at = list.findIndex((x) => x.id === options.after);
    if (at === -1) {
      throw new ArefError("NOT_FOUND", `no execution with id ${JSON.stringify(options.after)} to resolve after`, {
        hint: "pass the id of an execution in the list (the message is asked right after it)",
      });
    }
    list = list.slice(0, at + 1);
  }
  const query = parseQuery(text);
  const limit = options.limit ?? 5;
  if (list.length === 0) return { candidates: [], ambiguous: false };
  const score = scorer(executions, list);

  const previous = previousIds(options.previous);
  if (previous.length > 0) {
    const follow = resolveFollowUp(query, list, previous, score);
    if (follow)
      return {
        candidates: follow.ids.map((id, i) => ({ id, score: 1, reasons: follow.reasons[i]! })),
        ambiguous: false,
      };
  }

  // "which host is cheapest right now?": the present is no position of the session. When nothing else of the
  // message points at the session, it is decided as it would be without the present word.
  const rest = withoutPresent(query);
  if (rest && resolveParsed(rest, list, limit, score, options.now).candidates.length === 0)
    return lastResort(query, list, score);

  const parts = query.parts && query.parts.length > 1 ? comparedParts(query.parts) : undefined;
  if (parts && (!query.general || query.partsNamed || parts.ordered)) {
    const picked: Candidate[] = [];
    for (const [i, part] of parts.texts.entries()) {
      const r = resolveParsed(parts.queries[i] ?? parseQuery(part), list, limit, score, options.now);
      const first = r.candidates.find((c) => !picked.some((p) => p.id === c.id));
      if (first) picked.push({ ...first, reasons: [`named in "${part}"`, ...first.reasons] });
    }
    if (picked.length === parts.texts.length)
      return { candidates: picked.map((c) => ({ ...c, score: 1 })), ambiguous: false };
  }
  const lexical = resolveParsed(query, list, limit, score, options.now);
  if (lexical.candidates.length > 0) return lexical;
  const latest = lastResort(query, list, score);
  if (latest.candidates.length > 0 || options.semantic === undefined || query.general || !text.trim()) return latest;
  return semanticAnswer(list, options.semantic);
}

/** Nothing of the session matched: a question about the state of what was just done is about the latest execution. */
function lastResort(query: ParsedQuery, list: IndexedExecution[], score: (query: ParsedQuery) => Scored[]): Resolution {
  const s = latestAsked(query, list, score);
  if (!s) return { candidates: [], ambiguous: false };
  return {
    candidates: [
      { id: s.x.id, score: 1, reasons: ["the latest execution: the message asks how what was just done went"] },
    ],
    ambiguous: false,
  };
}

/**
 * Some record holds the message's topic words itself (the word or its stem, not a related word): every one of them
 * ("all": "did you also check the temps?", the asked verb `except` aside) or more than half ("most"). Without
 * topic words, "most" holds and "all" asks only for a record that scores.
 */
function topicHeld(query: ParsedQuery, scored: Scored[], share: "all" | "most", except?: string): boolean {
  const topic = query.terms.filter((t) => query.topicWords.includes(t.word) && t.word !== except);
  if (topic.length === 0 && share === "most") return true;
  return scored.some((s) => {
    if (s.total <= 0) return false;
    const held = topic.filter((t) => s.x.tokens.has(t.word) || s.x.stems.has(t.stem)).length;
    return share === "all" ? held === topic.length : held * 2 > topic.length;
  });
}

/** The verb of "did you (also) X …": what was asked to be done, not a word a record must hold. */
function askedVerb(query: ParsedQuery): string | undefined {
  return /\b(?:did|have|had)\s+(?:you|we)\s+(?:also\s+)?([a-z]+)/.exec(query.text.toLowerCase())?.[1];
}

/**
 * The record an order word picks from `xs` (oldest first): the first, the n-th (else the latest), the latest, or
 * `back` before the latest (else the first); undefined for an order that is no position (event, clock, day).
 */
function pickByOrder<T>(xs: readonly T[], op: TemporalOp): T | undefined {
  switch (op.kind) {
    case "first":
      return xs[0];
    case "nth":
      return xs[op.n - 1] ?? xs.at(-1);
    case "latest":
      return xs.at(-1);
    case "previous":
      return xs.at(-1 - (op.back ?? 1)) ?? xs[0];
    default:
      return undefined;
  }
}

/**
 * The parts of "X vs Y" as each is resolved: a part that names only a position ("now", "today's", "the current one")
 * takes the other part's content words ("queue counts from the very start vs now": the queue counts now); a bare
 * "after"/"before" takes the other part's event ("the status before the restart vs after"). `ordered`: every part
 * carries an order or time word, so the comparison is of two positions in the session, not a general one. `queries`:
 * each part's parse, done once.
 */
function comparedParts(texts: string[]): {
  texts: string[];
  queries: (ParsedQuery | undefined)[];
  ordered: boolean;
} {
  const parsed = texts.map(tryParse);
  const out = texts.map((t, i) => {
    const p = parsed[i];
    const other = parsed[i === 0 ? 1 : 0];
    if (!p || !other) return t;
    const side = /^\s*(before|after)\s*$/.exec(t)?.[1];
    if (side && other.temporal?.kind === "event")
      return `${texts[i === 0 ? 1 : 0]!.replace(/\b(before|after)\b/, side)}`;
    const content = p.topicWords.length > 0 || p.names.length > 0 || p.hints.size > 0;
    // The other side's words without its order words ("the first search" → "search").
    const core = texts[i === 0 ? 1 : 0]!.replace(
      /\b(?:the|a|an|my|our|your|very|first|second|third|last|latest|initial|original|earliest|newest|current|previous|final|most recent|one|ones|now|today's|yesterday's|from|at|start|beginning)\b/g,
      " ",
    )
      .replace(/\s+/g, " ")
      .trim();
    if (!content && p.temporal && core) return `${t} ${core}`;
    return t;
  });
  // "lag now against the first describe": a part that ends in an order word and a kind ("the first describe") names
  // the kind that the other part, a topic at a position ("lag now"), is about too: "the describe lag now".
  if (parsed.every((p) => p?.temporal !== undefined))
    for (const [i, t] of out.entries()) {
      const other = out[i === 0 ? 1 : 0]!;
      const kind = /\b(?:first|second|last|latest|initial|original|previous|earlier)\s+([a-z][\w.-]*)\s*$/.exec(
        other,
      )?.[1];
      const named = kind !== undefined && (!isStopword(kind) || verbsAsNouns(other).has(kind));
      if (named && t === texts[i] && !t.includes(kind) && parsed[i]!.topicWords.length > 0) out[i] = `the ${kind} ${t}`;
    }
  // Each part parsed once (a part left as it was keeps its parse); undefined where the text does not parse.
  const queries = out.map((t, i) => (t === texts[i] ? parsed[i] : tryParse(t)));
  return { texts: out, queries, ordered: queries.every((q) => q?.temporal !== undefined) };
}

function tryParse(text: string): ParsedQuery | undefined {
  try {
    return parseQuery(text);
  } catch {
    return undefined;
  }
}

function previousIds(previous: ResolveOptions["previous"]): string[] {
  if (previous === undefined || previous === null) return [];
  if (Array.isArray(previous)) return previous.filter((id): id is string => typeof id === "string");
  const candidates = (previous as Resolution).candidates;
  if (!Array.isArray(candidates))
    throw new ArefError("INVALID_INPUT", "previous must be a list of execution ids or a previous resolution");
  // The previous answer: its best candidate, and every tied one when it was ambiguous or plural.
  const top = candidates.filter((c, i) => i === 0 || c.score >= (candidates[0]?.score ?? 1));
  return top.map((c) => c.id).filter((id): id is string => typeof id === "string");
}

/** The session's records, indexed, checked and in order, kept per executions array. */
interface Prepared {
  sources: ExecutionLike[];
  /** Each source's order, timestamp and is_referenceable when prepared: a change in place is seen. */
  orders: unknown[];
  stamps: unknown[];
  referable: unknown[];
  list: IndexedExecution[];
  ids: Set<string>;
  /** The order key of the last record (order or timestamp); NaN when a record has none. */
  lastKey: number;
}
const preparedCache = new WeakMap<object, Prepared>();
/** The list whose positions were set last on the (shared, per-record) indexes, and how many. */
let lastPositioned: IndexedExecution[] | undefined;
let positionedLength = 0;
/** Arrays owned by a ResolutionSession (appended to only through it). */
const owned = new WeakSet<object>();

/**
 * A session's executions for repeated resolution, appended to as they run: each `resolve` costs
 * what the message matches, not the session's length (resolveReferences over a plain array
 * compares every record with the last call's to see changes made in place).
 */
export class ResolutionSession {
  readonly #records: ExecutionLike[] = [];
  constructor(records: Iterable<ExecutionLike> = []) {
    owned.add(this.#records);
    this.add(...records);
  }
  /** Appends executions (checked at the next resolve: a bad record or a duplicate id is INVALID_INPUT then and is dropped). */
  add(...records: ExecutionLike[]): this {
    for (const r of records) this.#records.push(r);
    return this;
  }
  get size(): number {
    return this.#records.length;
  }
  resolve(text: string, options: ResolveOptions = {}): Resolution {
    const before = this.#records.length;
    try {
      return resolveReferences(text, this.#records, options);
    } catch (error) {
      // A record that does not check out is dropped, so the next resolve works on the valid ones.
      if (error instanceof ArefError && error.code === "INVALID_INPUT" && typeof text === "string" && text.trim())
        this.#dropInvalid(before);
      throw error;
    }
  }
  #dropInvalid(count: number): void {
    const seen = new Set<string>();
    const keep: ExecutionLike[] = [];
    for (const [i, r] of this.#records.slice(0, count).entries()) {
      try {
        const x = indexedOf(r, i);
        if (seen.has(x.id)) continue;
        seen.add(x.id);
        keep.push(r);
      } catch {
        // dropped
      }
    }
    this.#records.length = 0;
    this.#records.push(...keep);
    preparedCache.delete(this.#records);
  }
}

/**
 * The records of `executions` as resolution reads them. Cached per array: the same array with the
 * same record objects costs a pointer comparison per record; records pushed onto it are indexed
 * and checked alone (when they come after the others in order); anything else is rebuilt.
 */
function preparedList(executions: readonly ExecutionLike[]): IndexedExecution[] {
  const cached = preparedCache.get(executions);
  const m = cached ? cached.sources.length : 0;
  let same = cached !== undefined && m <= executions.length;
  // A ResolutionSession's array changes only through its add(): no need to compare its records.
  for (let i = 0; same && i < m && !owned.has(executions); i++) {
    const e = executions[i]!;
    same =
      cached!.sources[i] === e &&
      cached!.orders[i] === e.order &&
      cached!.stamps[i] === e.timestamp &&
      cached!.referable[i] === e.is_referenceable;
  }
  if (cached && same) {
    for (let i = m; i < executions.length; i++) {
      const e = executions[i]!;
      const x = indexedOf(e, i);
      cached.sources.push(e);
      cached.orders.push(e.order);
      cached.stamps.push(e.timestamp);
      cached.referable.push(e.is_referenceable);
      if (e.is_referenceable === false) continue;
      const key = orderKey(x);
      if (
        cached.ids.has(x.id) ||
        !(Number.isFinite(key)
          ? key >= cached.lastKey || cached.list.length === 0
          : Number.isNaN(cached.lastKey) || cached.list.length === 0)
      ) {
        preparedCache.delete(executions);
        return rebuild(executions);
      }
      cached.ids.add(x.id);
      cached.lastKey = key;
      cached.list.push(x);
    }
    // Positions live on the shared per-record index: set them again unless this list set them last.
    for (let i = lastPositioned === cached.list ? positionedLength : 0; i < cached.list.length; i++)
      cached.list[i]!.index = i;
    lastPositioned = cached.list;
    positionedLength = cached.list.length;
    return cached.list;
  }
  return rebuild(executions);
}

function rebuild(executions: readonly ExecutionLike[]): IndexedExecution[] {
  const all = executions.map((e, i) => indexedOf(e, i)).filter((x) => x.source.is_referenceable !== false);
  const ids = new Set<string>();
  for (const x of all) {
    if (ids.has(x.id)) {
      throw new ArefError("INVALID_INPUT", `two executions have the id ${JSON.stringify(x.id)}`, {
        hint: "each execution needs its own id: a reference must name one execution",
      });
    }
    ids.add(x.id);
  }
  const list = orderOf(all);
  lastPositioned = list;
  positionedLength = list.length;
  const last = list.at(-1);
  preparedCache.set(executions, {
    sources: [...executions],
    orders: executions.map((e) => e.order),
    stamps: executions.map((e) => e.timestamp),
    referable: executions.map((e) => e.is_referenceable),
    list,
    ids,
    lastKey: last ? orderKey(last) : Number.NaN,
  });
  return list;
}

function orderKey(x: IndexedExecution): number {
  return x.source.order ?? (x.source.timestamp ? Date.parse(x.source.timestamp) : Number.NaN);
}

/** Indexing an execution costs far more than scoring it: keep the index per record object. */
const indexCache = new WeakMap<object, IndexedExecution>();
function indexedOf(e: ExecutionLike, i: number): IndexedExecution {
  if (e === null || typeof e !== "object") throw new ArefError("INVALID_INPUT", `execution #${i + 1} is not an object`);
  if (typeof e.tool_name !== "string") {
    throw new ArefError("INVALID_INPUT", `execution #${i + 1} has no tool_name`, {
      hint: 'each execution needs "tool_name" (and "id" or "execution_id")',
    });
  }
  for (const key of ["id", "execution_id", "summary", "result_summary", "label", "timestamp"] as const) {
    if (e[key] !== undefined && typeof e[key] !== "string")
      throw new ArefError("INVALID_INPUT", `execution #${i + 1}: ${key} must be a string`);
  }
  if (
    e.tool_args !== undefined &&
    (e.tool_args === null || typeof e.tool_args !== "object" || Array.isArray(e.tool_args))
  ) {
    throw new ArefError("INVALID_INPUT", `execution #${i + 1}: tool_args must be an object`);
  }
  const cached = indexCache.get(e);
  // The position is per call: set it on the cached index (resolution is synchronous).
  if (cached && cached.source === e && cached.id === executionId(e, i)) {
    if (cached.index !== i) {
      cached.index = i;
      lastPositioned = undefined;
    }
    return cached;
  }
  const x = indexExecution(e, i);
  indexCache.set(e, x);
  return x;
}

function orderOf(list: IndexedExecution[]): IndexedExecution[] {
  const keyed = list.map((x) => ({ x, key: orderKey(x) }));
  if (keyed.every((k) => Number.isFinite(k.key))) keyed.sort((a, b) => a.key - b.key || a.x.index - b.x.index);
  return keyed.map((k, i) => {
    k.x.index = i;
    return k.x;
  });
}

function resolveParsed(
  query: ParsedQuery,
  list: IndexedExecution[],
  limit: number,
  score: (query: ParsedQuery) => Scored[],
  now?: Date,
): Resolution {
  const none: Resolution = { candidates: [], ambiguous: false };
  const specificHint = [...query.hints.keys()].some((k) => k !== "file" && k !== "data");
  const demonstrative = query.temporal !== undefined || query.referring;
  // General questions and tasks ("explain what a 502 means", "write a haiku") refer to nothing,
  // unless they also point at something of the session ("how do I fix that error?").
  const definiteToolNoun = query.definiteToolNoun;
  // A request to write something new about a day ("write a note about yesterday's outage"): the day orders no record,
  // the request asks for new text (a day still points at the session in "yesterday's status vs today's").
  const pointedInTime = query.temporal !== undefined && !(query.temporal.kind === "day" && query.writesNew);
  if (query.general && !(pointedInTime || query.demonstrative || definiteToolNoun || query.names.length > 0))
    return none;
  if (
    query.terms.length === 0 &&
    query.names.length === 0 &&
    query.hints.size === 0 &&
    !query.wantsError &&
    !query.temporal
  )
    return none;
  // "should we add a perf gate in CI?", "do we have to file a 941-X for this?": advice asked, with no record named,
  // pointed at ("that error", "this run") or failed, refers to nothing.
  if (query.advice && query.names.length === 0 && !query.wantsError && !query.demonstrative) return none;
  // "does shopify charge for api calls?", "next week we want to move the zone": the world, a plan or what would happen,
  // with no record named or failed and no record or position pointed at in the main clause, refers to nothing.
  // A failure of the session (past or persisting) is asked about again; one in a world question is the world's.
  if (query.world && query.names.length === 0 && !query.sessionFailure && !query.mainPointed) return none;
  const scored = score(query);
  const max = maxOf(scored, (s) => s.total);
  // A directory or mount named in advice ("split /var onto its own disk?") is what the advice is about: only a file the
  // session read or wrote, named, points at a record.
  if (
    query.advice &&
    !query.wantsError &&
    !query.demonstrative &&
    !scored.some((s) => s.nameMatched && s.x.group.startsWith("file:"))
  )
    return none;
  // "did you also check the temps?": something beyond what was shown; only a record holding all of it answers.
  if (query.alsoAsked && !query.wantsError && !topicHeld(query, scored, "all", askedVerb(query))) return none;
  // "does aws still offer a free tier?": the present state of a bare name is the world's, unless a record holds most of
  // what the message talks about ("does nginx still reload cleanly?" after nginx reloads).
  if (
    query.stateAsked &&
    query.names.length === 0 &&
    !query.sessionFailure &&
    !query.mainPointed &&
    !topicHeld(query, scored, "most")
  )
    return none;
  const plain = query.names.length === 0 && !query.wantsError;
  // "which linux command shows open ports?": "which/what <tool noun> <present verb>" pointing at nothing of the session,
  // with topic words no record holds any of, asks about the world's tools, not a record of that tool.
  if (
    plain &&
    specificHint &&
    !query.temporal &&
    !query.referring &&
    !query.demonstrative &&
    !query.aboutSession &&
    !query.past &&
    query.whichDoes &&
    query.topicWords.length > 0 &&
    !scored.some((s) => s.matchedWeight > 0)
  )
    return none;
  // "we ran a marathon": a tool verb whose object no record holds is an action outside the session.
  if (
    plain &&
    query.verbHintsOnly &&
    !query.temporal &&
    query.topicWords.length > 0 &&
    !scored.some((s) => s.ownWeight > 0)
  )
    return none;

  // An explicit file name or URL that matches nothing means the thing is not in this session.
  if (query.names.length > 0 && !scored.some((s) => s.nameMatched)) {
    if (!query.names.some((n) => /\.[a-z0-9]+$/i.test(n) && scored.some((s) => s.named))) return none;
  }
  // Only words matched, none naming the execution, no tool, no order word: the match must cover
  // most of what the message talks about.
  if (!specificHint && !query.wantsError && !query.temporal && !query.referring) {
    // Most of what the message talks about must match; a whole name of an execution ("what does
    // prod use?") or a definite one ("how full was the disk?") may come with words only its content holds.
    const covered = scored.some(
      (s) =>
        s.total > 0 &&
        s.matchedWeight >= 1 &&
        // A match in the summary alone needs more than one word, or a definite one ("the polyfill").
        (s.coverage > 0.5 ||
          (s.coverage >= 0.5 && (s.named || s.matchedWeight >= 2 || definiteMatched(query, s))) ||
          (s.strong && s.coverage >= 1 / 3) ||
          // A question about an amount that this result answers ("how many genes came out …" → "1,284 genes"):
          // about something that happened (past tense), or answered by an amount of the kind asked.
          (s.answered && s.coverage >= 1 / 3 && (query.past || s.amounted)) ||
          (s.strong && s.coverage >= 0.25 && definiteNamed(query, s))),
    );
    // "which host went down?": a question about what a result said, in the past tense, points at the session; a
    // record that clearly leads on a good share of its words (a third) answers it as a message about the session does.
    const scoring = scored.filter((s) => s.total > 0);
    // …and so does the one that clearly leads holding the thing the message names with "the" ("the permission
    // problem"), when what else scores does so only through a related word.
    const lead = scoring.length > 1 ? scoring.reduce((a, b) => (b.total > a.total ? b : a)) : scoring[0];
    const pastAsked =
      query.asksResult &&
      query.past &&
      lead !== undefined &&
      (scoring.length === 1 ||
        (definiteMatched(query, lead) &&
          clearLeader(scored, max) &&
          scoring.every((s) => s === lead || s.total - s.related <= 0))) &&
      lead.coverage >= 1 / 3 &&
      topicHeldBy(query, lead);
    // "are the restored files really identical?": a yes/no question about a thing pointed at ("the …", "it"), led
    // clearly by the latest record, asks about what was just shown.
    const justShown =
      lead !== undefined &&
      lead.x === list.at(-1) &&
      lead.coverage >= 0.25 &&
      lead.ownWeight >= 1 &&
      query.yesNoPointed;
    if (max <= 0 || (!covered && !((query.aboutSession || pastAsked || justShown) && clearLeader(scored, max))))
      return none;
  }
  // Order words alone ("what happened there?", "the mail just before this") may pick by position; a calendar day
  // alone does not ("today's dinner"): it orders only records the message's words pick.
  if (max <= 0 && !(query.temporal && query.temporal.kind !== "day" && demonstrative && !query.general)) return none;
  // "we currently have three kids": a statement of the speaker's own life (first person, no question, no request)
  // whose words nothing of the session holds is talk of something else, whatever order word it carries.
  if (max <= 0 && query.topicWords.length > 0 && query.statement && !query.demonstrative && query.names.length === 0)
    return none;
  // The same statement with a word or two a record happens to hold ("we ran a marathon, took 4 hours": "took"; "my cat
  // knocked over my coffee": the `cat` command) is still about something else: most of what it talks about must be
  // words a record holds itself (not a related or near word), as "we ran the migration" is.
  // A name in it that no record holds as a name ("i hate how X hides its files in ~/.x") does not make it a reference.
  if (
    query.statement &&
    !scored.some((s) => s.nameMatched) &&
    !query.wantsError &&
    !query.demonstrative &&
    !topicHeld(query, scored, "most")
  )
    return none;

  // Order words pick among the executions of the kind in question.
  if (query.temporal) {
    // The kind in question: what the message's words, tool and outcome pick; a match only through a
    // concept-related word ("top" ~ "max") does not make a record one of the kind.
    const firm = (s: Scored) => s.total - s.related;
    const firmMax = Math.max(0, maxOf(scored, firm));
    let kind = max > 0 ? scored.filter((s) => s.total > 0 && firm(s) >= KIND * firmMax) : scored;
    // "the run before last", "the previous run": with no other word, a run is a command or a test run.
    if (
      max <= 0 &&
      /\b(?:the|that|this|my|your|our|last|latest|previous|prior|first|second|third|earlier)\s+runs?\b/.test(
        query.text.toLowerCase(),
      )
    ) {
      const runs = kind.filter((s) => s.x.classes.has("exec") || s.x.classes.has("test"));
      if (runs.length) kind = runs;
    }
    let chosen: Scored | undefined;
    let op = query.temporal;
    // "the first df, before all the cleanup": when no record stands for the event, the order within it decides.
    const anchor =
      op.kind === "event"
        ? resolveAnchor(op.phrase, score, /\bones?\b/.test(op.phrase) ? query : undefined)
        : undefined;
    if (op.kind === "event" && !anchor && op.within) op = op.within;
    // "the earlier test run": a tool kind the message names outright keeps the order words to that kind.
    const namedKinds = [...query.hints].filter(([, h]) => h.weight >= 3).map(([c]) => c);
    if (max > 0 && namedKinds.length) {
      const ofKind = scored.filter(
        (s) => s.total > 0 && namedKinds.some((c) => (s.x.classes.get(c as ToolClass) ?? 0) >= 1),
      );
      if (ofKind.length) kind = ofKind;
    }
    // "the config.yaml I read first": a name the message gives picks the records the order word ranges over, the
    // records of that path or file (not one whose text only mentions it) when there are some.
    if (max > 0 && query.names.length > 0) {
      const ofName = kind.filter((s) => query.names.some((n) => matchName(n, s.x) > 0));
      const byName = ofName.length ? ofName : kind.filter((s) => s.nameMatched);
      if (byName.length) kind = byName;
    }
    // "the last test run that passed": among the kind, the records that did not fail.
    if (query.wantsSuccess && max > 0) {
      const ok = kind.filter((s) => !s.x.isError);
      if (ok.length) kind = ok;
    }
    // "the second time you try all hosts": the n-th time of one thing done again is a record of the tool most of the
    // kind's records are; a record of another tool that shares a word ("hosts.txt" read) is no earlier time of it.
    if (op.kind === "nth" && !op.overall && max > 0 && query.hints.size === 0) {
      const byTool = new Map<string, Scored[]>();
      for (const s of kind) byTool.set(s.x.source.tool_name, [...(byTool.get(s.x.source.tool_name) ?? []), s]);
      const most = [...byTool.values()].sort((a, b) => b.length - a.length)[0];
      if (most && most.length >= op.n && most.length > kind.length / 2) kind = most;
    }
    if ((op.kind === "first" || op.kind === "nth" || op.kind === "previous") && op.overall) {
      const byRecord = new Map(scored.map((s) => [s.x, s]));
      kind = list.map((x) => byRecord.get(x) ?? unscored(query, x));
    }
    if (op.kind === "day") {
      const pick = byDay(kind, op.daysBack, now, list);
      if (pick) chosen = { ...pick.s, reasons: [...pick.s.reasons, `time: ${pick.why} (${op.why})`] };
    } else if (op.kind === "time") {
      // The session's own timestamps are the clock: one later than the real clock is still a run at its time of day
      // (a session's data may come from another clock); `now`, when given, excludes what came after it.
      const pick = pickTimeOfDay(timeOfDayPool(query, kind, scored, list), op.at, now);
      // Several records ran in the minute asked and nothing else tells them apart: each is flagged.
      if (pick && pick.same.length > 1) {
        const same = pick.same.slice(-limit).reverse();
        return {
          candidates: same.map((s) => ({ id: s.x.id, score: 1, reasons: [...s.reasons, `time: ${pick.why}`] })),
          ambiguous: true,
        };
      }
      if (pick) chosen = { ...pick.s, reasons: [...pick.s.reasons, `time: ${pick.why}`] };
    } else if (op.kind === "clock") {
      const pick = byClock(kind, op.agoMs, now, list);
      if (pick) chosen = { ...pick.s, reasons: [...pick.s.reasons, `time: ${pick.why} (${op.why})`] };
    } else if (op.kind === "event") {
      // Nothing but the event is named ("what came after the grep?", "the output before you changed the file":
      // a generic noun names no kind): the record right beside it.
      const onlyGeneric =
        query.terms.every((t) => t.weight < 1) && query.names.length === 0 && !specificHint && !query.wantsError;
      if (anchor && (max <= 0 || onlyGeneric)) {
        const next = list[op.side === "before" ? anchor.index - 1 : anchor.index + 1];
        const s = next && (scored.find((v) => v.x === next) ?? unscored(query, next));
        if (s) chosen = { ...s, reasons: [...s.reasons, `order: right ${op.side} ${anchor.id} (${op.phrase})`] };
      } else if (anchor) {
        const side = scored.filter(
          (s) => (op.side === "before" ? s.x.index < anchor.index : s.x.index > anchor.index) && s.total > 0,
        );
        const top = Math.max(
          0,
          maxOf(side, (s) => s.total),
        );
        const near = side.filter((s) => s.total >= 0.98 * top);
        // "the first df, before the cleanup": an order among the records on that side; else the one nearest the event.
        const within = op.within?.kind === "previous" ? undefined : op.within;
        chosen = (within && pickByOrder(near, within)) ?? (op.side === "before" ? near.at(-1) : near[0]);
        if (chosen)
          chosen = { ...chosen, reasons: [...chosen.reasons, `order: ${op.side} ${anchor.id} (${op.phrase})`] };
      }
    } else {
      if (op.kind === "previous" && kind.length < 2 && max > 0)
        kind = scored.filter((s) => s.total >= 0.5 * max && s.total > 0);
      // "before this": before the current (latest) execution; when that one is not of the kind,
      // the kind's latest is the one before it.
      const latestOverall = list.at(-1)!;
      const beforeCurrent =
        op.kind === "previous" && op.demonstrative === true && !kind.some((s) => s.x.id === latestOverall.id);
      // "the last two test runs": the latest `count` of the kind, most recent first.
      if (op.kind === "latest" && (query.count ?? 1) > 1 && kind.length >= query.count!) {
        const picked = kind.slice(-query.count!).reverse();
        const rest = rank(
          scored.filter((s) => !picked.includes(s) && s.total > 0),
          max,
        ).slice(0, Math.max(0, limit - picked.length));
        return {
          candidates: [
            ...picked.map((s) => ({
              id: s.x.id,
              score: 1,
              reasons: [...s.reasons, `order: one of the ${picked.length} most recent matching`],
            })),
            ...rest.map((s) => candidate(s, max)),
          ],
          ambiguous: false,
        };
      }
      const pick = beforeCurrent ? kind.at(-1) : pickByOrder(kind, op);
      if (pick) {
        const what =
          op.kind === "latest"
            ? "most recent"
            : op.kind === "first"
              ? "first"
              : op.kind === "nth"
                ? `number ${op.n}`
                : "second most recent";
        chosen = {
          ...pick,
          reasons: [...pick.reasons, `order: ${what} of ${max > 0 ? kind.length : list.length} matching (${op.why})`],
        };
      }
    }
    if (chosen) {
      const rest = rank(
        scored.filter((s) => s.x.id !== chosen!.x.id && s.total > 0),
        max,
      ).slice(0, limit - 1);
      return {
        candidates: [{ id: chosen.x.id, score: 1, reasons: chosen.reasons }, ...rest.map((s) => candidate(s, max))],
        ambiguous: false,
      };
    }
    if (max <= 0) return none;
  }

  const ranked = rank(
    scored.filter((s) => s.total > 0),
    max,
  );
  const top = ranked[0]!;
  // Ties: the same thing done again collapses to its latest (a file's latest read stands for it; its latest write
  // when the message asks what went into it).
  const tied = ranked.filter((s) => s.total >= TIE * top.total);
  const groups = new Map<string, Scored>();
  const standsFor = query.asksWhatWentIn ? "write" : "read";
  for (const s of tied) {
    const cur = groups.get(s.x.group);
    const isRead = (v: Scored) => (v.x.classes.get(standsFor) ?? 0) >= 1;
    if (!cur || (isRead(s) && !isRead(cur)) || (isRead(s) === isRead(cur) && s.x.index > cur.x.index))
      groups.set(s.x.group, s);
  }
  const distinct = [...groups.values()].sort((a, b) => b.x.index - a.x.index);
  const others = ranked.filter((s) => !distinct.includes(s));
  const count = query.count ?? 1;
  if (count > 1) {
    // A plural reference: the top `count` different things, most recent first.
    const pool =
      distinct.length >= count
        ? distinct
        : [...distinct, ...others.filter((s) => !distinct.some((d) => d.x.group === s.x.group))];
    const chosen = pool.slice(0, count);
    // Things named apart ("the mobile and desktop builds") are listed in the order the message names them:
    // each by the first word of the message that it matches and the others chosen do not.
    const own = (s: Scored) => {
      const words = s.matchedWords.filter((w) => !chosen.some((o) => o !== s && o.matchedWords.includes(w)));
      const at = words.map((w) => query.sequence.indexOf(w.replace(/s$/, ""))).filter((i) => i >= 0);
      return at.length ? Math.min(...at) : Number.POSITIVE_INFINITY;
    };
    if (chosen.every((s) => own(s) < Number.POSITIVE_INFINITY)) chosen.sort((a, b) => own(a) - own(b));
    const rest = ranked.filter((s) => !chosen.includes(s));
    return {
      candidates: [
        ...chosen.map((s) => candidate(s, max, 1)),
        ...rest.slice(0, Math.max(0, limit - count)).map((s) => candidate(s, max)),
      ],
      ambiguous: false,
    };
  }
  // "what share of the keys …", "how full …": among close records, the ones that give a share answer it (a size or a
  // duration is told apart less surely: "particle sizes" are no bytes).
  if (query.valueUnit?.kind === "fill" && distinct.some((s) => s.amounted) && distinct.some((s) => !s.amounted))
    distinct.splice(0, distinct.length, ...distinct.filter((s) => s.amounted));
  // A thing matched by a name beats one matched by topic words only, when their scores are close.
  if (distinct.some((s) => s.named) && distinct.some((s) => !s.named))
    distinct.splice(0, distinct.length, ...distinct.filter((s) => s.named));
  // "what does bisect_check.sh do": a file named, held by a record of the file itself (a read or a write) and by a
  // command that only mentions it: a question about what the file is, not about a run, is the file's record.
  if (
    query.names.length > 0 &&
    !query.past &&
    !query.wantsError &&
    !/\b(?:output|outputs|print|printed|prints|return|returned|returns|result|results|log|logs|exit|pass|passed|fail|failed)\b/.test(
      query.text.toLowerCase(),
    ) &&
    distinct.length > 1 &&
    distinct.every((s) => s.named)
  ) {
    const own = distinct.filter((s) => s.x.group.startsWith("file:"));
    if (own.length > 0 && own.length < distinct.length) distinct.splice(0, distinct.length, ...own);
  }
  const ambiguous = distinct.length > 1 && distinct.every((s) => s.named);
  const head = ambiguous
    ? distinct
    : [distinct.find((s) => s.x.index === Math.max(...distinct.map((d) => d.x.index)))!];
  const rest = ranked.filter((s) => !head.includes(s));
  return {
    candidates: [
      ...head.map((s) => candidate(s, max, ambiguous ? 1 : undefined)),
      ...rest.slice(0, Math.max(0, limit - head.length)).map((s) => candidate(s, max)),
    ],
    ambiguous,
  };
}

/**
 * "an hour ago": the record of the kind whose timestamp is nearest to now - ago (now: the option,
 * else the latest timestamp of the session). Without timestamps: the latest of the kind for up to
 * 15 minutes, the one before it for longer.
 */
function byClock(
  kind: Scored[],
  agoMs: number,
  now: Date | undefined,
  list: IndexedExecution[],
): { s: Scored; why: string } | undefined {
  const time = (x: IndexedExecution) =>
    typeof x.source.timestamp === "string" ? Date.parse(x.source.timestamp) : Number.NaN;
  const timed = kind.filter((s) => Number.isFinite(time(s.x)));
  // A timestamp in the future (a skewed clock) does not move "now" past the real clock.
  const latestTime = Math.min(
    Date.now(),
    maxOf(list, (x) => (Number.isFinite(time(x)) ? time(x) : Number.NEGATIVE_INFINITY)),
  );
  const ref = now && Number.isFinite(now.getTime()) ? now.getTime() : latestTime;
  if (timed.length === 0 || !Number.isFinite(ref)) {
    const pick = agoMs <= 15 * 60_000 ? kind.at(-1) : (kind.at(-2) ?? kind.at(-1));
    return pick
      ? {
          s: pick,
          why:
            agoMs <= 15 * 60_000 ? "no timestamps: the most recent" : "no timestamps: the one before the most recent",
        }
      : undefined;
  }
  const target = ref - agoMs;
  let best = timed[0]!;
  for (const s of timed) if (Math.abs(time(s.x) - target) <= Math.abs(time(best.x) - target)) best = s;
  const mins = Math.round((ref - time(best.x)) / 60_000);
  return {
    s: best,
    why: `ran ${mins >= 120 ? `${Math.round(mins / 60)} h` : `${mins} min`} before ${now ? "now" : "the latest execution"}`,
  };
}

/**
 * "yesterday's", "today's": the latest record of the kind on that calendar day (UTC) counted back from the day of
 * now (the option, else the latest timestamp of the session). Without timestamps, or nothing on that day:
 * nothing picked by the day.
 */
function byDay(
  kind: Scored[],
  daysBack: number,
  now: Date | undefined,
  list: IndexedExecution[],
): { s: Scored; why: string } | undefined {
  const time = (x: IndexedExecution) =>
    typeof x.source.timestamp === "string" ? Date.parse(x.source.timestamp) : Number.NaN;
  const latestTime = maxOf(list, (x) => (Number.isFinite(time(x)) ? time(x) : Number.NEGATIVE_INFINITY));
  const ref = now && Number.isFinite(now.getTime()) ? now.getTime() : latestTime;
  const timed = kind.filter((s) => Number.isFinite(time(s.x)));
  // Without timestamps the day is no position of the session ("yesterday's and today's backup" may be two
  // snapshots inside one record): nothing is picked by the day, the words decide.
  if (timed.length === 0 || !Number.isFinite(ref)) return undefined;
  const dayOf = (ms: number) => Math.floor(ms / 86_400_000);
  const target = dayOf(ref) - daysBack;
  const pick = timed.filter((s) => dayOf(time(s.x)) === target).at(-1);
  return pick
    ? { s: pick, why: `the latest on ${new Date(target * 86_400_000).toISOString().slice(0, 10)}` }
    : undefined;
}

/** The largest value of `f` over `xs` (-Infinity when empty), without spreading a long array into arguments. */
function maxOf<T>(xs: readonly T[], f: (x: T) => number): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const x of xs) {
    const v = f(x);
    if (v > m) m = v;
  }
  return m;
}

/** Share of the best score the best record of another kind must stay under for the best to be a clear leader. */
const LEAD = 0.8;

/**
 * One thing of the session stands out: the best records (within TIE of the best, any number of
 * them when they tie) each match a whole content word, and every other record scores under LEAD of the best.
 */
function clearLeader(scored: Scored[], max: number): boolean {
  let leaders = 0;
  let weak = false;
  let others = false;
  for (const s of scored) {
    if (s.total >= TIE * max) {
      // A match through a typo or a near word alone stands out too easily ("night" ~ "right", "game" ~ "match").
      if (s.ownWeight <= 0) return false;
      weak ||= s.matchedWeight < 1;
      leaders++;
    } else if (s.total >= LEAD * max) return false;
    else if (s.total > 0) others = true;
  }
  // A leader matched only through a generic noun or a word near in meaning stands out only when it is the one record that scores.
  return leaders > 0 && (!weak || (leaders === 1 && !others));
}

/** A word after "the" that matched this execution in a name field ("the disk" → df). */
function definiteNamed(query: ParsedQuery, s: Scored): boolean {
  return query.definiteWords.some((w) => s.namedWords.includes(w));
}

/** A topic word of the message that this execution holds itself (the word or its stem, not a related or near word). */
function topicHeldBy(query: ParsedQuery, s: Scored): boolean {
  return query.topicWords.some((w) => s.matchedWords.includes(w) && (s.x.tokens.has(w) || s.x.stems.has(stem(w))));
}

/** A word after "the" that matched this execution anywhere. */
function definiteMatched(query: ParsedQuery, s: Scored): boolean {
  return query.definiteWords.some((w) => s.matchedWords.includes(w));
}

function rank(scored: Scored[], _max: number): Scored[] {
  return [...scored].sort((a, b) => b.total - a.total || b.x.index - a.x.index);
}

function candidate(s: Scored, max: number, fixed?: number): Candidate {
  const score = fixed ?? (max > 0 ? Math.min(0.99, s.total / max) : 0);
  return { id: s.x.id, score: Math.round(score * 1000) / 1000, reasons: s.reasons.length ? s.reasons : ["order only"] };
}

/** The execution an event phrase points at ("the migration ran", "my edit"): the latest best match. */
function resolveAnchor(
  phrase: string,
  score: (query: ParsedQuery) => Scored[],
  kindOf?: ParsedQuery,
): IndexedExecution | undefined {
  let q: ParsedQuery;
  try {
    q = parseQuery(phrase);
  } catch {
    return undefined;
  }
  let s = score(q);
  const tools = kindOf
    ? [...kindOf.hints].filter(([c, h]) => c !== "file" && c !== "data" && h.weight >= 2.5).map(([c]) => c as ToolClass)
    : [];
  if (tools.length > 0) s = s.filter((v) => tools.some((c) => v.x.classes.has(c)));
  const max = Math.max(
    0,
    maxOf(s, (v) => v.total),
  );
  if (max <= 0) return undefined;
  // "after your first fix", "before the second edit": the event's own order among the records that stand for it.
  const tied = s.filter((v) => v.total >= TIE * max).sort((a, b) => a.x.index - b.x.index);
  return ((q.temporal && pickByOrder(tied, q.temporal)) ?? tied.at(-1))?.x;
}

/**
 * The scores of the session's records, in session order, as a full scan's would be for every
 * use above. Records outside candidatePositions match nothing (total 0). When some record scores
 * above zero, every use above reads only records above zero: the candidates are enough. When none
 * does, order words may pick any record: every record is returned.
 */
function scoreSession(
  query: ParsedQuery,
  list: IndexedExecution[],
  session: SessionIndex,
  window: PostingWindow,
): Scored[] {
  const context = scoreContext(query, list, session);
  const marks = candidatePositions(query, list, session, context, window);
  const scored: Scored[] = [];
  let positive = false;
  for (const p of marks.positions()) {
    const s = scoreExecution(query, list[p]!, context);
    positive ||= s.total > 0;
    scored.push(s);
  }
  if (positive) return scored;
  // Order words alone read records by position: the candidates as scored, and the window's first and
  // latest records (which match nothing at all), so "the last one" in a long session does not
  // allocate a score for every record.
  const n = list.length;
  // A clock phrase ("an hour ago") picks by timestamp, which may lie anywhere in the session.
  if (n <= window.head + window.tail || query.temporal?.kind === "clock" || query.temporal?.kind === "time") {
    let k = 0;
    return list.map((x, p) => (marks.has(p) ? scored[k++]! : unscored(query, x)));
  }
  const byPosition = new Map<number, Scored>();
  for (const sc of scored) byPosition.set(sc.x.index, sc);
  for (let p = 0; p < window.head; p++) if (!byPosition.has(p)) byPosition.set(p, unscored(query, list[p]!));
  for (let p = n - window.tail; p < n; p++) if (!byPosition.has(p)) byPosition.set(p, unscored(query, list[p]!));
  return [...byPosition.keys()].sort((a, b) => a - b).map((p) => byPosition.get(p)!);
}
