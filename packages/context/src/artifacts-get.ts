import { applySelector, applySelectorToChunks, parseSelector } from "@artifact-refs/resolve";
import {
  ArefError,
  DEFAULT_FETCH_MAX_CHARS,
  type ErrorCode,
  isArefError,
  parseSessionId,
  SELECTOR_FIELDS,
  type Selection,
  type Selector,
  selectorJsonSchema,
} from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { z } from "zod";
import { renderModelError } from "./model-errors.js";
import { ARTIFACTS_GET_TOOL_NAME } from "./model-hint.js";
import { renderGetAnswer } from "./model-text.js";

/** A provider-neutral tool definition: name, description, JSON-schema parameters. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * What the model reads for one tool call, and whether it reports a failed call. Every SDK adapter
 * maps `isError` to its own shape: Anthropic `is_error: true`, the AI SDK an `error-text` output
 * (a tool error); OpenAI's tool messages have no error field, so there the text alone says it
 * (`CODE: message`).
 */
export interface ToolContent {
  text: string;
  isError: boolean;
  /** The error's stable code when `isError`. */
  code?: ErrorCode;
}

/** The selector as the model sees it: derived from the one selector schema (fields, bounds, descriptions). */
const SELECTOR_JSON_SCHEMA = selectorJsonSchema();

/** The artifacts_get tool definition (neutral JSON schema; adapters map it to each SDK). */
export function artifactsGetDefinition(maxChars = DEFAULT_FETCH_MAX_CHARS): ToolDefinition {
  return {
    name: ARTIFACTS_GET_TOOL_NAME,
    description:
      `Read a bounded part of a stored artifact (a large tool output or file kept out of the prompt). ` +
      `Pass the reference exactly as shown (art:<hex>, a 64-hex id or an aref:v1:sha256:… handle) and a selector. ` +
      `Returns at most ${maxChars} chars, says what was left out, and gives the "next" selector for more.`,
    parameters: {
      type: "object",
      properties: {
        ref: { type: "string", description: "art:<12+ hex>, a full 64-hex id, or aref:v1:sha256:<64 hex>" },
        selector: SELECTOR_JSON_SCHEMA,
      },
      required: ["ref"],
      additionalProperties: false,
    },
  };
}

/** Selector fields a model may give beside `ref` instead of a nested `selector` object. */
const FLAT_KEYS = ["mode", ...SELECTOR_FIELDS] as const;

const ArgsSchema = z
  .object({
    ref: z.string().min(1),
    selector: z.unknown().optional(),
    ...Object.fromEntries(FLAT_KEYS.map((k) => [k, z.unknown().optional()])),
  })
  .strict();

export interface ArtifactsGetArgs {
  ref: string;
  selector?: Selector;
}

/** Parses the tool's arguments (object or JSON string). Flat selector fields are accepted too. */
export function parseArtifactsGetArgs(input: unknown): ArtifactsGetArgs {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new ArefError("INVALID_INPUT", `${ARTIFACTS_GET_TOOL_NAME} arguments are not valid JSON`, {
        hint: `pass {"ref":"art:…","selector":{"mode":"headtail"}}`,
      });
    }
  }
  const parsed = ArgsSchema.safeParse(value);
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ");
    throw new ArefError("INVALID_INPUT", `invalid ${ARTIFACTS_GET_TOOL_NAME} arguments: ${reasons}`, {
      hint: `pass {"ref":"art:…","selector":{"mode":"grep","pattern":"error"}}`,
    });
  }
  const data = parsed.data as Record<string, unknown> & { ref: string; selector?: unknown };
  const flat = Object.fromEntries(FLAT_KEYS.filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));
  if (data.selector !== undefined && Object.keys(flat).length > 0) {
    throw new ArefError("INVALID_INPUT", `give the selector either as "selector": {...} or as flat fields, not both`);
  }
  const rawSelector = data.selector ?? (Object.keys(flat).length > 0 ? { mode: "headtail", ...flat } : undefined);
  return { ref: data.ref, ...(rawSelector === undefined ? {} : { selector: parseSelector(rawSelector) }) };
}

export interface ArtifactsGetAnswer {
  artifact_reference: string;
  label?: string;
  mime?: string;
  size_bytes: number;
  total_lines: number;
  selector: Selector;
  text: string;
  chars: number;
  truncated: boolean;
  omitted?: string;
  next?: Selector;
  note?: string;
}

export interface LoopGuardAnswer {
  artifact_reference: string;
  loop_guard: true;
  note: string;
  suggestions: Selector[];
}

export interface ArtifactsGetError {
  error: { code: string; message: string; hint?: string };
}

export type ArtifactsGetResult = ArtifactsGetAnswer | LoopGuardAnswer;

export interface ArtifactsGetOptions {
  store: ArtifactStore;
  session: string;
  /** Cap of one answer's text (default 8,000; docs/ARCHITECTURE.md §references/§sidecar). */
  maxChars?: number;
  /** Identical fetches allowed before the loop guard answers with narrower selectors (default 2). */
  loopLimit?: number;
  /** Recent fetches the loop guard remembers (default 32). */
  loopWindow?: number;
}

function selectorKey(selector: Selector): string {
  const entries = Object.entries(selector).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(entries);
}

/**
 * The bounded artifacts_get tool for one session: resolves short refs within the session
 * (so an artifact is fetchable in the same turn that externalized it), never returns more
 * than its cap, and answers a repeated identical fetch with narrower selectors instead.
 */
export class ArtifactsGetTool {
  readonly store: ArtifactStore;
  readonly session: string;
  readonly maxChars: number;
  readonly loopLimit: number;
  readonly loopWindow: number;
  readonly definition: ToolDefinition;
  #history: { key: string; id: string }[] = [];
  #lastSelection = new Map<string, Selection>();

  constructor(options: ArtifactsGetOptions) {
    this.store = options.store;
    this.session = parseSessionId(options.session);
    this.maxChars = options.maxChars ?? DEFAULT_FETCH_MAX_CHARS;
    this.loopLimit = options.loopLimit ?? 2;
    this.loopWindow = options.loopWindow ?? 32;
    this.definition = artifactsGetDefinition(this.maxChars);
  }

  get name(): string {
    return ARTIFACTS_GET_TOOL_NAME;
  }

  /** Forgets the fetch history (e.g. when the model's context was compacted). */
  resetLoopGuard(): void {
    this.#history = [];
    this.#lastSelection.clear();
  }

  /** Runs the tool; throws ArefError on a bad ref, a missing artifact or a bad selector. */
  async call(input: unknown): Promise<ArtifactsGetResult> {
    const args = parseArtifactsGetArgs(input);
    const id = await this.store.resolve(args.ref, { session: this.session });
    const record = await this.store.getRecord(id, { session: this.session });
    const shortRef = await this.store.shortRef(id, { session: this.session });
    let note: string | undefined;
    let selector: Selector = args.selector ?? { mode: "headtail" };
    if (selector.maxChars !== undefined && selector.maxChars > this.maxChars) {
      note = `maxChars ${selector.maxChars} is over this tool's cap; returned at most ${this.maxChars} chars`;
      selector = { ...selector, maxChars: this.maxChars };
    }
    const key = `${id}|${selectorKey(selector)}`;
    const seen = this.#history.filter((h) => h.key === key).length;
    if (seen >= this.loopLimit) {
      return this.#guard(shortRef, key, seen, record.mime, selector);
    }
    // A chunked artifact (over 512 KiB) is read chunk by chunk: only the chunks the selection needs.
    const chunked = await this.store.chunks(id, { session: this.session });
    const selection =
      chunked === undefined
        ? applySelector(await this.store.getText(id, { session: this.session }), selector, {
            defaultMaxChars: this.maxChars,
          })
        : await applySelectorToChunks(chunked, selector, { defaultMaxChars: this.maxChars });
    if (selection.text.length > this.maxChars) {
      throw new ArefError(
        "INTERNAL",
        `selection returned ${selection.text.length} chars, over the cap of ${this.maxChars}`,
      );
    }
    this.#history.push({ key, id });
    if (this.#history.length > this.loopWindow) this.#history.shift();
    this.#lastSelection.set(key, selection);
    return {
      artifact_reference: shortRef,
      ...(record.label ? { label: record.label } : {}),
      ...(record.mime ? { mime: record.mime } : {}),
      size_bytes: record.size_bytes,
      total_lines: selection.total_lines,
      selector: selection.selector,
      text: selection.text,
      chars: selection.chars,
      truncated: selection.truncated,
      ...(selection.omitted ? { omitted: selection.omitted } : {}),
      ...(selection.next ? { next: selection.next } : {}),
      ...(note ? { note } : {}),
    };
  }

  /**
   * Runs the tool and returns what the model reads, in plain text (no JSON to unescape): the
   * selected content, then lines on what it was, what was left out and the call for the next
   * part. A bad call (bad ref, unknown artifact, bad selector) is answered as `CODE: message`
   * with a hint naming a tool the model can call, so that it can correct itself.
   */
  async handle(input: unknown): Promise<string> {
    return (await this.respond(input)).text;
  }

  /** handle(), and whether the answer is an error (for SDKs that flag error results, e.g. Anthropic's is_error). */
  async respond(input: unknown): Promise<ToolContent> {
    try {
      return { text: renderGetAnswer(await this.call(input)), isError: false };
    } catch (error) {
      if (!isArefError(error)) throw error;
      return { text: renderModelError(error), isError: true, code: error.code };
    }
  }

  #guard(shortRef: string, key: string, seen: number, mime: string | undefined, selector: Selector): LoopGuardAnswer {
    const last = this.#lastSelection.get(key);
    const suggestions: Selector[] = [];
    if (last?.next) suggestions.push(last.next);
    const lines = last?.total_lines ?? 0;
    if (/json/.test(mime ?? "") && selector.mode !== "jsonpath") suggestions.push({ mode: "jsonpath", expr: "$.*" });
    if (selector.mode !== "grep")
      suggestions.push({ mode: "grep", pattern: "error|warn|fail", ignoreCase: true, context: 2 });
    if (lines > 0) {
      const mid = Math.max(1, Math.floor(lines / 2));
      suggestions.push({ mode: "range", start: mid, end: Math.min(lines, mid + 80) });
    }
    if (selector.mode === "grep") suggestions.push({ ...selector, context: 0, maxMatches: 10 });
    return {
      artifact_reference: shortRef,
      loop_guard: true,
      note:
        `You already fetched ${shortRef} with this exact selector ${seen} times; the content has not changed, so it is not sent again. ` +
        `Ask for a narrower or different part (one of the suggestions, or your own grep/range/jsonpath selector).`,
      suggestions,
    };
  }
}
