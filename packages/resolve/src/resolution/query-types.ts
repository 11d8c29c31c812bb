/** What a message says, as read by parseQuery: the shape the decision step and the scoring read. */
import type { ToolClass } from "./lexicon.js";
import type { TimeOfDay } from "./time-of-day.js";

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
  | { kind: "clock"; agoMs: number; why: string }
  /** "around 18:40", "the command at 7:20pm": the record that ran at that time of day, by its timestamp. */
  | { kind: "time"; at: TimeOfDay; why: string };

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
  /**
   * A tool word and a definite noun of a tool's record ("how do i rerun the tests?"), compounds of the world ("the
   * command line") aside: a general question with it is about the session.
   */
  definiteToolNoun: boolean;
  /** Content words that are not order or time words ("currently", "latest"): what the message is about. */
  topicWords: string[];
  /** It asks what went into something ("what did you put in the notes?"): a file's write answers, not its read. */
  asksWhatWentIn: boolean;
  /** A request to write something new ("draft a note about …"). */
  writesNew: boolean;
  /** A yes/no question about a thing pointed at ("are the copies identical?"). */
  yesNoPointed: boolean;
}

export type ValueKind = "size" | "duration" | "fill";

/** Follow-ups that only make sense against the previous answer of the conversation. */
export type FollowUp = "other" | "before" | "after" | "both" | "same";
