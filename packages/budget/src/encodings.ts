import { ArefError } from "@artifact-refs/schema";

/** The tiktoken encodings this package counts with. */
export const ENCODINGS = ["o200k_base", "cl100k_base"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Encoding used for a model this package does not know (with a warning, or an error in strict mode). */
export const DEFAULT_ENCODING: Encoding = "cl100k_base";

/**
 * Model name prefixes and their encoding, most specific first. A model matches a rule
 * when its name equals the prefix or continues it with "-", "." or ":" (dates, sizes,
 * provider suffixes): "gpt-4o-mini-2024-07-18" matches "gpt-4o"; "gpt-40" matches nothing.
 */
const MODEL_RULES: ReadonlyArray<readonly [prefix: string, encoding: Encoding]> = [
  ["gpt-4o", "o200k_base"],
  ["chatgpt-4o", "o200k_base"],
  ["gpt-4.1", "o200k_base"],
  ["gpt-4.5", "o200k_base"],
  ["gpt-5", "o200k_base"],
  ["gpt-oss", "o200k_base"],
  ["o1", "o200k_base"],
  ["o3", "o200k_base"],
  ["o4", "o200k_base"],
  ["codex-mini", "o200k_base"],
  ["computer-use-preview", "o200k_base"],
  ["omni-moderation", "o200k_base"],
  ["gpt-4", "cl100k_base"],
  ["gpt-3.5", "cl100k_base"],
  ["gpt-35", "cl100k_base"],
  ["text-embedding-3", "cl100k_base"],
  ["text-embedding-ada-002", "cl100k_base"],
  ["davinci-002", "cl100k_base"],
  ["babbage-002", "cl100k_base"],
];

export interface EncodingResolution {
  encoding: Encoding;
  /** True when the model name matched a known rule (or no model was given). */
  known: boolean;
  /** Set when the model is unknown and the default encoding was used. */
  warning?: string;
}

export function isEncoding(value: unknown): value is Encoding {
  return typeof value === "string" && (ENCODINGS as readonly string[]).includes(value);
}

/** The encoding of a known model, or undefined. Case-insensitive; an "openai/" style provider prefix is ignored. */
export function encodingForModel(model: string): Encoding | undefined {
  const name = model
    .trim()
    .toLowerCase()
    .replace(/^[a-z0-9_-]+\//, "");
  for (const [prefix, encoding] of MODEL_RULES) {
    if (name === prefix) return encoding;
    if (name.startsWith(prefix)) {
      const next = name[prefix.length];
      if (next === "-" || next === "." || next === ":") return encoding;
    }
  }
  return undefined;
}

/**
 * Which encoding to count with: an explicit `encoding` wins; else the model's; else the
 * default. An unknown model gives the default encoding and a warning, or an
 * INVALID_INPUT error when `strict` is set.
 */
export function resolveEncoding(
  opts: { model?: string; encoding?: string; strict?: boolean } = {},
): EncodingResolution {
  if (opts === null || typeof opts !== "object")
    throw new ArefError(
      "INVALID_INPUT",
      `tokenizer options must be an object, got ${opts === null ? "null" : typeof opts}`,
    );
  if (opts.model !== undefined && typeof opts.model !== "string") {
    throw new ArefError("INVALID_INPUT", `model must be a model name (a string), got ${typeof opts.model}`, {
      hint: 'e.g. { model: "gpt-4o" }',
    });
  }
  if (opts.encoding !== undefined) {
    if (!isEncoding(opts.encoding)) {
      throw new ArefError("INVALID_INPUT", `unknown encoding ${JSON.stringify(opts.encoding)}`, {
        hint: `use one of: ${ENCODINGS.join(", ")}`,
      });
    }
    return { encoding: opts.encoding, known: true };
  }
  if (opts.model === undefined || opts.model === "") return { encoding: DEFAULT_ENCODING, known: true };
  const encoding = encodingForModel(opts.model);
  if (encoding !== undefined) return { encoding, known: true };
  const message = `unknown model ${JSON.stringify(opts.model)}: counting with ${DEFAULT_ENCODING}; counts are an estimate for this model`;
  if (opts.strict) {
    throw new ArefError("INVALID_INPUT", `unknown model ${JSON.stringify(opts.model)} (strict mode)`, {
      hint: `pass a known OpenAI model (gpt-4o, gpt-4.1, gpt-5, o1, o3, o4-mini, gpt-4, gpt-3.5-turbo, …) or an explicit encoding (${ENCODINGS.join(", ")})`,
      details: { model: opts.model },
    });
  }
  return { encoding: DEFAULT_ENCODING, known: false, warning: message };
}
