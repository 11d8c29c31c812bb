import { countTokens } from "@artifact-refs/budget";
import { buildHotState } from "@artifact-refs/hot-state";
import { applySelector } from "@artifact-refs/resolve";
import {
  ArefError,
  DEFAULT_FETCH_MAX_CHARS,
  type ArtifactRef,
  type HotState,
  type TranscriptEntry,
} from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import {
  ARTIFACTS_GET_TOOL_NAME,
  Externalizer,
  PromptAssembler,
  actionLine,
  callCost,
  layoutHistory,
  memoCounter,
  rehydrateTranscript,
  renderMessage,
  resolvePriceModel,
  type AssembledPrompt,
  type AssemblyStrategy,
  type CallCost,
  type CountedPart,
  type HistoryMessage,
  type ModelMessage,
  type PriceModel,
  type PriceModelName,
} from "@artifact-refs/context";
import type { ReplayMessage } from "./formats.js";
import { addCounts, evidenceTerms, FirstSeen, ZERO_COUNTS, type EvidenceCounts } from "./evidence.js";
import { PEER_POLICIES, type PeerPolicy, type PolicyName } from "./policies/index.js";

/** Replay settings. Defaults are the project's published defaults. */
export interface ReplayOptions {
  /** Session id used in the replay store (default "analyze"). */
  session?: string;
  /** Budget of every assembled prompt (default 8,000 tokens, docs/ARCHITECTURE.md §references). */
  maxPromptTokens?: number;
  /** Cap of the one `artifacts_get` answer counted after each externalized output (default 8,000 chars). */
  fetchChars?: number;
  /** Turns every assembled prompt keeps (default 2). */
  keepTurns?: number;
  /** Tokenizer encoding (default cl100k_base, the budget package's default). */
  encoding?: "cl100k_base" | "o200k_base";
  /** Per-artifact cap of the in-memory replay store (default 64 MiB, so no output is refused). */
  maxArtifactBytes?: number;
  /** Externalizer inline threshold in chars (default: the externalizer's, 2,000). */
  maxInlineChars?: number;
  /** When `append` compacts (default "cost"; see PromptAssemblerOptions.appendCompaction). */
  appendCompaction?: "budget" | "cost";
  /** Price model of the cache-weighted cost and of `appendCompaction: "cost"` (default "anthropic"). */
  priceModel?: PriceModelName | Partial<PriceModel>;
  /** Called after every replayed call with both assembled prompts (tests check invariants here). */
  onCall?: (call: ReplayCall) => void | Promise<void>;
}

/** Everything about one replayed call, for invariant checks. */
export interface ReplayCall {
  call: number;
  /** Index of the assistant message this call produced. */
  index: number;
  /** History the assembler saw (payloads externalized). */
  history: readonly HistoryMessage[];
  /** The original messages [0, index). */
  original: readonly ReplayMessage[];
  window: AssembledPrompt;
  append: AssembledPrompt;
  /** The hot state both prompts were given. */
  hotState: HotState;
  store: ArtifactStore;
  session: string;
}

export interface SeriesFigures {
  tokens: number;
  cost: number;
}

/** Figures of one model call. */
export interface TurnReport {
  call: number;
  index: number;
  naive_tokens: number;
  refs_tokens: number;
  floor_tokens: number;
  window_tokens: number;
  append_tokens: number;
  naive_cost: number;
  refs_cost: number;
  window_cost: number;
  append_cost: number;
  /** Share of the prompt that is a byte-identical prefix of the previous call's prompt (0..1). */
  naive_prefix_share: number;
  refs_prefix_share: number;
  window_prefix_share: number;
  append_prefix_share: number;
  append_compacted: boolean;
  fetches: number;
  budget_violations: number;
  policies: Record<PolicyName, SeriesFigures>;
  /** Evidence of this call (see evidence.ts) per series: window, append and each peer policy. */
  evidence: Record<string, EvidenceCounts>;
}

/** Figures of one transcript (or a total of several). */
export interface ReplayReport {
  calls: number;
  messages: number;
  naive_tokens: number;
  refs_tokens: number;
  floor_tokens: number;
  naive_cost: number;
  refs_cost: number;
  strategies: Record<AssemblyStrategy, SeriesFigures>;
  policies: Record<PolicyName, SeriesFigures>;
  externalized: number;
  fetches: number;
  compactions: number;
  rehydration_mismatches: number;
  budget_violations: number;
  /** Evidence counts per series (window, append, each peer policy), summed over the calls. */
  evidence: Record<string, EvidenceCounts>;
  turns: TurnReport[];
}

const DEFAULT_MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;
/** Deterministic replay clock: every record is created at this instant. */
const REPLAY_EPOCH = new Date("2026-01-01T00:00:00.000Z");

/** An output the replay externalized. */
export interface ReplayStash {
  index: number;
  ref: ArtifactRef;
  label: string;
}

/**
 * Replays a transcript through the externalizer and both assembler strategies, and the peer
 * policies. A model call happens before each assistant message; its naive prompt is every
 * message before it.
 */
export async function replayTranscript(
  messages: readonly ReplayMessage[],
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const session = options.session ?? "analyze";
  const maxPromptTokens = options.maxPromptTokens ?? 8_000;
  const fetchChars = options.fetchChars ?? DEFAULT_FETCH_MAX_CHARS;
  if (!Number.isInteger(fetchChars) || fetchChars < 1)
    throw new ArefError("INVALID_INPUT", `fetchChars must be a positive integer, got ${fetchChars}`);
  const encoding = options.encoding ?? "cl100k_base";
  const prices = resolvePriceModel(options.priceModel);
  const count = memoCounter((text) => countTokens(text, { encoding }));
  const store = new ArtifactStore({
    driver: new MemoryDriver(),
    maxBytes: options.maxArtifactBytes ?? DEFAULT_MAX_ARTIFACT_BYTES,
    now: () => REPLAY_EPOCH,
  });
  const externalizer = new Externalizer({
    store,
    config: {
      // Replay measures tokens: redaction would change payloads and break the byte-exact check.
      redaction: { enabled: false },
      ...(options.maxInlineChars === undefined ? {} : { externalize: { maxInlineChars: options.maxInlineChars } }),
    },
    countTokens: count,
    now: () => REPLAY_EPOCH.getTime(),
  });
  const counter = { count };
  const assemblerOptions = {
    store,
    session,
    tokenCounter: counter,
    budgets: { maxPromptTokens },
    failClosed: false,
    priceModel: prices,
    ...(options.keepTurns === undefined ? {} : { keepTurns: options.keepTurns }),
  };
  const windowAsm = new PromptAssembler({ ...assemblerOptions, strategy: "window" });
  const appendAsm = new PromptAssembler({
    ...assemblerOptions,
    strategy: "append",
    ...(options.appendCompaction === undefined ? {} : { appendCompaction: options.appendCompaction }),
  });

  const layout = layoutHistory(messages as HistoryMessage[]);
  const firstUser = layout.task.find((i) => messages[i]!.role === "user");
  const floorIdx = [...layout.system, ...(firstUser === undefined ? [] : [firstUser])];
  const naiveText = messages.map((m) => renderMessage(toModel(m, m.content)));
  const naiveTokens = naiveText.map((t) => count(t));
  const floorTokens = floorIdx.reduce((n, i) => n + naiveTokens[i]!, 0);
  const objective = objectiveOf(firstUser === undefined ? "" : messages[firstUser]!.content);
  // Evidence: where each term first appeared, and which messages are observations (tool
  // results, or user turns after the task: observations some agents record as user messages).
  const seen = new FirstSeen();
  const leading = new Set([...layout.system, ...layout.task]);
  const isObservation = (j: number) =>
    !leading.has(j) && (messages[j]!.role === "tool" || messages[j]!.role === "user");

  const history: HistoryMessage[] = [];
  const refsText: string[] = [];
  const entries: TranscriptEntry[] = [];
  const stashed: ReplayStash[] = [];
  const stashedAt = new Map<number, ReplayStash>();
  const policyStatic = new Map<string, string>();

  const prev: Record<string, CountedPart[] | undefined> = {};
  const turns: TurnReport[] = [];
  let lastAssistant = -1;
  let lastAction = "";

  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      turns.push(await replayCall(i));
      lastAssistant = i;
      lastAction = actionLine(m.content, m.tool_calls, 64);
    }
    seen.add(i, messageText(m));
    // Record message i (after the call that precedes it, if any).
    if (m.role === "tool") {
      const result = await externalizer.externalize({
        session,
        tool: m.tool_name ?? "tool",
        result: m.content,
        ...(m.tool_call_id === undefined ? {} : { callId: m.tool_call_id }),
      });
      entries.push(result.entry);
      const h: HistoryMessage = { role: "tool", content: result.content };
      if (m.tool_name !== undefined) h.tool_name = m.tool_name;
      if (m.tool_call_id !== undefined) h.tool_call_id = m.tool_call_id;
      if (result.action === "stashed" && result.artifactRef) {
        h.artifactRef = result.artifactRef;
        const s: ReplayStash = {
          index: i,
          ref: result.artifactRef,
          label: `${m.tool_name ?? "tool"} #${i}: ${lastAction}`.slice(0, 80),
        };
        stashed.push(s);
        stashedAt.set(i, s);
      } else if (result.action === "fallback") {
        throw new ArefError("INTERNAL", `replay could not store the output of message #${i}: ${result.reason}`);
      }
      history.push(h);
      refsText.push(renderMessage(toModel(m, result.content)));
    } else {
      entries.push({
        type: "message",
        role: m.role,
        content: m.content,
        ...(m.tool_calls ? { tool_calls: m.tool_calls } : {}),
      });
      history.push({ ...m });
      refsText.push(naiveText[i]!);
    }
  }

  // Byte-exact rehydration of every externalized output, through the transcript reader.
  const rehydrated = await rehydrateTranscript(entries, { store });
  let mismatches = rehydrated.errors.length;
  for (const s of stashed) {
    const entry = rehydrated.entries[s.index];
    if (!entry || entry.content !== messages[s.index]!.content) mismatches++;
  }

  return summarize(turns, messages.length, stashed.length, mismatches);

  async function replayCall(i: number): Promise<TurnReport> {
    const call = turns.length + 1;
    // Outputs externalized since the previous call: the model fetches each once, capped.
    const fresh = stashed.filter((s) => s.index > lastAssistant && s.index < i);
    const tail: ModelMessage[] = fresh.map((s) => ({
      role: "tool",
      name: ARTIFACTS_GET_TOOL_NAME,
      content: applySelector(messages[s.index]!.content, { mode: "headtail", maxChars: fetchChars }).text,
    }));
    const tailParts = tail.map((t) => counted(renderMessage(t)));

    const naive: CountedPart[] = [];
    for (let j = 0; j < i; j++) naive.push({ text: naiveText[j]!, tokens: naiveTokens[j]! });
    const naiveTotal = naive.reduce((n, p) => n + p.tokens, 0);
    const refs: CountedPart[] = [];
    for (let j = 0; j < i; j++) refs.push(counted(refsText[j]!));
    refs.push(...tailParts);

    const hs = replayHotState(
      session,
      objective,
      stashed.filter((s) => s.index < i),
    );
    const hotState = hs.state;
    const slice = history.slice(0, i);
    const window = await windowAsm.assemble({ history: slice, hotState, tail, hotStateTruncated: hs.truncated });
    const append = await appendAsm.assemble({ history: slice, hotState, tail, hotStateTruncated: hs.truncated });
    await options.onCall?.({
      call,
      index: i,
      history: slice,
      original: messages.slice(0, i),
      window,
      append,
      hotState,
      store,
      session,
    });

    const terms = [...evidenceTerms(messageText(messages[i]!))].flatMap((t) => {
      const f = seen.first(t);
      return f !== undefined && f < i && isObservation(f) ? [{ term: t, from: f }] : [];
    });
    const evidence: Record<string, EvidenceCounts> = {
      window: assembledEvidence(window, terms),
      append: assembledEvidence(append, terms),
    };
    const policies = {} as Record<PolicyName, SeriesFigures>;
    for (const policy of PEER_POLICIES) {
      const parts = policyParts(policy, i, naiveTotal);
      const c = cost(policy.name, parts);
      policies[policy.name] = { tokens: c.tokens, cost: c.cost };
      evidence[policy.name] = peerEvidence(parts, terms);
    }
    const n = cost("naive", naive);
    const r = cost("refs", refs);
    const w = cost("window", window.parts);
    const a = cost("append", append.parts);
    return {
      call,
      index: i,
      naive_tokens: n.tokens,
      refs_tokens: r.tokens,
      floor_tokens: floorTokens,
      window_tokens: w.tokens,
      append_tokens: a.tokens,
      naive_cost: n.cost,
      refs_cost: r.cost,
      window_cost: w.cost,
      append_cost: a.cost,
      naive_prefix_share: share(n),
      refs_prefix_share: share(r),
      window_prefix_share: share(w),
      append_prefix_share: share(a),
      append_compacted: append.compacted,
      fetches: tail.length,
      budget_violations: window.violations.length + append.violations.length,
      policies,
      evidence,
    };
  }

  function counted(text: string): CountedPart {
    return { text, tokens: count(text) };
  }

  function cost(series: string, parts: readonly CountedPart[]): CallCost {
    const c = callCost(prev[series], parts, count, prices);
    prev[series] = parts as CountedPart[];
    return c;
  }

  function policyParts(policy: PeerPolicy, upTo: number, naiveTotal: number): CountedPart[] {
    const parts: CountedPart[] = [];
    const ctx = { naiveTokens: naiveTotal, count };
    for (let j = 0; j < upTo; j++) {
      const m = messages[j]!;
      if (m.role !== "tool") {
        parts.push({ text: naiveText[j]!, tokens: naiveTokens[j]! });
        continue;
      }
      let content: string;
      const key = `${policy.name}:${j}`;
      if (policy.static && policyStatic.has(key)) content = policyStatic.get(key)!;
      else {
        content = policy.toolContent(messages, j, upTo, ctx);
        if (policy.static) policyStatic.set(key, content);
      }
      if (content === m.content) parts.push({ text: naiveText[j]!, tokens: naiveTokens[j]! });
      else parts.push(counted(renderMessage(toModel(m, content))));
    }
    return parts;
  }
}

/** The text an assistant writes (content and tool-call arguments) or any message carries. */
function messageText(m: ReplayMessage): string {
  return [m.content, ...(m.tool_calls ?? []).map((c) => `${c.name} ${c.arguments}`)].join("\n");
}

interface EvidenceTerm {
  term: string;
  /** Index of the observation it first appeared in. */
  from: number;
}

/**
 * Visible: the term is in the prompt's text. Reachable: visible, or the observation it came
 * from is stored behind a reference the prompt shows, or left out under the prompt's checkpoint.
 */
function assembledEvidence(prompt: AssembledPrompt, terms: readonly EvidenceTerm[]): EvidenceCounts {
  const text = prompt.parts.map((p) => p.text).join("\n");
  const byRef = new Set(
    prompt.parts.filter((p) => p.source !== undefined && p.ref !== undefined).map((p) => p.source!),
  );
  const underCheckpoint = new Set(prompt.checkpoint ? prompt.omitted : []);
  let visible = 0;
  let reachable = 0;
  for (const { term, from } of terms) {
    const v = text.includes(term);
    if (v) visible++;
    if (v || byRef.has(from) || underCheckpoint.has(from)) reachable++;
  }
  return { terms: terms.length, visible, reachable };
}

/** Peer policies store nothing: what they do not show is gone (reachable = visible). */
function peerEvidence(parts: readonly CountedPart[], terms: readonly EvidenceTerm[]): EvidenceCounts {
  let joined: string | undefined;
  let visible = 0;
  for (const { term, from } of terms) {
    if (parts[from]?.text.includes(term)) visible++;
    else if ((joined ??= parts.map((p) => p.text).join("\n")).includes(term)) visible++;
  }
  return { terms: terms.length, visible, reachable: visible };
}

function share(c: CallCost): number {
  return c.tokens === 0 ? 0 : c.prefixTokens / c.tokens;
}

function toModel(m: ReplayMessage, content: string): ModelMessage {
  const out: ModelMessage = { role: m.role, content };
  if (m.tool_call_id) out.tool_call_id = m.tool_call_id;
  if (m.tool_calls && m.tool_calls.length > 0) out.tool_calls = m.tool_calls;
  if (m.role === "tool" && m.tool_name) out.name = m.tool_name;
  return out;
}

/** One line of the task, as the hot state's objective. */
export function objectiveOf(task: string): string {
  const text = task
    .replace(/<[^>\n]{1,40}>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/**
 * The dispatcher's hot state in a replay: the objective and the externalized outputs as index
 * candidates, built by hot-state's builder (index cap by recency, token cap, short refs).
 */
export function replayHotState(
  session: string,
  objective: string,
  stashed: readonly ReplayStash[],
): { state: HotState; truncated: boolean } {
  const candidates = stashed.map((s) => ({
    artifact_id: s.ref.artifact_id,
    type: "tool_output" as const,
    label: s.label,
  }));
  const build = buildHotState({ state: { session_id: session, ...(objective ? { objective } : {}) }, candidates });
  return { state: build.state, truncated: build.truncated };
}

function zeroPolicies(): Record<PolicyName, SeriesFigures> {
  const out = {} as Record<PolicyName, SeriesFigures>;
  for (const p of PEER_POLICIES) out[p.name] = { tokens: 0, cost: 0 };
  return out;
}

function summarize(turns: TurnReport[], messages: number, externalized: number, mismatches: number): ReplayReport {
  const report: ReplayReport = {
    calls: turns.length,
    messages,
    naive_tokens: 0,
    refs_tokens: 0,
    floor_tokens: 0,
    naive_cost: 0,
    refs_cost: 0,
    strategies: { window: { tokens: 0, cost: 0 }, append: { tokens: 0, cost: 0 } },
    policies: zeroPolicies(),
    externalized,
    fetches: 0,
    compactions: 0,
    rehydration_mismatches: mismatches,
    budget_violations: 0,
    evidence: {},
    turns,
  };
  for (const t of turns) {
    for (const [series, c] of Object.entries(t.evidence))
      report.evidence[series] = addCounts(report.evidence[series] ?? ZERO_COUNTS, c);
    report.naive_tokens += t.naive_tokens;
    report.refs_tokens += t.refs_tokens;
    report.floor_tokens += t.floor_tokens;
    report.naive_cost += t.naive_cost;
    report.refs_cost += t.refs_cost;
    report.strategies.window.tokens += t.window_tokens;
    report.strategies.window.cost += t.window_cost;
    report.strategies.append.tokens += t.append_tokens;
    report.strategies.append.cost += t.append_cost;
    for (const p of PEER_POLICIES) {
      report.policies[p.name].tokens += t.policies[p.name].tokens;
      report.policies[p.name].cost += t.policies[p.name].cost;
    }
    report.fetches += t.fetches;
    if (t.append_compacted) report.compactions++;
    report.budget_violations += t.budget_violations;
  }
  return report;
}

/** Adds several replay reports into one total (turns are concatenated). */
export function totalReports(reports: readonly ReplayReport[]): ReplayReport {
  const turns = reports.flatMap((r) => r.turns);
  const total = summarize(
    turns,
    reports.reduce((n, r) => n + r.messages, 0),
    reports.reduce((n, r) => n + r.externalized, 0),
    reports.reduce((n, r) => n + r.rehydration_mismatches, 0),
  );
  return total;
}
