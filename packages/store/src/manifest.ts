import { ArefError, ArtifactIdSchema, formatIssues, toShortRef, type ArtifactId } from "@artifact-refs/schema";
import { z } from "zod";
import { sha256Hex } from "./content.js";

/**
 * The manifest of a chunked artifact, stored as an ordinary blob (its id is the SHA-256 of its
 * bytes, named by the artifact's record). Chunks are listed in order as compact tuples:
 * [chunk id, bytes, newline count, UTF-16 chars (0 for binary content)]. The newline and char
 * counts let line and char selectors find the chunks they need without reading the others.
 */
export const MANIFEST_VERSION = 1;

export const ChunkEntrySchema = z.tuple([
  ArtifactIdSchema,
  z.number().int().positive(),
  z.number().int().nonnegative(),
  z.number().int().nonnegative(),
]);

export const ManifestSchema = z.object({
  manifest: z.literal(MANIFEST_VERSION),
  artifact_id: ArtifactIdSchema,
  size_bytes: z.number().int().positive(),
  encoding: z.enum(["utf-8", "binary"]),
  /** Lines of the whole content (a trailing newline does not start another line). */
  lines: z.number().int().nonnegative(),
  chunking: z.string().min(1).max(100),
  chunks: z.array(ChunkEntrySchema).min(1),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** One chunk of a chunked artifact, with where it sits in the whole. */
export interface ChunkInfo {
  id: ArtifactId;
  size: number;
  /** Newline bytes in the chunk. */
  newlines: number;
  /** UTF-16 chars of the chunk decoded (0 for binary content). */
  chars: number;
  /** Byte offset of the chunk in the artifact. */
  offset: number;
  /** Newlines before the chunk (so its first byte is on line `newlinesBefore + 1`). */
  newlinesBefore: number;
  /** UTF-16 chars before the chunk. */
  charsBefore: number;
}

export function encodeManifest(manifest: Manifest): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(manifest)}\n`);
}

/**
 * Parses a manifest read back from the store. Nothing read back is trusted: the bytes must hash
 * to the id the record names, parse, validate, name the artifact and add up to its size.
 * Anything else is INTEGRITY (a truncated, hand-edited or foreign manifest never yields bytes).
 */
export function parseManifest(
  raw: Uint8Array,
  manifestId: ArtifactId,
  artifactId: ArtifactId,
  sizeBytes: number,
): Manifest {
  const fail = (why: string) =>
    new ArefError("INTEGRITY", `the manifest of artifact ${toShortRef(artifactId)} is damaged: ${why}`, {
      hint: "stash the original content again to rewrite it; `aref verify` lists what is damaged",
      details: { artifact_id: artifactId, manifest_id: manifestId },
    });
  const actual = sha256Hex(raw);
  if (actual !== manifestId)
    throw fail(`its bytes hash to ${actual.slice(0, 12)}…, not to ${manifestId.slice(0, 12)}…`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw fail("not valid JSON");
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) throw fail(formatIssues(parsed.error));
  const manifest = parsed.data;
  if (manifest.artifact_id !== artifactId) throw fail(`it describes ${toShortRef(manifest.artifact_id)}`);
  const total = manifest.chunks.reduce((n, c) => n + c[1], 0);
  if (total !== manifest.size_bytes || total !== sizeBytes)
    throw fail(`its chunks add up to ${total} bytes, the artifact has ${sizeBytes}`);
  return manifest;
}

/** The chunks of a manifest with their offsets and running line/char counts. */
export function chunkInfos(manifest: Manifest): ChunkInfo[] {
  let offset = 0;
  let newlinesBefore = 0;
  let charsBefore = 0;
  return manifest.chunks.map(([id, size, newlines, chars]) => {
    const info = { id, size, newlines, chars, offset, newlinesBefore, charsBefore };
    offset += size;
    newlinesBefore += newlines;
    charsBefore += chars;
    return info;
  });
}

/** Newline bytes in `bytes`. */
export function countNewlines(bytes: Uint8Array): number {
  // Four bytes at a time (SWAR). For t = word ^ 0x0a0a0a0a, a byte of t is zero exactly where the
  // byte was "\n"; the expression below sets the top bit of exactly those bytes (no carry crosses
  // bytes), and `>>> 7` makes that a 1 at the bottom of the byte. Up to 255 words add up in the four
  // byte lanes of an accumulator without a carry between them, then the lanes are summed: no branch
  // and no multiply per word (about 2x faster than testing each word for a newline). Two accumulators,
  // each taking every other word (510 words a block), let the CPU run the two chains side by side
  // (~20 % less CPU than one). Self-contained: the chunk worker evaluates its source text.
  let n = 0;
  let i = 0;
  const length = bytes.byteLength;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < head; i++) if (bytes[i] === 10) n++;
  const words = (length - i) >>> 2;
  if (words > 0) {
    const view = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    const pairs = words & ~1;
    for (let k = 0; k < pairs; ) {
      const stop = Math.min(pairs, k + 510);
      let a = 0;
      let b = 0;
      for (; k < stop; k += 2) {
        const t = view[k]! ^ 0x0a0a0a0a;
        const u = view[k + 1]! ^ 0x0a0a0a0a;
        a = (a + (~(((t & 0x7f7f7f7f) + 0x7f7f7f7f) | t | 0x7f7f7f7f) >>> 7)) | 0;
        b = (b + (~(((u & 0x7f7f7f7f) + 0x7f7f7f7f) | u | 0x7f7f7f7f) >>> 7)) | 0;
      }
      n += (a & 0xff) + ((a >>> 8) & 0xff) + ((a >>> 16) & 0xff) + (a >>> 24);
      n += (b & 0xff) + ((b >>> 8) & 0xff) + ((b >>> 16) & 0xff) + (b >>> 24);
    }
    i += pairs * 4;
  }
  for (; i < length; i++) if (bytes[i] === 10) n++;
  return n;
}
