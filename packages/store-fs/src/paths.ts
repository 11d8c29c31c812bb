import { join, sep } from "node:path";
import { ArefError } from "@artifact-refs/schema";
import { assertValidListPrefix, isValidKey } from "@artifact-refs/store";

/** Temp files of writes in progress: `.tmp-<pid>-<instance>-<n>`, in the directory of their final file. */
export const TEMP_PREFIX = ".tmp-";
/** Files a conditional delete has set aside: `.trash-<pid>-<instance>-<n>`. */
export const TRASH_PREFIX = ".trash-";
/** Compressed blobs are stored as `<key>.gz`. */
export const GZ_SUFFIX = ".gz";
/** Keys under this prefix are blobs: the only keys the gzip option compresses. */
export const GZIP_KEY_PREFIX = "blobs/";

/** `dir` + separator, without doubling the separator of a file-system root ("/"). */
export const withSep = (dir: string) => (dir.endsWith(sep) ? dir : dir + sep);

export const isScratchName = (name: string) => name.startsWith(TEMP_PREFIX) || name.startsWith(TRASH_PREFIX);

/** Where one key lives on disk. */
export interface Location {
  key: string;
  /** Directory holding the file (created lazily). */
  dir: string;
  /** The file this driver writes: `<key>.gz` for blobs when gzip is on, else `<key>`. */
  path: string;
  /** The other form a blob may have been written in (by a driver with the other gzip setting). */
  alt?: string;
  /** Whether `path` is the compressed form. */
  compressed: boolean;
}

function invalid(key: string, why: string): ArefError {
  return new ArefError("INVALID_INPUT", `invalid storage key ${JSON.stringify(key)}: ${why}`, {
    hint: "keys are '/'-separated segments of [A-Za-z0-9._:-], never empty, '.' or '..'; ArtifactStore builds them for you",
    details: { key },
  });
}

/** Resolves a key to its file, refusing anything that is not a well-formed key or would leave `root`. */
export function locate(root: string, key: string, gzip: boolean): Location {
  if (typeof key !== "string" || !isValidKey(key)) throw invalid(String(key), "not a well-formed key");
  const segments = key.split("/");
  const name = segments[segments.length - 1]!;
  if (isScratchName(name))
    throw invalid(
      key,
      `names starting with ${TEMP_PREFIX} or ${TRASH_PREFIX} are reserved for the driver's temp files`,
    );
  const isBlob = key.startsWith(GZIP_KEY_PREFIX);
  if (isBlob && name.endsWith(GZ_SUFFIX))
    throw invalid(key, `blob names ending in ${GZ_SUFFIX} are reserved for compressed blobs`);
  const plain = join(root, ...segments);
  // Defence in depth: validated segments cannot climb, but never trust one check alone.
  if (!plain.startsWith(withSep(root))) throw invalid(key, `it resolves outside the store root ${root}`);
  const dir = join(root, ...segments.slice(0, -1));
  if (!isBlob) return { key, dir, path: plain, compressed: false };
  const gz = plain + GZ_SUFFIX;
  return gzip
    ? { key, dir, path: gz, alt: plain, compressed: true }
    : { key, dir, path: plain, alt: gz, compressed: false };
}

/**
 * The directory a listing of `prefix` has to walk, and the part of the prefix that is
 * left to match against names inside it: `blobs/sha256/ab/cd/abcd12` walks only
 * `blobs/sha256/ab/cd` and keeps names starting with `abcd12`.
 */
export function listingStart(root: string, prefix: string): { dir: string; base: string } {
  assertValidListPrefix(prefix);
  const cut = prefix.lastIndexOf("/");
  const base = prefix.slice(0, cut + 1); // "" or "a/b/"
  const segments = base === "" ? [] : base.slice(0, -1).split("/");
  return { dir: join(root, ...segments), base };
}

/** The logical key of a file found in directory `base` (a key prefix ending in "/" or ""). */
export function keyOfFile(base: string, name: string): string | undefined {
  if (isScratchName(name)) return undefined;
  if (base.startsWith(GZIP_KEY_PREFIX) && name.endsWith(GZ_SUFFIX)) return base + name.slice(0, -GZ_SUFFIX.length);
  return base + name;
}
