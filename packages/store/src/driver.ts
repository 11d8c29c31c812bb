import { ArefError } from "@artifact-refs/schema";
/**
 * The storage driver contract: a byte-oriented key-value store with prefix listing.
 * It knows nothing about artifacts; hashing, caps, integrity, records, references,
 * TTL and GC live once in ArtifactStore. Keys are `/`-separated ASCII paths made of
 * [A-Za-z0-9._:-] segments (the store never builds any other key).
 *
 * Every driver must pass the contract suite in `@artifact-refs/store/testing`.
 */
export interface Driver {
  /** "memory", "fs", "s3", ... */
  readonly kind: string;
  /** Human-readable location (a path or URI) for messages and `content_uri`. */
  readonly location: string;
  /**
   * Optional: true when every request is a network round trip (S3). The store then defaults
   * `verifyOnDedupe` off: a put writes the blob whether or not it exists (one request that also
   * refreshes and repairs it) instead of probing, refreshing and reading back the stored copy.
   */
  readonly remote?: boolean;

  /**
   * Creates `key` with `data` unless it exists. Atomic: readers never see a partial
   * value, and two concurrent creators never clobber each other (exactly one gets
   * `created: true`). When the key exists, the driver refreshes its modification time
   * where the backend allows it, so the GC grace rule protects a value just re-used.
   */
  putIfAbsent(key: string, data: Uint8Array, options?: PutIfAbsentOptions): Promise<{ created: boolean }>;

  /**
   * Optional: moves an existing key's modification time to now (the refresh putIfAbsent does on an
   * existing key, without sending its bytes); false when the key does not exist. One request on S3
   * (a copy onto itself) where putIfAbsent on an existing key costs two.
   */
  touch?(key: string): Promise<boolean>;

  /**
   * Optional: a batch for many new blobs at once (a chunked put's chunks), for backends where a
   * file or object per blob is the cost (fs: a few pack files instead of a file per chunk). `add`
   * acts like putIfAbsent (created false: the key exists and its time was refreshed), except that a
   * created key may only be readable once `commit` returns; `commit` publishes everything added
   * (also after a failure: what was added stays garbage for gc). Batched keys are keys like any
   * other for every other method. Drivers without it get one putIfAbsent per blob.
   */
  openBatch?(): DriverBatch;

  /** Writes `key`, replacing any value atomically (readers see the old or the new value, never a mix). */
  put(key: string, data: Uint8Array): Promise<void>;

  /**
   * Optional: a write of a small value (a session reference) that returns the version it wrote (S3:
   * its ETag), and can be made conditional on the version there: `ifMatch` replaces only that version,
   * `ifAbsent` creates only. Returns undefined when the condition did not hold (another version, or
   * no value for `ifMatch`, a value for `ifAbsent`): nothing was written then. A driver must enforce
   * the condition atomically, or return undefined for it without writing (an S3 server that ignores
   * conditional headers). The store keeps the version as a hint of what it wrote: a stale one costs a
   * failed write, never a wrong result.
   */
  putVersioned?(key: string, data: Uint8Array, condition?: VersionCondition): Promise<string | undefined>;

  /** The value, or undefined when the key does not exist. */
  get(key: string): Promise<Uint8Array | undefined>;

  /**
   * Optional: the values of `keys`, in their order (undefined where a key does not exist), in fewer
   * reads than one `get` per key where the backend keeps values side by side (fs: blobs stored next
   * to each other in one pack come in one read). Each value may come from any stored copy of its key
   * (blobs are content-addressed): a caller that finds one failing its hash reads it again with `get`.
   * Values may be views of one shared buffer: read them, never change them. Callers ask for a few MiB
   * at most per call (a chunked full read: GET_MANY_CHUNKS chunks). Drivers without it get one `get`
   * per key.
   */
  getMany?(keys: readonly string[]): Promise<(Uint8Array | undefined)[]>;

  /**
   * Optional, with `putVersioned`: the value and its version in the form `putVersioned` returns and
   * takes as `ifMatch` (S3: the GetObject ETag), in one request like `get`; undefined when the key does
   * not exist. The store keeps the version of a session reference it read as a hint: a re-put of the
   * same bytes into that session writes over that version only (a stale one costs a failed write).
   */
  getVersioned?(key: string): Promise<VersionedValue | undefined>;

  /** Size and modification time, or undefined when the key does not exist. */
  head(key: string): Promise<DriverEntry | undefined>;

  /**
   * Deletes `key`; true when it existed. With `ifUnmodifiedSince`, deletes only when the
   * value was last modified before that time (atomically where the backend allows it,
   * else as close to it as the backend can check) and returns false otherwise.
   */
  delete(key: string, options?: DeleteOptions): Promise<boolean>;

  /** Every key that starts with `prefix`, in no particular order. */
  list(prefix: string): AsyncIterable<DriverEntry>;

  /** URI of a key, for `content_uri` (file:///..., s3://bucket/..., memory:...). */
  uri(key: string): string;

  /**
   * Finds leftovers of interrupted writes (temp files) older than `olderThanMs` and
   * removes them unless `dryRun`; returns their keys or paths. Optional: only drivers
   * that can leave such leftovers implement it.
   */
  sweepTemp?(olderThanMs: number, options?: { dryRun?: boolean }): Promise<string[]>;

  /** Releases resources (clients, handles). Optional. */
  close?(): Promise<void>;
}

export interface PutIfAbsentOptions {
  /**
   * false: when the key exists, leave its modification time alone (saves the refresh request on S3).
   * The store passes it for writes whose time no gc decision depends on at that point.
   */
  refresh?: boolean;
}

/** A batch of new blobs (`Driver.openBatch`). */
export interface DriverBatch {
  add(key: string, data: Uint8Array): Promise<{ created: boolean }>;
  commit(): Promise<void>;
  /**
   * Optional: resolves once the batch holds none of the bytes given to the adds that resolved before
   * this call (written, or copied); never rejects. A batch that has it is handed views of the caller's
   * buffers instead of a copy per blob, and the caller reuses a buffer only after it resolved.
   */
  flushed?(): Promise<void>;
  /**
   * Optional: of `keys` (keys added to this batch; after `commit`), those not stored any more, as a
   * `head` of each would find them (a gc may have deleted one since it was added), in fewer looks
   * than one per key (fs: one per pack the batch wrote). A chunked put checks its chunks with it
   * after writing its reference.
   */
  missing?(keys: readonly string[]): Promise<string[]>;
}

/** What `Driver.getVersioned` reads: the value and its version. */
export interface VersionedValue {
  data: Uint8Array;
  version: string;
}

/** The condition of `Driver.putVersioned`: at most one of the two. */
export interface VersionCondition {
  /** Replace only the value of this version (a version `putVersioned` returned). */
  ifMatch?: string;
  /** Create only: no value may exist. */
  ifAbsent?: boolean;
}

export interface DeleteOptions {
  /** Delete only when the value was last modified before this time (see `Driver.delete`). */
  ifUnmodifiedSince?: Date;
  /**
   * The caller has just seen the key in a listing: a driver that would otherwise check that it exists
   * before deleting (S3: DeleteObject answers the same whether or not it did) may skip that request
   * and return true. Ignored with `ifUnmodifiedSince`.
   */
  listed?: boolean;
}

export interface DriverEntry {
  key: string;
  size: number;
  modifiedAt: Date;
  /** Set when the entry is not what the driver writes (fs: a symbolic link, a FIFO, …): what it is. `verify` reports and removes it. */
  irregular?: string;
  /** The version `getVersioned` would read for this key, where the listing gives it (S3: the ETag); absent elsewhere. */
  version?: string;
}

const KEY_RE = /^[A-Za-z0-9._:-]+(\/[A-Za-z0-9._:-]+)*$/;

/** True when `key` is a well-formed driver key (no empty, "." or ".." segments). */
export function isValidKey(key: string): boolean {
  return (
    typeof key === "string" &&
    KEY_RE.test(key) &&
    key.length <= 1024 &&
    !key.split("/").some((s) => s === "." || s === "..")
  );
}

const KEY_HINT =
  "keys are '/'-separated segments of letters, digits, '.', '_', ':' and '-' (no empty, '.' or '..' segments); ArtifactStore builds them for you";

/** Throws INVALID_INPUT unless `key` is a well-formed driver key. Every driver calls it on every key it is given. */
export function assertValidKey(key: string): void {
  if (!isValidKey(key)) {
    throw new ArefError("INVALID_INPUT", `invalid storage key ${JSON.stringify(key)}`, {
      hint: KEY_HINT,
      details: { key: String(key) },
    });
  }
}

const PREFIX_RE = /^[A-Za-z0-9._:/-]*$/;

/**
 * True when `prefix` is the start of a key: "" (everything), or characters of keys, not starting
 * with '/', without '//' and without a complete '.' or '..' segment ("a/..x" may start a key, "a/../" may not).
 */
export function isValidListPrefix(prefix: string): boolean {
  if (
    typeof prefix !== "string" ||
    prefix.length > 1024 ||
    !PREFIX_RE.test(prefix) ||
    prefix.startsWith("/") ||
    prefix.includes("//")
  )
    return false;
  return !prefix
    .split("/")
    .slice(0, -1)
    .some((s) => s === "." || s === "..");
}

/** Throws INVALID_INPUT unless `prefix` is a valid listing prefix (see `isValidListPrefix`). */
export function assertValidListPrefix(prefix: string): void {
  if (!isValidListPrefix(prefix)) {
    throw new ArefError("INVALID_INPUT", `invalid listing prefix ${JSON.stringify(prefix)}`, {
      hint: "a prefix is the start of a key: '/'-separated segments of [A-Za-z0-9._:-], no '.' or '..' segments",
      details: { prefix: String(prefix) },
    });
  }
}
