import { ArefError } from "@artifact-refs/schema";
import { countTokens as budgetCount } from "@artifact-refs/budget";
import { type ExecutionLike, executionId } from "./resolution/executions.js";
import { STOPWORDS, stem, words } from "./resolution/tokens.js";

/** One thing that can be recalled: an execution record or an artifact reference with a summary. */
export interface RecallItem extends ExecutionLike {
  /** The text put in the prompt for this item (default: "[id] label — summary"). */
  text?: string;
}

export interface RecallOptions {
  /** The current user message: relevance is measured against it. */
  query?: string;
  /** Items the message refers to explicitly (e.g. the resolver's candidates), most wanted first. */
  explicitIds?: readonly string[];
  /** Hard cap on the tokens of the selected items' texts together (the docs/ARCHITECTURE.md §memory fixed budget). */
  budgetTokens: number;
  /** At most this many items (top-K; default 10). */
  maxItems?: number;
  /** Token counter (default: @artifact-refs/budget's countTokens, cl100k_base). */
  countTokens?: (text: string) => number;
  /** How items are written in the prompt (default: "[id] label — summary"). */
  render?: (item: RecallItem) => string;
  /** Recency half-life in items: the weight halves every this many newer items (default 8). */
  recencyHalfLife?: number;
}

export interface RecalledItem {
  id: string;
  text: string;
  tokens: number;
  score: number;
  reasons: string[];
}

export interface RecallResult {
  /** The selected items in prompt order (rank order, deterministic). */
  items: RecalledItem[];
  /** The selected texts joined by newlines. */
  text: string;
  tokens: number;
  budgetTokens: number;
  /** Ranked items that were left out, and why. */
  omitted: Array<{ id: string; reason: "budget" | "max_items"; tokens?: number }>;
  /** Items not ranked at all (outside the recency window and matching no word of the message). */
  notConsidered: number;
}

interface Entry {
  item: RecallItem;
  id: string;
  seq: number;
  terms: Set<string>;
  text?: string;
}

/** Items per query word that are scored (the most recent ones): keeps a recall O(1) in the session's size. */
const POSTINGS_PER_TERM = 256;
/** The most recent items always considered, whatever the words. */
const RECENCY_WINDOW = 64;

/**
 * An incremental index of a session's recallable items. `add` costs O(item); `recall` looks at
 * explicit ids, the most recent items and the items sharing a word with the message (at most
 * POSTINGS_PER_TERM per word), so its time does not grow with the session.
 */
export class RecallIndex {
  readonly #entries: Entry[] = [];
  readonly #byId = new Map<string, Entry>();
  readonly #postings = new Map<string, number[]>();

  get size(): number {
    return this.#entries.length;
  }

  add(item: RecallItem): void {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      throw new ArefError(
        "INVALID_INPUT",
        `recall item #${this.#entries.length + 1} is not an object (got ${item === null ? "null" : Array.isArray(item) ? "an array" : typeof item})`,
        {
          hint: "items are execution records: { id, tool_name, summary, … }",
        },
      );
    }
    const id = executionId(item, this.#entries.length);
    if (this.#byId.has(id)) {
      throw new ArefError("CONFLICT", `recall item ${JSON.stringify(id)} was already added`, {
        hint: "give each item a unique id",
      });
    }
    const terms = new Set<string>();
    const source = [
      item.label,
      item.artifact_title,
      item.summary,
      item.result_summary,
      item.tool_name,
      ...Object.values(item.tool_args ?? {}).filter((v) => typeof v === "string"),
    ]
      .filter(Boolean)
      .join(" ");
    for (const w of words(source)) if (!STOPWORDS.has(w) && w.length > 1) terms.add(stem(w));
    const entry: Entry = { item, id, seq: this.#entries.length, terms };
    this.#entries.push(entry);
    this.#byId.set(id, entry);
    for (const t of terms) {
      let list = this.#postings.get(t);
      if (!list) this.#postings.set(t, (list = []));
      list.push(entry.seq);
    }
  }

  addAll(items: Iterable<RecallItem>): this {
    for (const item of items) this.add(item);
    return this;
  }

  recall(options: RecallOptions): RecallResult {
    const budget = options.budgetTokens;
    if (!Number.isInteger(budget) || budget < 0) {
      throw new ArefError("INVALID_INPUT", `budgetTokens must be a non-negative integer, got ${String(budget)}`, {
        hint: "e.g. budgetTokens: 800",
      });
    }
    const maxItems = options.maxItems ?? 10;
    if (!Number.isInteger(maxItems) || maxItems < 0) {
      throw new ArefError("INVALID_INPUT", `maxItems must be a non-negative integer, got ${String(maxItems)}`);
    }
    const count = options.countTokens ?? ((t: string) => budgetCount(t));
    const render = options.render ?? defaultRender;
    const halfLife = options.recencyHalfLife ?? 8;
    const n = this.#entries.length;

    // Candidates: explicit, recent, and sharing a word with the message.
    const cand = new Map<number, { explicit: number; relevance: number; matched: string[] }>();
    const get = (seq: number) => {
      let c = cand.get(seq);
      if (!c) cand.set(seq, (c = { explicit: -1, relevance: 0, matched: [] }));
      return c;
    };
    (options.explicitIds ?? []).forEach((id, rank) => {
      const e = this.#byId.get(id);
      if (e && get(e.seq).explicit === -1) get(e.seq).explicit = rank;
    });
    for (let s = n - 1; s >= Math.max(0, n - RECENCY_WINDOW); s--) get(s);
    const qTerms = [
      ...new Set(
        words(options.query ?? "")
          .filter((w) => !STOPWORDS.has(w) && w.length > 1)
          .map(stem),
      ),
    ];
    for (const t of qTerms) {
      const list = this.#postings.get(t);
      if (!list) continue;
      // A word in most items tells nothing apart (its IDF is near zero): skip its postings.
      if (n >= 64 && list.length > n / 2) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (let i = list.length - 1; i >= Math.max(0, list.length - POSTINGS_PER_TERM); i--) {
        const c = get(list[i]!);
        c.relevance += idf;
        c.matched.push(t);
      }
    }

    const maxRel = Math.max(0, ...[...cand.values()].map((c) => c.relevance));
    const ranked = [...cand.entries()]
      .map(([seq, c]) => {
        const age = n - 1 - seq;
        const recency = 0.5 ** (age / halfLife);
        const relevance = maxRel > 0 ? c.relevance / maxRel : 0;
        // Explicit references first (in the order given), then relevance, then recency.
        const score = (c.explicit >= 0 ? 10 - Math.min(c.explicit, 9) * 0.01 : 0) + 0.6 * relevance + 0.4 * recency;
        const reasons = [
          ...(c.explicit >= 0 ? [`referred to explicitly (#${c.explicit + 1})`] : []),
          ...(c.matched.length ? [`relevant: ${c.matched.slice(0, 5).join(", ")}`] : []),
          `recency: ${age === 0 ? "latest" : `${age} newer item${age === 1 ? "" : "s"}`}`,
        ];
        return { seq, score, reasons };
      })
      .sort((a, b) => b.score - a.score || b.seq - a.seq);

    const items: RecalledItem[] = [];
    const omitted: RecallResult["omitted"] = [];
    let used = 0;
    for (const r of ranked) {
      const entry = this.#entries[r.seq]!;
      if (items.length >= maxItems) {
        omitted.push({ id: entry.id, reason: "max_items" });
        continue;
      }
      const text = entry.item.text ?? render(entry.item);
      const tokens = count(text) + (items.length > 0 ? 1 : 0); // + the newline joining it
      if (used + tokens > budget) {
        omitted.push({ id: entry.id, reason: "budget", tokens });
        continue;
      }
      used += tokens;
      items.push({ id: entry.id, text, tokens, score: Math.round(r.score * 1000) / 1000, reasons: r.reasons });
    }
    return {
      items,
      text: items.map((i) => i.text).join("\n"),
      tokens: used,
      budgetTokens: budget,
      omitted,
      notConsidered: n - ranked.length,
    };
  }
}

export function defaultRender(item: RecallItem): string {
  const id = executionId(item, 0);
  const label = item.label ?? item.artifact_title ?? item.tool_name;
  const summary = item.summary ?? item.result_summary ?? "";
  const error = /^(error|failed)$/i.test(item.result_type ?? "") ? " [error]" : "";
  return `[${id}] ${label}${error}${summary ? ` — ${summary}` : ""}`;
}

/**
 * Top-K items for the next prompt within a token budget (docs/ARCHITECTURE.md §memory): ranked by explicit
 * reference, relevance to the current message and recency; deterministic. For long sessions,
 * keep a RecallIndex and call its `recall` instead (this builds one each call).
 */
export function recall(options: RecallOptions & { items: readonly RecallItem[] }): RecallResult {
  if (!Array.isArray(options.items)) throw new ArefError("INVALID_INPUT", "recall items must be an array");
  return new RecallIndex().addAll(options.items).recall(options);
}
