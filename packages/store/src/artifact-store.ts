import {
  ArefError,
  MIN_PREFIX_LENGTH,
  SessionReferenceSchema,
  parseRef,
  parseSessionId,
  parseWith,
  toHandle,
  toShortRef,
  type ArtifactId,
  type ArtifactRecord,
  type GcReport,
  type SessionReference,
  type StoreStats,
  type VerifyReport,
} from "@artifact-refs/schema";
import { collect, mapLimit } from "./concurrency.js";
import { decodeUtf8, sha256Hex, toBytes } from "./content.js";
import { StoreCore, encodeJson, rethrowUnlessCorrupt } from "./core.js";
import type { Driver } from "./driver.js";
import { LAYOUT_KEY, LAYOUT_VERSION, REF_PREFIX, blobKey, blobPrefixFor, idOfBlobKey, metaKey, parseRefKey, refKey, refPrefixFor, sessionPrefix } from "./layout.js";
import { runGc, runStats, runVerify } from "./maintenance.js";
import { ReferenceCache } from "./reference-cache.js";
import { GcOptionsSchema, PutOptionsSchema, VerifyOptionsSchema, type ArtifactStoreOptions, type GcOptions, type PutOptions, type ReferenceReadOptions, type SessionOption, type VerifyOptions } from "./options.js";

export interface PutResult {
  id: ArtifactId;
  handle: string;
  /** Shortest unique prefix (≥ 12 hex) within the session, as `art:<hex>`. */
  shortRef: string;
  record: ArtifactRecord;
  /** True when these bytes were not stored before. */
  created: boolean;
  /** True when a corrupt stored copy was replaced by these (good) bytes. */
  healed: boolean;
  reference?: SessionReference;
}

/**
 * Content-addressed artifact store over any Driver: same bytes, same id, stored once.
 * Every read is integrity-checked; metadata is kept apart from content; sessions hold
 * references (optionally with a TTL) and `gc` sweeps blobs no live reference holds.
 */
export class ArtifactStore {
  readonly #core: StoreCore;
  /** References read with `maxAgeMs`; forgotten on every reference change this instance makes. */
  readonly #references = new ReferenceCache();
  #layoutChecked: Promise<void> | undefined;

  constructor(options: ArtifactStoreOptions) {
    this.#core = new StoreCore(options);
  }

  get driver(): Driver {
    return this.#core.driver;
  }

  get maxBytes(): number {
    return this.#core.maxBytes;
  }

  /** Stores content (bytes or UTF-8 text) and, with `session`, adds a reference from it. */
  async put(content: Uint8Array | string, putOptions: PutOptions = {}): Promise<PutResult> {
    if (typeof content !== "string" && !(content instanceof Uint8Array)) {
      throw new ArefError("INVALID_INPUT", `put needs a string or bytes (Uint8Array), got ${content === null ? "null" : typeof content}`, {
        hint: "serialize the value first (JSON.stringify for objects)",
      });
    }
    const options = parsePutOptions(putOptions);
    const session = options.session === undefined ? undefined : parseSessionId(options.session);
    const bytes = toBytes(content);
    if (bytes.byteLength > this.#core.maxBytes) {
      throw new ArefError("TOO_LARGE", `content is ${bytes.byteLength} bytes, over the store's cap of ${this.#core.maxBytes} bytes`, {
        hint: "split it, select the part you need before storing, or raise the cap (maxBytes / --max-bytes)",
        details: { size_bytes: bytes.byteLength, max_bytes: this.#core.maxBytes },
      });
    }
    await this.#checkLayout(true);
    const id = sha256Hex(bytes);
    const { driver } = this.#core;
    const key = blobKey(id);
    // Content and record are independent writes: do them at once. A crash between them can
    // leave a record without content (verify reports it, gc removes it), never a partial blob.
    const [{ created, healed, wrote }, record] = await Promise.all([this.#storeBlob(id, bytes), this.#ensureRecord(id, bytes, options)]);
    let reference: SessionReference | undefined;
    let shortRef = toShortRef(id);
    if (session !== undefined) {
      reference = await this.#writeReference(session, id, record, options);
      // Close the race with a concurrent gc, now that the reference is written: store the
      // blob again if it was swept meanwhile, else refresh its time (putIfAbsent does both).
      // A gc whose second mark missed the reference then cannot delete the blob after this
      // point either: its conditional delete sees a blob modified after its cutoff. (A mere
      // existence check here lost blobs deleted between the check and the sweep: found by
      // the stress suite's 4-writer + gc-loop run with grace 0.) A blob this put wrote may be a
      // re-store after a sweep whose record delete was still to come: ensure the record after it.
      // Its record, if gone, comes back; if there, its time is refreshed so that gc keeps it.
      if ((await driver.putIfAbsent(key, bytes)).created || wrote) await driver.putIfAbsent(metaKey(id), encodeJson(record));
      shortRef = await this.shortRef(id, { session });
    }
    return { id, handle: toHandle(id), shortRef, record, created, healed, ...(reference ? { reference } : {}) };
  }

  /** The bytes of an artifact, integrity-checked. */
  async get(ref: string, options: SessionOption = {}): Promise<Uint8Array> {
    const id = await this.resolve(ref, options);
    if (options.session !== undefined) await this.#liveReference(options.session, id);
    const bytes = await this.#core.driver.get(blobKey(id));
    if (bytes === undefined) {
      throw new ArefError("NOT_FOUND", `artifact ${toShortRef(id)} is not in the store`, {
        hint: "it was never stored here, or it was removed or swept by gc; stash it again",
        details: { artifact_id: id },
      });
    }
    const actual = sha256Hex(bytes);
    if (actual !== id) {
      throw new ArefError("INTEGRITY", `artifact ${toShortRef(id)} failed its integrity check: the stored bytes hash to ${actual.slice(0, 12)}…`, {
        hint: "the stored copy is corrupt; run `aref verify` to list damaged blobs, and stash the original content again to heal it",
        details: { artifact_id: id, actual_sha256: actual, key: blobKey(id) },
      });
    }
    return bytes;
  }

  /** The artifact as UTF-8 text; UNSUPPORTED when it is binary. */
  async getText(ref: string, options: SessionOption = {}): Promise<string> {
    const bytes = await this.get(ref, options);
    const text = decodeUtf8(bytes);
    if (text === undefined) {
      throw new ArefError("UNSUPPORTED", `artifact ${ref} is binary (${bytes.byteLength} bytes), not UTF-8 text`, {
        hint: "use `aref cat` to get its bytes",
      });
    }
    return text;
  }

  /**
   * The session's live reference to an artifact (the access check of `get(ref, { session })`
   * without reading the content): NOT_FOUND when the session holds none, EXPIRED when it expired.
   */
  async reference(session: string, ref: string, options: ReferenceReadOptions = {}): Promise<SessionReference> {
    const maxAgeMs = options.maxAgeMs ?? 0;
    if (!(Number.isFinite(maxAgeMs) && maxAgeMs >= 0)) {
      throw new ArefError("INVALID_INPUT", `maxAgeMs must be a number ≥ 0, got ${String(options.maxAgeMs)}`);
    }
    if (maxAgeMs > 0) {
      // Only validated session ids are ever cached: a hit needs no parsing.
      const cached = this.#references.get(session, ref, maxAgeMs);
      if (cached !== undefined && !this.#core.isExpired(cached)) return cached;
    }
    const sessionId = parseSessionId(session);
    const since = this.#references.generation(sessionId);
    const reference = await this.#liveReference(sessionId, await this.resolve(ref, { session: sessionId }));
    if (maxAgeMs > 0) this.#references.set(sessionId, ref, reference, since);
    return reference;
  }

  /** The artifact's metadata record. */
  async getRecord(ref: string, options: SessionOption = {}): Promise<ArtifactRecord> {
    const id = await this.resolve(ref, options);
    if (options.session !== undefined) await this.#liveReference(options.session, id);
    const record = await this.#core.readRecord(id);
    if (record !== undefined) return record;
    if ((await this.#core.driver.head(blobKey(id))) === undefined) {
      throw new ArefError("NOT_FOUND", `artifact ${toShortRef(id)} is not in the store`, { details: { artifact_id: id } });
    }
    // Content without metadata (an interrupted put): rebuild the record from the content.
    const bytes = await this.get(id);
    const rebuilt = this.#core.buildRecord(id, bytes, {});
    await this.#core.driver.putIfAbsent(metaKey(id), encodeJson(rebuilt));
    return rebuilt;
  }

  /** True when the artifact's content is stored (no integrity check). */
  async has(ref: string): Promise<boolean> {
    const parsed = parseRef(ref);
    if (parsed.kind === "id") return (await this.#core.driver.head(blobKey(parsed.id))) !== undefined;
    try {
      await this.resolve(ref);
      return true;
    } catch (error) {
      if (error instanceof ArefError && error.code === "NOT_FOUND") return false;
      throw error;
    }
  }

  /**
   * Resolves a handle, full id, short ref or bare prefix to a full id. Prefixes are
   * resolved within `session` when given, else over the whole store. An ambiguous
   * prefix is an AMBIGUOUS_REF error listing the candidates, never a guess.
   */
  async resolve(ref: string, options: SessionOption = {}): Promise<ArtifactId> {
    const parsed = parseRef(ref);
    if (parsed.kind === "id") return parsed.id;
    const session = options.session === undefined ? undefined : parseSessionId(options.session);
    const prefix = session === undefined ? blobPrefixFor(parsed.prefix) : refPrefixFor(session, parsed.prefix);
    const ids = new Set<ArtifactId>();
    for await (const entry of this.#core.driver.list(prefix)) {
      const id = session === undefined ? idOfBlobKey(entry.key) : parseRefKey(entry.key)?.id;
      if (id !== undefined && id.startsWith(parsed.prefix)) ids.add(id);
    }
    if (ids.size === 0) {
      throw new ArefError("NOT_FOUND", `no artifact matches ${ref}${session === undefined ? "" : ` in session ${session}`}`, {
        hint: session === undefined ? "check the ref with `aref list`" : `check the ref with \`aref list --session ${session}\``,
      });
    }
    if (ids.size > 1) {
      const candidates = [...ids].sort();
      const length = uniquePrefixLength(candidates);
      throw new ArefError("AMBIGUOUS_REF", `${ref} matches ${candidates.length} artifacts: ${candidates.map((c) => toShortRef(c, length)).join(", ")}`, {
        hint: "use more hex characters, the full id, or the handle",
        details: { candidates: candidates.map((c) => toShortRef(c, length)) },
      });
    }
    return [...ids][0]!;
  }

  /** Shortest prefix (≥ 12 hex) of `id` that is unique within the session (or the store). */
  async shortRef(id: ArtifactId, options: SessionOption = {}): Promise<string> {
    const session = options.session === undefined ? undefined : parseSessionId(options.session);
    const head = id.slice(0, MIN_PREFIX_LENGTH);
    const prefix = session === undefined ? blobPrefixFor(head) : refPrefixFor(session, head);
    const others: ArtifactId[] = [];
    for await (const entry of this.#core.driver.list(prefix)) {
      const other = session === undefined ? idOfBlobKey(entry.key) : parseRefKey(entry.key)?.id;
      if (other !== undefined && other !== id) others.push(other);
    }
    let length = MIN_PREFIX_LENGTH;
    for (const other of others) {
      let common = 0;
      while (common < 64 && other[common] === id[common]) common++;
      length = Math.max(length, common + 1);
    }
    return toShortRef(id, length);
  }

  /** Adds (or refreshes) a session's reference to a stored artifact. */
  async addReference(session: string, ref: string, referenceOptions: Omit<PutOptions, "session" | "summary" | "redactions" | "producer" | "mime"> = {}): Promise<SessionReference> {
    const sessionId = parseSessionId(session);
    const options = parsePutOptions(referenceOptions);
    const record = await this.getRecord(ref);
    return this.#writeReference(sessionId, record.artifact_id, record, options);
  }

  /** A session's references, oldest first. UNKNOWN_SESSION when the session holds none (live or expired). */
  async listReferences(session: string, options: { includeExpired?: boolean } = {}): Promise<SessionReference[]> {
    const sessionId = parseSessionId(session);
    const entries = await collect(this.#core.driver.list(sessionPrefix(sessionId)));
    const keys = entries.map((e) => parseRefKey(e.key)).filter((k) => k !== undefined && k.session === sessionId);
    if (keys.length === 0) {
      throw new ArefError("UNKNOWN_SESSION", `session ${sessionId} has no artifacts in this store`, {
        hint: "list the sessions with `aref list`",
      });
    }
    const now = this.#core.now();
    const refs = await mapLimit(keys, 16, async (k) => {
      try {
        return await this.#core.readReference(k!.session, k!.id);
      } catch (error) {
        rethrowUnlessCorrupt(error);
        return undefined; // reported and repaired by verify
      }
    });
    return refs
      .filter((r): r is SessionReference => r !== undefined && (options.includeExpired === true || !this.#core.isExpired(r, now)))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.artifact_id.localeCompare(b.artifact_id));
  }

  /** Every session that holds at least one reference. */
  async listSessions(): Promise<string[]> {
    const sessions = new Set<string>();
    for await (const entry of this.#core.driver.list(REF_PREFIX)) {
      const parsed = parseRefKey(entry.key);
      if (parsed) sessions.add(parsed.session);
    }
    return [...sessions].sort();
  }

  /** Drops one reference of a session; the blob stays until gc finds it unreferenced. */
  async removeReference(session: string, ref: string): Promise<boolean> {
    const sessionId = parseSessionId(session);
    const id = await this.resolve(ref, { session: sessionId });
    try {
      return await this.#core.driver.delete(refKey(sessionId, id));
    } finally {
      this.#references.forget(sessionId);
    }
  }

  /** Deletes an artifact outright: its content, its record and every session's reference to it. */
  async purge(ref: string): Promise<{ id: ArtifactId; referencesRemoved: number; blobRemoved: boolean }> {
    const id = await this.resolve(ref);
    const { driver } = this.#core;
    let referencesRemoved = 0;
    try {
      for (const entry of await collect(driver.list(REF_PREFIX))) {
        if (parseRefKey(entry.key)?.id === id && (await driver.delete(entry.key))) referencesRemoved++;
      }
    } finally {
      this.#references.clear();
    }
    const blobRemoved = await driver.delete(blobKey(id));
    await driver.delete(metaKey(id));
    return { id, referencesRemoved, blobRemoved };
  }

  /** Removes every reference of a session; returns how many. Its blobs become garbage unless shared. */
  async cleanupSession(session: string): Promise<number> {
    const sessionId = parseSessionId(session);
    let removed = 0;
    try {
      for (const entry of await collect(this.#core.driver.list(sessionPrefix(sessionId)))) {
        if (await this.#core.driver.delete(entry.key)) removed++;
      }
    } finally {
      this.#references.forget(sessionId);
    }
    return removed;
  }

  /** Removes every expired reference in the store; returns how many. */
  async cleanupExpired(): Promise<number> {
    return this.#deleteExpired();
  }

  /** Mark and sweep: removes blobs no live reference holds (see GcOptions and the README's grace rule). */
  async gc(gcOptions: GcOptions = {}): Promise<GcReport> {
    const options = parseWith(GcOptionsSchema, gcOptions ?? {}, "gc options") as GcOptions;
    await this.#checkLayout(false);
    const expired = options.dryRun ? (await this.#expiredReferenceKeys()).length : await this.#deleteExpired();
    return runGc(this.#core, options, expired);
  }

  /** Checks every blob's hash, every record and reference; with `repair`, fixes what can be fixed. */
  async verify(verifyOptions: VerifyOptions = {}): Promise<VerifyReport> {
    const options = parseWith(VerifyOptionsSchema, verifyOptions ?? {}, "verify options") as VerifyOptions;
    await this.#checkLayout(false);
    try {
      return await runVerify(this.#core, options);
    } finally {
      if (options.repair) this.#references.clear(); // repair may drop corrupt references
    }
  }

  async stats(): Promise<StoreStats> {
    return runStats(this.#core);
  }

  async close(): Promise<void> {
    await this.#core.driver.close?.();
  }

  /** Creates the blob, or checks the stored copy (re-putting heals a corrupt one). */
  /** `wrote`: this call wrote the bytes (new, re-stored after a sweep, or healed). */
  async #storeBlob(id: ArtifactId, bytes: Uint8Array): Promise<{ created: boolean; healed: boolean; wrote: boolean }> {
    const { driver } = this.#core;
    const key = blobKey(id);
    const { created } = await driver.putIfAbsent(key, bytes);
    if (created || !this.#core.verifyOnDedupe) return { created, healed: false, wrote: created };
    const stored = await driver.get(key);
    if (stored === undefined) {
      // Swept between the two calls: store it again.
      const again = await driver.putIfAbsent(key, bytes);
      return { created: false, healed: false, wrote: again.created };
    }
    if (sha256Hex(stored) === id) return { created: false, healed: false, wrote: false };
    await driver.put(key, bytes);
    return { created: false, healed: true, wrote: true };
  }

  async #ensureRecord(id: ArtifactId, bytes: Uint8Array, options: PutOptions): Promise<ArtifactRecord> {
    const record = this.#core.buildRecord(id, bytes, options);
    const key = metaKey(id);
    const { created } = await this.#core.driver.putIfAbsent(key, encodeJson(record));
    if (created) return record;
    try {
      const existing = await this.#core.readRecord(id);
      if (existing) return existing;
    } catch (error) {
      rethrowUnlessCorrupt(error);
    }
    await this.#core.driver.put(key, encodeJson(record)); // heal missing or corrupt metadata
    return record;
  }

  async #writeReference(session: string, id: ArtifactId, record: ArtifactRecord, options: Omit<PutOptions, "session">): Promise<SessionReference> {
    const now = this.#core.now();
    const reference = parseWith(SessionReferenceSchema, {
      session_id: session,
      artifact_id: id,
      type: options.type ?? record.type,
      ...(options.label ?? record.label ? { label: options.label ?? record.label } : {}),
      ...(options.tool ?? record.tool ? { tool: options.tool ?? record.tool } : {}),
      created_at: now.toISOString(),
      ...(options.ttlMs === undefined ? {} : { expires_at: new Date(now.getTime() + options.ttlMs).toISOString() }),
    }, "session reference");
    try {
      await this.#core.driver.put(refKey(session, id), encodeJson(reference));
    } finally {
      this.#references.forget(session);
    }
    return reference;
  }

  async #liveReference(session: string, id: ArtifactId): Promise<SessionReference> {
    const sessionId = parseSessionId(session);
    let reference: SessionReference | undefined;
    try {
      reference = await this.#core.readReference(sessionId, id);
    } catch (error) {
      rethrowUnlessCorrupt(error);
    }
    if (reference === undefined) {
      throw new ArefError("NOT_FOUND", `session ${sessionId} holds no reference to ${toShortRef(id)}`, {
        hint: `list what it holds with \`aref list --session ${sessionId}\``,
      });
    }
    if (this.#core.isExpired(reference)) {
      throw new ArefError("EXPIRED", `the reference of session ${sessionId} to ${toShortRef(id)} expired at ${reference.expires_at}`, {
        hint: "stash the content again to renew it",
        details: { expires_at: reference.expires_at },
      });
    }
    return reference;
  }

  async #expiredReferenceKeys(): Promise<string[]> {
    const now = this.#core.now();
    const keys = (await collect(this.#core.driver.list(REF_PREFIX))).map((e) => e.key);
    const expired = await mapLimit(keys, 16, async (key) => {
      const parsed = parseRefKey(key);
      if (!parsed) return undefined;
      try {
        const reference = await this.#core.readReference(parsed.session, parsed.id);
        return reference && this.#core.isExpired(reference, now) ? key : undefined;
      } catch (error) {
        rethrowUnlessCorrupt(error);
        return undefined;
      }
    });
    return expired.filter((k): k is string => k !== undefined);
  }

  async #deleteExpired(): Promise<number> {
    let removed = 0;
    try {
      for (const key of await this.#expiredReferenceKeys()) if (await this.#core.driver.delete(key)) removed++;
    } finally {
      this.#references.clear();
    }
    return removed;
  }

  /** Writes the layout marker on first write; refuses a store written by an unknown layout version. */
  #checkLayout(forWrite: boolean): Promise<void> {
    this.#layoutChecked ??= (async () => {
      const { driver } = this.#core;
      let raw = await driver.get(LAYOUT_KEY);
      if (raw === undefined && forWrite) {
        await driver.putIfAbsent(LAYOUT_KEY, encodeJson({ layout: LAYOUT_VERSION }));
        raw = await driver.get(LAYOUT_KEY);
      }
      if (raw === undefined) {
        this.#layoutChecked = undefined; // nothing confirmed yet: the first write must still write the marker
        return;
      }
      let layout: unknown;
      try {
        layout = (JSON.parse(new TextDecoder().decode(raw)) as { layout?: unknown } | null)?.layout;
      } catch {
        layout = undefined;
      }
      if (typeof layout !== "number") {
        throw new ArefError("CORRUPT_METADATA", `the store's ${LAYOUT_KEY} at ${driver.location} is damaged: expected {"layout": ${LAYOUT_VERSION}}`, {
          hint: `if this is an artifact-refs store, rewrite it: echo '{"layout":${LAYOUT_VERSION}}' > ${LAYOUT_KEY} in the store's root; else point --store at another location`,
        });
      }
      if (layout !== LAYOUT_VERSION) {
        throw new ArefError("UNSUPPORTED", `the store at ${driver.location} has layout ${JSON.stringify(layout)}, this version reads layout ${LAYOUT_VERSION}`, {
          hint: "use the artifact-refs version that wrote it, or point --store at another location",
        });
      }
    })().catch((error: unknown) => {
      this.#layoutChecked = undefined;
      throw error;
    });
    return this.#layoutChecked;
  }
}

function uniquePrefixLength(ids: string[]): number {
  let length = MIN_PREFIX_LENGTH;
  for (let i = 1; i < ids.length; i++) {
    let common = 0;
    while (common < 64 && ids[i]![common] === ids[i - 1]![common]) common++;
    length = Math.max(length, common + 1);
  }
  return Math.min(64, length);
}

function parsePutOptions(options: PutOptions | undefined): PutOptions {
  return parseWith(PutOptionsSchema, options ?? {}, "put options") as PutOptions;
}
