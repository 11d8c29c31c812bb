import {
  ArefError,
  HotStateSchema,
  parseSessionId,
  parseWith,
  type ArtifactRef,
  type BudgetViolation,
  type Cut,
  type HotState,
  type PromptMetrics,
} from "@artifact-refs/schema";
import { buildPromptMetrics, resolveBudgetConfig, type BudgetConfig, type MetricsSink } from "@artifact-refs/budget";
import { serializeHotState } from "@artifact-refs/hot-state";
import type { ArtifactStore } from "@artifact-refs/store";
import {
  bootstrapBlock,
  DEFAULT_BOOTSTRAP_EXCERPT_CHARS,
  DEFAULT_BOOTSTRAP_THRESHOLD_CHARS,
  type BootstrapBlock,
} from "./bootstrap.js";
import { buildCheckpointPack, writeCheckpoint } from "./checkpoint.js";
import { callNumber, layoutHistory, type HistoryLayout } from "./layout.js";
import { overrunReport, type OverrunReport } from "./irreducible.js";
import { hotStateShown, selectionOf } from "./verbatim.js";
import { cachePays, resolvePriceModel, type PriceModel, type PriceModelName } from "./price-model.js";
import { ARTIFACTS_GET_TOOL_NAME, modelHintFor, renderModelHint } from "../model-hint.js";
import { HOT_STATE_PREFIX } from "./hot-state-delta.js";
import { headTailExcerpt, renderMessage } from "./render.js";
import { AppendStrategy } from "./append.js";
import { sum, type StrategyCore, type StrategyInput } from "./strategy.js";
import { assembleWindow } from "./window.js";
import {
  DEFAULT_BUDGETS,
  type AssembledPrompt,
  type AssembleInput,
  type AssemblerBudgets,
  type AssemblyStrategy,
  type BootstrapFile,
  type CheckpointInfo,
  type HistoryMessage,
  type ModelMessage,
  type PartKind,
  type PromptPart,
  type RecallItem,
  type TokenCounter,
} from "./types.js";

/** Providers whose prompt cache bills a cached prefix at a fraction of the price. */
export const PROVIDER_PROMPT_CACHING: Readonly<Record<string, boolean>> = Object.freeze({
  anthropic: true,
  openai: true,
  google: true,
  bedrock: true,
  deepseek: true,
  ollama: false,
  "llama.cpp": false,
  lmstudio: false,
  local: false,
});

/** `append` for providers with prompt caching, `window` otherwise (and for unknown providers). */
export function defaultStrategy(provider: { promptCaching: boolean } | string | undefined): AssemblyStrategy {
  if (provider === undefined) return "window";
  const caching =
    typeof provider === "string" ? PROVIDER_PROMPT_CACHING[provider.toLowerCase()] === true : provider.promptCaching;
  return caching ? "append" : "window";
}

export interface PromptAssemblerOptions {
  store: ArtifactStore;
  session: string;
  tokenCounter: TokenCounter;
  /** Explicit strategy; default from `provider`. */
  strategy?: AssemblyStrategy;
  /** Provider name (see PROVIDER_PROMPT_CACHING) or its caching, used when `strategy` is not given. */
  provider?: { promptCaching: boolean } | string;
  budgets?: Partial<AssemblerBudgets>;
  /** Turns every prompt keeps (assistant message + its tool results). At least 2 (the default). */
  keepTurns?: number;
  /** Workspace files offered on every call (inline below the threshold, else an ArtifactRef). */
  bootstrapFiles?: readonly BootstrapFile[];
  /** docs/ARCHITECTURE.md §references: files of at least this many chars become ArtifactRefs (default 8,000). */
  bootstrapThresholdChars?: number;
  bootstrapExcerptChars?: number;
  /** Compacted actions repeated in the checkpoint text (default 3). */
  checkpointSummaryLines?: number;
  /** Receives the metrics event of every call. */
  onMetrics?: (metrics: PromptMetrics) => void;
  /** Sinks (budget's jsonlSink, memorySink, callbackSink…) that get the metrics event of every call. */
  metricsSinks?: readonly MetricsSink[];
  /**
   * Fail closed (default true): a prompt that cannot be brought within the budgets throws
   * BUDGET_EXCEEDED. With false it is returned with `violations` (replays and reports use this).
   */
  failClosed?: boolean;
  run?: string;
  /**
   * When `append` compacts: "cost" (default) when the next prompt would pass maxPromptTokens,
   * or earlier once a longer run would cost more under `priceModel` than a compaction (the
   * projected saving over the next calls exceeds the cache re-write); "budget" only at
   * maxPromptTokens.
   */
  appendCompaction?: "budget" | "cost";
  /**
   * Prices of the provider's prompt cache: a preset ("anthropic", the default: 0.1× read,
   * 1.25× write; "openai": 0.5×, 1.0×; "none") or `{cachedRead, write}`. Used by
   * `appendCompaction: "cost"`, and, without `strategy` and `provider`, to pick the strategy
   * (append when a cached prefix is cheaper, else window).
   */
  priceModel?: PriceModelName | Partial<PriceModel>;
  /** Clock of the metrics events' `ts` (tests inject one). */
  now?: () => Date;
}

/** Chars of a message's head and tail kept beside its reference, by preview level (normal, short, minimal). */
const PREVIEW_CHARS = [1_500, 400, 120] as const;
/** Chars of a long tool-call argument string kept (as an excerpt) in such a message. */
const ARGUMENTS_EXCERPT_CHARS = 600;

/**
 * Builds each model call's prompt: system prompt + task + bootstrap files + hot state +
 * checkpoint + recall + recent turns + tail + user message, within the budgets (fail closed).
 * Stateful: `append` keeps the previous prompt to extend it byte for byte.
 */
export class PromptAssembler {
  readonly strategy: AssemblyStrategy;
  readonly budgets: AssemblerBudgets;
  readonly keepTurns: number;
  /** Prices of cached and uncached prompt tokens that compaction decisions use. */
  readonly priceModel: PriceModel;
  readonly #options: PromptAssemblerOptions;
  /** The budgets as budget's config (warning thresholds follow the caps). */
  readonly #budgetConfig: BudgetConfig;
  readonly #session: string;
  readonly #blocks = new Map<string, BootstrapBlock>();
  readonly #stashed = new Map<string, ArtifactRef>();
  /** Messages whose reference form is not smaller than the message (never worth stashing). */
  readonly #noGain = new Set<string>();
  #checkpoint: CheckpointInfo | undefined;
  /** The last summary lines of the checkpoint chain (shown in the checkpoint text). */
  #summaryTail: string[] = [];
  /** What the strategies call back into. */
  readonly #core: StrategyCore;
  /** The append strategy and its current run. */
  readonly #append: AppendStrategy;
  /** Stored payloads read back for verbatim prompts. */
  readonly #payloads = new Map<string, string>();
  /** How short the previews of messages shown by reference are in this assembly (0 normal, 1 short, 2 reference only). */
  #level = 0;

  constructor(options: PromptAssemblerOptions) {
    this.#options = options;
    this.#session = parseSessionId(options.session);
    this.priceModel = resolvePriceModel(options.priceModel);
    this.strategy =
      options.strategy ??
      (options.provider === undefined && options.priceModel !== undefined
        ? defaultStrategy({ promptCaching: cachePays(this.priceModel) })
        : defaultStrategy(options.provider));
    if (this.strategy !== "window" && this.strategy !== "append") {
      throw new ArefError("CONFIG_INVALID", `unknown assembly strategy ${JSON.stringify(this.strategy)}`, {
        hint: 'use "window" or "append"',
      });
    }
    if (
      options.appendCompaction !== undefined &&
      options.appendCompaction !== "budget" &&
      options.appendCompaction !== "cost"
    ) {
      throw new ArefError("CONFIG_INVALID", `unknown appendCompaction ${JSON.stringify(options.appendCompaction)}`, {
        hint: 'use "budget" or "cost"',
      });
    }
    this.budgets = { ...DEFAULT_BUDGETS, ...options.budgets };
    for (const [key, value] of Object.entries(this.budgets)) {
      if (!Number.isInteger(value) || value <= 0) {
        throw new ArefError("CONFIG_INVALID", `budget ${key} must be a positive integer, got ${String(value)}`);
      }
    }
    this.#budgetConfig = resolveBudgetConfig({ ...options.budgets }, "assembler budgets");
    this.keepTurns = options.keepTurns ?? 2;
    if (!Number.isInteger(this.keepTurns) || this.keepTurns < 2) {
      throw new ArefError("CONFIG_INVALID", `keepTurns must be an integer ≥ 2, got ${String(options.keepTurns)}`, {
        hint: "every prompt keeps at least the last two turns",
      });
    }
    this.#core = {
      budgets: this.budgets,
      keepTurns: this.keepTurns,
      priceModel: this.priceModel,
      appendCompaction: options.appendCompaction ?? "cost",
      checkpoint: () => this.#checkpoint,
      cutToFit: (p, checkpointTokens, turnCuts) => this.#cutToFit(p, checkpointTokens, turnCuts),
      checkpointFor: (history, omitted, hotState, counter) => this.#checkpointFor(history, omitted, hotState, counter),
      verbatimParts: (p) => this.#verbatimParts(p),
      keptTurnParts: (history, layout, keep, counter) => this.#keptTurnParts(history, layout, keep, counter),
      turnParts: (history, indexes, counter) => this.#turnParts(history, indexes, counter),
      part: (kind, message, counter) => this.#part(kind, message, counter),
    };
    this.#append = new AppendStrategy(this.#core);
  }

  /** Chars of a message's head and tail shown beside its reference, at the current preview level. */
  get #excerptChars(): number {
    return PREVIEW_CHARS[this.#level]!;
  }

  /** The checkpoint the latest prompt points at, if any. */
  get checkpoint(): CheckpointInfo | undefined {
    return this.#checkpoint;
  }

  /** Assembles the prompt of the next model call. */
  async assemble(input: AssembleInput): Promise<AssembledPrompt> {
    this.#level = 0;
    const hotState = parseWith(HotStateSchema, input.hotState, "hot state");
    const history = input.history;
    const layout = layoutHistory(history);
    const violations: BudgetViolation[] = [];
    const cuts: Cut[] = [];
    const counter = this.#safeCounter(violations);

    const fixed = await this.#fixedParts(history, layout, counter);
    // hot-state's canonical JSON: stable keys first, so an unchanged state is byte-identical.
    const hotStateJson = serializeHotState(hotState);
    const hotStateText = `${HOT_STATE_PREFIX}${hotStateJson}`;
    const hotPart = this.#part("hot_state", { role: "system", content: hotStateText }, counter);
    // The docs/ARCHITECTURE.md §references budget is the hot state JSON itself (what the dispatcher caps), not its message framing.
    const hotStateTokens = counter.count(hotStateJson);
    const recallParts = this.#recallParts(input, counter, cuts);
    const tailParts = (input.tail ?? []).map((m) => this.#part("tail", m, counter));
    const userParts =
      input.userMessage === undefined
        ? []
        : [this.#part("user", { role: "user", content: input.userMessage }, counter)];

    const pieces: StrategyInput = {
      history,
      layout,
      hotState,
      fixed,
      hotPart,
      recallParts,
      tailParts,
      userParts,
      counter,
      cuts,
    };
    const result =
      this.strategy === "window" ? await assembleWindow(this.#core, pieces) : await this.#append.assemble(pieces);

    const tokens = sum(result.parts);
    let overrun: OverrunReport | undefined;
    if (tokens > this.budgets.maxPromptTokens) {
      overrun = overrunReport(result.parts, this.budgets.maxPromptTokens);
      violations.push({
        budget: "maxPromptTokens",
        limit: this.budgets.maxPromptTokens,
        actual: tokens,
        message: overrun.message,
      });
    }
    if (hotStateTokens > this.budgets.maxHotStateTokens) {
      violations.push({
        budget: "maxHotStateTokens",
        limit: this.budgets.maxHotStateTokens,
        actual: hotStateTokens,
        message: `hot state is ${hotStateTokens} tokens; the dispatcher must shrink it (hot-state's builder evicts index entries first)`,
      });
    }
    const indexEntries = hotState.artifact_index?.length ?? 0;
    if (indexEntries > this.budgets.maxArtifactIndexEntries) {
      violations.push({
        budget: "maxArtifactIndexEntries",
        limit: this.budgets.maxArtifactIndexEntries,
        actual: indexEntries,
        message: `artifact index has ${indexEntries} entries`,
      });
    }

    const included = new Set<number>();
    for (const p of result.parts) if (p.source !== undefined) included.add(p.source);
    const omitted: number[] = [];
    for (let i = 0; i < history.length; i++) if (!included.has(i)) omitted.push(i);
    const covers = new Set(this.#checkpoint?.covers ?? []);
    const lost = omitted.filter((i) => !covers.has(i));
    if (lost.length > 0) {
      // Cannot happen by construction; refuse rather than send a prompt that lost messages.
      throw new ArefError(
        "INTERNAL",
        `assembler left out messages ${lost.join(", ")} without a checkpoint reaching them`,
      );
    }

    const metrics = this.#metrics(
      history,
      hotState,
      { tokens: hotStateTokens, bytes: Buffer.byteLength(hotStateJson, "utf8") },
      result.parts,
      tokens,
      violations,
      cuts,
      input.hotStateTruncated === true,
    );
    this.#options.onMetrics?.(metrics);
    for (const sink of this.#options.metricsSinks ?? []) await sink.write(metrics);
    if (violations.length > 0 && this.#options.failClosed !== false) {
      throw new ArefError(
        "BUDGET_EXCEEDED",
        `prompt violates ${violations.map((v) => v.budget).join(", ")}: ${violations[0]!.message}`,
        {
          hint: "raise maxPromptTokens, shorten the system prompt or task (large ones become bootstrap ArtifactRefs), or shrink the hot state",
          details: {
            violations,
            tokens,
            ...(overrun ? { part: overrun.part, over: overrun.over, parts: overrun.parts } : {}),
          },
        },
      );
    }
    return {
      strategy: this.strategy,
      turn: callNumber(history),
      parts: result.parts,
      messages: result.parts.map((p) => p.message),
      tokens,
      included: [...included].sort((a, b) => a - b),
      omitted,
      ...(omitted.length > 0 && this.#checkpoint ? { checkpoint: this.#checkpoint } : {}),
      compacted: result.compacted,
      verbatim: result.verbatim === true,
      metrics,
      violations,
      cuts,
    };
  }

  /**
   * Cuts until the prompt fits maxPromptTokens, in this order: the oldest kept turns (down to
   * two; the checkpoint covers them), recall items (last first), the largest inline message of
   * the kept turns (stored, shown by reference), the largest tail message (shortened). Stops
   * when nothing is left to cut; assemble() reports what is still over. `checkpointTokens(keep)`
   * estimates the checkpoint the omitted turns need; `turnCuts` records each turn moved out as
   * a cut (append records one cut for the whole compaction instead). Shortens `p.tailParts` in
   * place; returns the turns kept, their parts and the recall parts left.
   */
  async #cutToFit(
    p: StrategyInput,
    checkpointTokens: (keep: number) => number,
    turnCuts: boolean,
  ): Promise<{ keep: number; kept: PromptPart[]; recall: PromptPart[] }> {
    const { history, layout, counter, cuts, tailParts } = p;
    const turns = layout.turns;
    let keep = Math.min(this.keepTurns, turns.length);
    const recall = [...p.recallParts];
    let kept = await this.#keptTurnParts(history, layout, keep, counter);
    // The oldest kept turn moves into the checkpoint (recorded as a cut when `record`).
    const dropOldestTurn = async (record: boolean): Promise<PromptPart[]> => {
      if (record) {
        const moved = turns[turns.length - keep]!;
        cuts.push({
          what: `turn at message #${moved[0]}`,
          reason: "maxPromptTokens",
          tokens: sum(kept.filter((k) => moved.includes(k.source!))),
          recover: "checkpoint",
        });
      }
      keep--;
      return this.#keptTurnParts(history, layout, keep, counter);
    };
    for (;;) {
      const total =
        sum(p.fixed) +
        p.hotPart.tokens +
        checkpointTokens(keep) +
        sum(recall) +
        sum(kept) +
        sum(tailParts) +
        sum(p.userParts);
      if (total <= this.budgets.maxPromptTokens) break;
      if (keep > 2) {
        kept = await dropOldestTurn(turnCuts);
        continue;
      }
      if (recall.length > 0) {
        const dropped = recall.pop()!;
        cuts.push({
          what: "recall item",
          reason: "maxPromptTokens",
          tokens: dropped.tokens,
          recover: dropped.ref ?? "recall",
        });
        continue;
      }
      if (await this.#stashLargestInline(history, kept, counter, cuts)) {
        kept = await this.#keptTurnParts(history, layout, keep, counter);
        continue;
      }
      if (this.#shrinkTail(tailParts, total - this.budgets.maxPromptTokens, counter, cuts)) continue;
      if (this.#level < 2) {
        // Shorter previews of every message shown by reference (then the reference alone).
        this.#level++;
        const before = sum(kept);
        kept = await this.#keptTurnParts(history, layout, keep, counter);
        cuts.push({
          what: this.#level === 1 ? "previews shortened" : "previews dropped (references only)",
          reason: "maxPromptTokens",
          tokens: Math.max(0, before - sum(kept)),
          recover: "artifacts_get",
        });
        continue;
      }
      if (keep > 0) {
        // Older turns into the checkpoint, down to the user's request alone.
        kept = await dropOldestTurn(true);
        continue;
      }
      break;
    }
    return { keep, kept, recall };
  }

  /** The parts of the last `keep` turns, with the user's current request. */
  async #keptTurnParts(
    history: readonly HistoryMessage[],
    layout: HistoryLayout,
    keep: number,
    counter: TokenCounter,
  ): Promise<PromptPart[]> {
    const turns = layout.turns;
    return this.#turnParts(history, withRequest(history, layout, turns.slice(turns.length - keep).flat()), counter);
  }

  /**
   * The whole transcript as it came, for a prompt that costs what naive costs: system and task
   * as the fixed parts show them, every later message whole (stored payloads read back), the
   * hot state only when it says something the messages do not, recall, the tail without the
   * artifacts_get answers whose text is already in view, and the user message. Undefined when
   * it does not fit maxPromptTokens.
   */
  async #verbatimParts(p: StrategyInput): Promise<{ stable: PromptPart[]; volatile: PromptPart[] } | undefined> {
    const { history, layout, counter } = p;
    const limit = this.budgets.maxPromptTokens;
    // Task messages that are not the user's or the system's (an observation before the first
    // assistant message) are shown whole like every later message.
    const isWhole = (i: number) => history[i]!.role !== "user" && history[i]!.role !== "system";
    const indexes = [...layout.task.filter(isWhole), ...layout.turns.flat()];
    // Cheap bound first: a token is rarely longer than 16 chars; skip reading anything back when far over.
    let chars = 0;
    for (const i of indexes) chars += history[i]!.artifactRef?.size_bytes ?? messageChars(history[i]!);
    if (chars > limit * 16) return undefined;
    const shown = new Set<string>();
    const turns: PromptPart[] = [];
    const fixed = p.fixed.filter((x) => x.source === undefined || !isWhole(x.source));
    let tokens = sum(fixed) + sum(p.recallParts) + sum(p.userParts);
    for (const i of indexes) {
      const m = history[i]!;
      let content = m.content;
      if (m.artifactRef) {
        const payload = await this.#payload(m.artifactRef);
        // Not readable here (another session, gone): no verbatim prompt, the reference form is used.
        if (payload === undefined) return undefined;
        content = payload;
        shown.add(m.artifactRef.artifact_id).add(m.artifactRef.short_ref);
      }
      const message: ModelMessage = { role: m.role, content };
      if (m.tool_call_id) message.tool_call_id = m.tool_call_id;
      if (m.tool_calls && m.tool_calls.length > 0) message.tool_calls = m.tool_calls;
      if (m.role === "tool" && m.tool_name) message.name = m.tool_name;
      const part = this.#part(layout.task.includes(i) ? "task" : "turn", message, counter, i);
      tokens += part.tokens;
      if (tokens > limit) return undefined;
      turns.push(part);
    }
    const task = layout.task.map((i) => history[i]!.content).join("\n");
    const hot = hotStateShown(p.hotState, task, shown) ? [] : [p.hotPart];
    // An artifacts_get answer taken from a message in full view is not repeated.
    const tail = p.tailParts.filter((t) => !turns.some((x) => selectionOf(t.message.content, x.message.content)));
    const stable = [...fixed, ...hot, ...turns];
    const volatile = [...p.recallParts, ...tail, ...p.userParts];
    if (sum(stable) + sum(volatile) > limit) return undefined;
    return { stable, volatile };
  }

  /** A stored payload read back (cached by artifact id). */
  async #payload(ref: ArtifactRef): Promise<string | undefined> {
    let text = this.#payloads.get(ref.artifact_id);
    if (text === undefined) {
      try {
        text = await this.#options.store.getText(ref.artifact_id, { session: this.#session });
      } catch {
        return undefined;
      }
      if (this.#payloads.size > 256) this.#payloads.clear();
      this.#payloads.set(ref.artifact_id, text);
    }
    return text;
  }

  // ---- parts ----

  async #fixedParts(
    history: readonly HistoryMessage[],
    layout: HistoryLayout,
    counter: TokenCounter,
  ): Promise<PromptPart[]> {
    const parts: PromptPart[] = [];
    for (const i of layout.system) {
      const block = await this.#block(`system prompt #${i}`, history[i]!.content, "text/plain");
      parts.push(this.#part("system", { role: "system", content: block.text }, counter, i, block.artifactId));
    }
    for (const file of this.#options.bootstrapFiles ?? []) {
      const block = await this.#block(file.name, file.content, file.mime ?? "text/markdown");
      parts.push(
        this.#part(
          "bootstrap",
          { role: "system", content: `Workspace file ${file.name}:\n${block.text}` },
          counter,
          undefined,
          block.artifactId,
        ),
      );
    }
    for (const i of layout.task) {
      const m = history[i]!;
      if (m.role === "user" || m.role === "system") {
        const block = await this.#block(`task message #${i}`, m.content, "text/plain");
        parts.push(this.#part("task", { role: m.role, content: block.text }, counter, i, block.artifactId));
      } else {
        parts.push(...(await this.#turnParts(history, [i], counter)).map((p) => ({ ...p, kind: "task" as PartKind })));
      }
    }
    return parts;
  }

  async #block(name: string, content: string, mime: string): Promise<BootstrapBlock> {
    const key = `${name}\u0000${content}`;
    let block = this.#blocks.get(key);
    if (!block) {
      block = await bootstrapBlock(name, content, mime, {
        store: this.#options.store,
        session: this.#session,
        thresholdChars: this.#options.bootstrapThresholdChars ?? DEFAULT_BOOTSTRAP_THRESHOLD_CHARS,
        excerptChars: this.#options.bootstrapExcerptChars ?? DEFAULT_BOOTSTRAP_EXCERPT_CHARS,
      });
      this.#blocks.set(key, block);
    }
    return block;
  }

  async #turnParts(
    history: readonly HistoryMessage[],
    indexes: readonly number[],
    counter: TokenCounter,
  ): Promise<PromptPart[]> {
    const parts: PromptPart[] = [];
    for (const i of indexes) {
      const m = history[i]!;
      let ref = m.artifactRef ?? this.#stashed.get(String(i));
      // Any role, by size: a tool result, an observation recorded as a user turn, a long
      // assistant message or an injected system message over the per-message limit.
      if (!ref && messageChars(m) > this.budgets.maxInlineArtifactChars) ref = await this.#stash(i, m);
      if (ref && m.role !== "tool") {
        // A message shown by reference: its head and tail, the reference, and how to fetch the rest.
        const message: ModelMessage = { role: m.role, content: storedMessageText(i, m, ref, this.#excerptChars) };
        if (m.tool_calls && m.tool_calls.length > 0) {
          // Long arguments (a whole file written through a tool call) become a JSON stub that
          // names the stored message, so the call stays well-formed for the provider.
          message.tool_calls = m.tool_calls.map((c) =>
            c.arguments.length <= ARGUMENTS_EXCERPT_CHARS
              ? c
              : {
                  ...c,
                  arguments: JSON.stringify({
                    stored_as: ref.short_ref,
                    excerpt: headTailExcerpt(c.arguments, ARGUMENTS_EXCERPT_CHARS),
                  }),
                },
          );
        }
        parts.push(this.#part("turn", message, counter, i, ref.artifact_id));
        continue;
      }
      // An externalized result shows what the externalizer gave the model; a bare transcript
      // reference (content "") or one the assembler stashed itself shows the standard hint.
      const content = ref
        ? m.artifactRef && m.content.length > 0 && this.#level < 2
          ? m.content
          : refContent(ref)
        : m.content;
      const message: ModelMessage = { role: m.role, content };
      if (m.tool_call_id) message.tool_call_id = m.tool_call_id;
      if (m.tool_calls && m.tool_calls.length > 0) message.tool_calls = m.tool_calls;
      if (m.role === "tool" && m.tool_name) message.name = m.tool_name;
      parts.push(this.#part("turn", message, counter, i, ref?.artifact_id));
    }
    return parts;
  }

  /** Stores a tool result the externalizer left inline but the budgets cannot carry. */
  async #stash(index: number, m: HistoryMessage): Promise<ArtifactRef> {
    const body = storedForm(m);
    const put = await this.#options.store.put(body, {
      type: m.role === "tool" ? "tool_output" : "result",
      label: m.role === "tool" ? `${m.tool_name ?? "tool"} result (message #${index})` : `${m.role} message #${index}`,
      ...(body === m.content ? {} : { mime: "application/json" }),
      producer: "dispatcher",
      session: this.#session,
      ...(m.tool_name ? { tool: { name: m.tool_name } } : {}),
    });
    const ref: ArtifactRef = {
      artifact_id: put.id,
      handle: put.handle,
      short_ref: put.shortRef,
      size_bytes: put.record.size_bytes,
      ...(put.record.mime ? { mime: put.record.mime } : {}),
      ...(put.record.summary ? { summary: put.record.summary } : {}),
      payload: "text",
    };
    this.#stashed.set(String(index), ref);
    return ref;
  }

  /** Puts the largest inline message of the kept turns behind a reference. False when none is left. */
  async #stashLargestInline(
    history: readonly HistoryMessage[],
    kept: PromptPart[],
    counter: TokenCounter,
    cuts: Cut[],
  ): Promise<boolean> {
    const candidates = kept
      .filter((p) => p.ref === undefined && p.source !== undefined && !this.#noGain.has(`${p.source}:${this.#level}`))
      .filter((p) => p.message.role === "tool" || messageChars(history[p.source!]!) > 2 * this.#excerptChars)
      .sort((a, b) => b.tokens - a.tokens || a.source! - b.source!);
    for (const best of candidates) {
      if (best.tokens < 64) return false;
      const i = best.source!;
      const ref = await this.#stash(i, history[i]!);
      const [shown] = await this.#turnParts(history, [i], counter);
      const saved = best.tokens - shown!.tokens;
      if (saved <= 0) {
        // Its reference would cost as much as the message: keep it inline, try the next one.
        this.#stashed.delete(String(i));
        this.#noGain.add(`${i}:${this.#level}`);
        continue;
      }
      cuts.push({
        what: `message #${i} shown by reference`,
        reason: "maxPromptTokens",
        tokens: saved,
        recover: ref.short_ref,
      });
      return true;
    }
    return false;
  }

  /**
   * Last resort before a violation: cut the largest injected tail message (an artifacts_get
   * answer) to a head/tail excerpt that fits, and record the cut (never silent).
   */
  #shrinkTail(tail: PromptPart[], over: number, counter: TokenCounter, cuts: Cut[]): boolean {
    let best = -1;
    for (let i = 0; i < tail.length; i++) if (best < 0 || tail[i]!.tokens > tail[best]!.tokens) best = i;
    if (best < 0) return false;
    const part = tail[best]!;
    const content = part.message.content;
    if (content.length <= 200 || part.tokens <= over) return false;
    const keepChars = Math.max(200, Math.floor((content.length * (part.tokens - over)) / part.tokens) - 64);
    if (keepChars >= content.length) return false;
    const message: ModelMessage = { ...part.message, content: headTailExcerpt(content, keepChars) };
    const shrunk = this.#part("tail", message, counter, part.source, part.ref);
    cuts.push({
      what: "injected tail message shortened",
      reason: "maxPromptTokens",
      tokens: Math.max(0, part.tokens - shrunk.tokens),
      chars: content.length - message.content.length,
      recover: "artifacts_get with a range or grep selector",
    });
    tail[best] = shrunk;
    return true;
  }

  async #checkpointFor(
    history: readonly HistoryMessage[],
    omitted: readonly number[],
    hotState: HotState,
    counter: TokenCounter,
  ): Promise<PromptPart[]> {
    if (omitted.length === 0) return [];
    const covered = new Set(this.#checkpoint?.covers ?? []);
    const fresh = omitted.filter((i) => !covered.has(i));
    if (fresh.length > 0) {
      const messages = fresh.map((index) => {
        const message = history[index]!;
        const stashed = this.#stashed.get(String(index));
        if (!stashed || message.artifactRef) return { index, message };
        // Stashed by the assembler: the pack holds the reference (and an assistant message's text).
        return {
          index,
          message: { ...message, artifactRef: stashed, ...(message.role === "tool" ? { content: "" } : {}) },
        };
      });
      const pack = buildCheckpointPack({
        session: this.#session,
        call: callNumber(history),
        previous: this.#checkpoint,
        hotState,
        messages,
      });
      const summaryLines = this.#options.checkpointSummaryLines ?? 3;
      this.#checkpoint = await writeCheckpoint(this.#options.store, pack, this.#checkpoint, {
        summaryLines,
        earlier: this.#summaryTail,
      });
      this.#summaryTail = [...this.#summaryTail, ...pack.summary].slice(-summaryLines);
    }
    const ckpt = this.#checkpoint!;
    return [this.#part("checkpoint", { role: "system", content: ckpt.text }, counter, undefined, ckpt.artifactId)];
  }

  #recallParts(input: AssembleInput, counter: TokenCounter, cuts: Cut[]): PromptPart[] {
    const given = input.recall ?? [];
    const items: readonly RecallItem[] =
      "items" in given ? given.items.map((i) => ({ ref: i.id, text: i.text })) : given;
    const used = items.slice(0, this.budgets.maxRagChunks);
    if (items.length > used.length)
      cuts.push({ what: `${items.length - used.length} recall items`, reason: "maxRagChunks", recover: "recall" });
    return used.map((item) =>
      this.#part(
        "recall",
        { role: "system", content: `Recall ${item.ref}: ${item.text}` },
        counter,
        undefined,
        undefined,
        item.ref,
      ),
    );
  }

  #part(
    kind: PartKind,
    message: ModelMessage,
    counter: TokenCounter,
    source?: number,
    ref?: string,
    refLabel?: string,
  ): PromptPart {
    const text = renderMessage(message);
    const part: PromptPart = { kind, message, text, tokens: counter.count(text) };
    if (source !== undefined) part.source = source;
    if (ref !== undefined) part.ref = ref;
    else if (refLabel !== undefined) part.ref = refLabel;
    return part;
  }

  /** A counter that never throws: a failure is a violation (fail closed) and counts chars. */
  #safeCounter(violations: BudgetViolation[]): TokenCounter {
    const inner = this.#options.tokenCounter;
    return {
      count: (text: string) => {
        try {
          const n = inner.count(text);
          if (!Number.isFinite(n) || n < 0) throw new Error(`counter returned ${n}`);
          return n;
        } catch (error) {
          violations.push({
            budget: "token_count",
            limit: 0,
            actual: null,
            message: `token count failed: ${(error as Error).message}`,
          });
          return text.length;
        }
      },
    };
  }

  #metrics(
    history: readonly HistoryMessage[],
    hotState: HotState,
    hotStateSize: { tokens: number; bytes: number },
    parts: PromptPart[],
    tokens: number,
    violations: BudgetViolation[],
    cuts: Cut[],
    hsTruncated: boolean,
  ): PromptMetrics {
    const index = hotState.artifact_index ?? [];
    return buildPromptMetrics(
      {
        session: this.#session,
        ...(this.#options.run === undefined ? {} : { run: this.#options.run }),
        turn: callNumber(history),
        hs_tokens: hotStateSize.tokens,
        hs_bytes: hotStateSize.bytes,
        hs_truncated: hsTruncated,
        artifacts: index.length,
        artifact_types: index.map((e) => e.type),
        sys_chars: parts.filter((p) => p.message.role === "system").reduce((n, p) => n + p.message.content.length, 0),
        user_chars: parts.filter((p) => p.message.role === "user").reduce((n, p) => n + p.message.content.length, 0),
        est_tokens: tokens,
        ref_files: parts.filter(
          (p) => (p.kind === "bootstrap" || p.kind === "system" || p.kind === "task") && p.ref !== undefined,
        ).length,
        violations,
        cuts,
      },
      this.#budgetConfig,
      this.#options.now,
    );
  }
}

/**
 * What the store keeps for a message the assembler puts behind a reference: its text, or, when
 * it has tool calls, `{"content", "tool_calls"}` as JSON (so the calls come back too).
 */
export function storedForm(m: HistoryMessage): string {
  if (m.role === "tool" || !m.tool_calls || m.tool_calls.length === 0) return m.content;
  return JSON.stringify({ content: m.content, tool_calls: m.tool_calls });
}

/** A message (any role but tool) shown by reference: what it is, how to fetch the rest, and its head and tail. */
function storedMessageText(index: number, m: HistoryMessage, ref: ArtifactRef, excerptChars: number): string {
  const fetch = `${ARTIFACTS_GET_TOOL_NAME} {"ref":"${ref.short_ref}","selector":{"mode":"range","start":1,"end":200}}`;
  return `[message #${index} (${m.role}, ${m.content.length} chars) stored as ${ref.short_ref}; its head and tail are below; the rest: ${fetch}]\n${headTailExcerpt(m.content, excerptChars)}`;
}

function messageChars(m: HistoryMessage): number {
  let n = m.content.length;
  for (const c of m.tool_calls ?? []) n += c.arguments.length;
  return n;
}

function refContent(ref: ArtifactRef): string {
  return renderModelHint(modelHintFor(ref));
}

/**
 * The kept turns plus the user's current request: the latest user message after the task.
 * It sits in an older turn once the model has made two tool calls for it, yet every prompt
 * must still say what the model is working on.
 */
function withRequest(history: readonly HistoryMessage[], layout: HistoryLayout, kept: number[]): number[] {
  const firstTurn = layout.turns[0]?.[0];
  if (firstTurn === undefined) return kept;
  let request = -1;
  for (let i = history.length - 1; i >= firstTurn; i--) {
    if (history[i]!.role === "user") {
      request = i;
      break;
    }
  }
  if (request < 0 || kept.includes(request)) return kept;
  return [request, ...kept].sort((a, b) => a - b);
}
