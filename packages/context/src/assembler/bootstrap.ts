import type { ArtifactStore } from "@artifact-refs/store";
import { headTailExcerpt } from "./render.js";

/** docs/ARCHITECTURE.md §references: files at or above this many chars go into the prompt as an ArtifactRef. */
export const DEFAULT_BOOTSTRAP_THRESHOLD_CHARS = 8_000;
/** docs/ARCHITECTURE.md §references: the ArtifactRef form carries a head/tail excerpt of about this many chars. */
export const DEFAULT_BOOTSTRAP_EXCERPT_CHARS = 4_000;

export interface BootstrapBlock {
  text: string;
  /** Artifact id when the block is a reference, undefined when inline. */
  artifactId?: string;
  shortRef?: string;
}

export interface BootstrapOptions {
  store: ArtifactStore;
  session: string;
  thresholdChars?: number;
  excerptChars?: number;
}

/**
 * One bootstrap block (workspace file, or a task message): inline below the threshold,
 * else stored in the artifact store and shown in the docs/ARCHITECTURE.md §references form:
 *
 *     ArtifactRef: <sha256> (type=text/markdown, sha256=..., bytes=..., createdAt=...)
 *
 *     Summary (head/tail excerpt):
 *     [head … tail]
 */
export async function bootstrapBlock(
  name: string,
  content: string,
  mime: string,
  options: BootstrapOptions,
): Promise<BootstrapBlock> {
  const threshold = options.thresholdChars ?? DEFAULT_BOOTSTRAP_THRESHOLD_CHARS;
  if (content.length < threshold) return { text: content };
  const put = await options.store.put(content, {
    type: "doc",
    mime,
    label: name,
    producer: "system",
    session: options.session,
  });
  const record = put.record;
  const shortRef = put.shortRef;
  const excerpt = headTailExcerpt(content, options.excerptChars ?? DEFAULT_BOOTSTRAP_EXCERPT_CHARS);
  const text =
    `${name} ${shortRef}\n` +
    `ArtifactRef: ${put.id} (type=${mime}, sha256=${put.id}, bytes=${record.size_bytes}, createdAt=${record.created_at})\n\n` +
    `Summary (head/tail excerpt):\n${excerpt}`;
  return { text, artifactId: put.id, shortRef };
}
