import {
  type ExecutionLike,
  type Resolution,
  type ResolveOptions,
  SEMANTIC_WINDOW,
  executionText,
  resolveReferences,
} from "@artifact-refs/resolve";
import { type Embedder, loadEmbedder } from "./embedder.js";

export interface SemanticResolverOptions {
  /** Execution texts whose vectors are kept (oldest dropped first); default 10,000. */
  cacheSize?: number;
}

/**
 * resolveReferences with a sentence-embedding model as the semantic signal. Lexical resolution runs first;
 * only when it finds nothing are the message and the recent window's executions embedded (each execution
 * text once, cached) and their similarities passed as `semantic` (see @artifact-refs/resolve's README).
 */
export class SemanticResolver {
  readonly #embedder: Embedder;
  readonly #cache = new Map<string, Float32Array>();
  readonly #cacheSize: number;

  constructor(embedder: Embedder, options: SemanticResolverOptions = {}) {
    this.#embedder = embedder;
    this.#cacheSize = Math.max(SEMANTIC_WINDOW, options.cacheSize ?? 10_000);
  }

  /** With the bundled Universal Sentence Encoder lite (offline). */
  static async load(options?: SemanticResolverOptions): Promise<SemanticResolver> {
    return new SemanticResolver(await loadEmbedder(), options);
  }

  async resolve(text: string, executions: readonly ExecutionLike[], options: ResolveOptions = {}): Promise<Resolution> {
    const lexical = resolveReferences(text, executions, options);
    if (lexical.candidates.length > 0 || !text.trim()) return lexical;
    const semantic = await this.similarities(text, executions, options.after);
    return resolveReferences(text, executions, { ...options, semantic });
  }

  /** Similarity of `text` to each of the latest SEMANTIC_WINDOW referenceable executions (up to `after`), by id. */
  async similarities(text: string, executions: readonly ExecutionLike[], after?: string): Promise<Map<string, number>> {
    const window = recentWindow(executions, after);
    const texts = window.map((w) => executionText(w.e));
    const vectors = await this.#vectors([text, ...texts]);
    const query = vectors[0]!;
    return new Map(window.map((w, i) => [w.id, dot(query, vectors[i + 1]!)]));
  }

  async #vectors(texts: string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((t) => !this.#cache.has(t)))];
    if (missing.length > 0) {
      const embedded = await this.#embedder.embed(missing);
      for (const [i, t] of missing.entries()) this.#remember(t, unit(embedded[i] ?? []));
    }
    return texts.map((t) => this.#cache.get(t) ?? new Float32Array(0));
  }

  #remember(text: string, v: Float32Array): void {
    this.#cache.set(text, v);
    while (this.#cache.size > this.#cacheSize) this.#cache.delete(this.#cache.keys().next().value as string);
  }
}

function recentWindow(executions: readonly ExecutionLike[], after?: string): { id: string; e: ExecutionLike }[] {
  const all = executions.map((e, i) => ({ id: e.id ?? e.execution_id ?? `#${i + 1}`, e }));
  const end = after === undefined ? all.length : all.findIndex((x) => x.id === after) + 1;
  return all
    .slice(0, end > 0 ? end : all.length)
    .filter((x) => x.e.is_referenceable !== false)
    .slice(-SEMANTIC_WINDOW);
}

function unit(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (const x of out) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= n;
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) s += a[i]! * b[i]!;
  return s;
}
