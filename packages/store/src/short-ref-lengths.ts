import { MIN_PREFIX_LENGTH, type ArtifactId } from "@artifact-refs/schema";

/** Length of the shortest prefix (≥ 12 hex) of `id` that none of `others` starts with. */
export function shortestUnique(id: ArtifactId, others: ArtifactId[]): number {
  return prefixLengthPast(others.reduce((shared, other) => Math.max(shared, commonPrefix(id, other)), 0));
}

/** How many leading characters `a` and `b` share (at most 64; 0 when `b` is undefined). */
function commonPrefix(a: string, b: string | undefined): number {
  let n = 0;
  while (b !== undefined && n < 64 && a[n] === b[n]) n++;
  return n;
}

/** The short-ref length that tells apart ids sharing `shared` leading characters (12 to 64 hex). */
const prefixLengthPast = (shared: number): number => Math.min(64, Math.max(MIN_PREFIX_LENGTH, shared + 1));

/** For each id, the length of its shortest prefix (≥ 12 hex) that none of the other ids starts with. */
export function uniquePrefixLengths(ids: ArtifactId[]): Map<ArtifactId, number> {
  const sorted = [...new Set(ids)].sort();
  const lengths = new Map<ArtifactId, number>();
  sorted.forEach((id, i) => {
    lengths.set(id, prefixLengthPast(Math.max(commonPrefix(id, sorted[i - 1]), commonPrefix(id, sorted[i + 1]))));
  });
  return lengths;
}

export function uniquePrefixLength(ids: string[]): number {
  let shared = 0;
  for (let i = 1; i < ids.length; i++) shared = Math.max(shared, commonPrefix(ids[i]!, ids[i - 1]));
  return prefixLengthPast(shared);
}
