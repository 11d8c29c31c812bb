import type { ArtifactId } from "@artifact-refs/schema";

/**
 * Key layout, the same over every driver (docs/ARCHITECTURE.md §sidecar):
 *   blobs/sha256/ab/cd/<hex>        content, exactly the stored bytes
 *   meta/sha256/ab/cd/<hex>.json    ArtifactRecord, never the content
 *   refs/<session>/ab/<hex>.json    a session's reference (label, tool, TTL), sharded so that
 *                                   resolving a short ref reads one small shard, not the session
 *   layout.json                     { "layout": 1 }
 */
export const LAYOUT_VERSION = 1;
export const LAYOUT_KEY = "layout.json";
export const BLOB_PREFIX = "blobs/sha256/";
export const META_PREFIX = "meta/sha256/";
export const REF_PREFIX = "refs/";

const shard = (hex: string) => `${hex.slice(0, 2)}/${hex.slice(2, 4)}`;

export const blobKey = (id: ArtifactId) => `${BLOB_PREFIX}${shard(id)}/${id}`;
export const metaKey = (id: ArtifactId) => `${META_PREFIX}${shard(id)}/${id}.json`;
export const refKey = (session: string, id: ArtifactId) => `${REF_PREFIX}${session}/${id.slice(0, 2)}/${id}.json`;
export const sessionPrefix = (session: string) => `${REF_PREFIX}${session}/`;

/** Prefix under which a session's references to ids starting with `hexPrefix` (≥ 2 hex) live. */
export const refPrefixFor = (session: string, hexPrefix: string) =>
  `${REF_PREFIX}${session}/${hexPrefix.slice(0, 2)}/${hexPrefix}`;

/** Prefix under which every blob whose id starts with `hexPrefix` (≥ 4 hex) lives. */
export const blobPrefixFor = (hexPrefix: string) => `${BLOB_PREFIX}${shard(hexPrefix)}/${hexPrefix}`;

/** The id of a blob key, or undefined when the key is not a well-formed blob key. */
export function idOfBlobKey(key: string): ArtifactId | undefined {
  const m = /^blobs\/sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/.exec(key);
  if (!m || !m[3]!.startsWith(m[1]! + m[2]!)) return undefined;
  return m[3];
}

export function idOfMetaKey(key: string): ArtifactId | undefined {
  const m = /^meta\/sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.json$/.exec(key);
  if (!m || !m[3]!.startsWith(m[1]! + m[2]!)) return undefined;
  return m[3];
}

/** Session and id of a reference key. */
export function parseRefKey(key: string): { session: string; id: ArtifactId } | undefined {
  const m = /^refs\/([A-Za-z0-9._:-]+)\/([0-9a-f]{2})\/([0-9a-f]{64})\.json$/.exec(key);
  return m && m[3]!.startsWith(m[2]!) ? { session: m[1]!, id: m[3]! } : undefined;
}

/** Prefix under which every record whose id starts with `hexPrefix` (≥ 4 hex) lives. */
export const metaPrefixFor = (hexPrefix: string) => `${META_PREFIX}${shard(hexPrefix)}/${hexPrefix}`;
