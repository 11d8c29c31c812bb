import {
  ArefError,
  MIN_PREFIX_LENGTH,
  isArefError,
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
import { Readable } from "node:stream";
import { incompleteUtf8Tail } from "./chunking.js";
import {
  type ChunkedArtifact,
  ChunkedWriter,
  CHUNK_PARALLELISM,
  SINGLE_BLOB_MAX,
  openChunked,
  tooLarge,
  wholeHashMismatch,
} from "./chunked.js";
import { allSettled, collect, mapLimit } from "./concurrency.js";
import { decodeUtf8, sha256Hex, toBytes } from "./content.js";
import { StoreCore, encodeJson, listedVersion, rethrowUnlessCorrupt } from "./core.js";
import type { Driver } from "./driver.js";
import {
  REF_PREFIX,
  blobKey,
  blobPrefixFor,
  idOfBlobKey,
  idOfMetaKey,
  metaKey,
  metaPrefixFor,
  parseRefKey,
  refKey,
  refPrefixFor,
  sessionPrefix,
} from "./layout.js";
import { FLOOR_MARGIN_MS, type StoreLayout, assertGraceAboveFloor, readLayoutMarker } from "./layout-marker.js";
import { deleteExpired, expiredReferences } from "./expired-references.js";
import { liveReference } from "./listed-references.js";
import { runGc, runStats, runVerify } from "./maintenance.js";
import {
  checkStoredBlob,
  createBlob,
  createRecord,
  ensureRecord,
  recordToStore,
  restoreAfterReference,
  storeBlob,
  storedRecord,
} from "./put-steps.js";
import { RecordCache } from "./record-cache.js";
import { ReferenceCache } from "./reference-cache.js";
import { ReferenceWrites, type ReferenceWritten } from "./reference-writes.js";
import { listSessionReferences, listSessions } from "./session-listing.js";
import { SessionRecords } from "./session-records.js";
import { shortestUnique, uniquePrefixLength } from "./short-ref-lengths.js";
import { sessionView } from "./session-view.js";
import {
  GcOptionsSchema,
  PutOptionsSchema,
  VerifyOptionsSchema,
  type ArtifactStoreOptions,
  type GcOptions,
  type PutOptions,
  type ReferenceReadOptions,
  type SessionOption,
  type VerifyOptions,
} from "./options.js";

export interface PutResult {
  id: ArtifactId;
  handle: string;
  /**
   * `art:` and the id's first 12 hex chars (a chunked put: the shortest prefix unique in the session).
   * Unique in the session unless another of its ids shares those 48 bits (about N²/2⁴⁹ for N
   * references): then reads by it fail AMBIGUOUS_REF listing the longer candidates.
   */
  shortRef: string;
  record: ArtifactRecord;
  /** True when these bytes were not stored before. */
  created: boolean;
  /** True when a corrupt stored copy was replaced by these (good) bytes. */
  healed: boolean;
  /**
   * With a session: true when that session already held these bytes (another session's copy is
   * never revealed); without one: `!created`.
   */
  deduped: boolean;
  reference?: SessionReference;
}

/** What `open` gives: the id, the session's live reference (with a session), and the content. */
export interface OpenedArtifact {
  id: ArtifactId;
  /** With a session: its live reference (the access check passed). */
  reference?: SessionReference;
  /** The content of an artifact stored as one blob, integrity-checked. */
  bytes?: Uint8Array;
  /** A chunked artifact (over 512 KiB): its chunks, each read (and checked) on demand. */
  chunks?: ChunkedArtifact;
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
  /** Session reference writes, with the hints this instance keeps of its own writes. */
  readonly #writes: ReferenceWrites;
  /** Records read while a live reference held them: served to listings of that same reference (listArtifacts). */
  readonly #records = new RecordCache();
  #layoutChecked: Promise<StoreLayout | undefined> | undefined;
  /** Append-only session records (executions, chat turns, metrics) over the same driver. */
  readonly records: SessionRecords;

  constructor(options: ArtifactStoreOptions) {
    this.#core = new StoreCore(options);
    this.#writes = new ReferenceWrites(this.#core, this.#references);
    this.records = new SessionRecords(this.#core.driver, this.#core.now, options.records);
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
      throw new ArefError(
        "INVALID_INPUT",
        `put needs a string or bytes (Uint8Array), got ${content === null ? "null" : typeof content}`,
        {
          hint: "serialize the value first (JSON.stringify for objects)",
        },
      );
    }
    const options = parsePutOptions(putOptions);
    const session = options.session === undefined ? undefined : parseSessionId(options.session);
    const bytes = toBytes(content);
    if (bytes.byteLength > this.#core.maxBytes) throw tooLarge(bytes.byteLength, this.#core.maxBytes);
    if (bytes.byteLength > SINGLE_BLOB_MAX) return this.#putChunked([bytes], undefined, options, session);
    const floorMs = (await this.#checkLayout(true))?.gcGraceFloorMs ?? 0;
    const id = sha256Hex(bytes);
    const key = blobKey(id);
    // With a session in a store without a grace floor, an existing blob's time is refreshed after the
    // reference write (restore below); with a floor, before it (the refresh after may then be skipped).
    const refresh = session === undefined || floorMs > 0;
    const toStore = recordToStore((o) => this.#core.buildRecord(id, bytes, o), options, session !== undefined);
    const started = performance.now();
    // Without a read-back (`verifyOnDedupe` off), the blob is written whether or not it exists: the
    // write refreshes its time and replaces a corrupt copy (silently), and the record's conditional
    // write tells whether these bytes were stored before. The put reports its own record, not the stored one.
    const rewrite = !this.#core.verifyOnDedupe;
    if (rewrite && session !== undefined) {
      const fast =
        (await this.#writes.rePutHeld(session, id, bytes, options, toStore, started)) ??
        (await this.#writes.putRecentBlob(session, id, bytes, options, toStore, floorMs, started));
      if (fast !== undefined)
        return this.#referenceAndResult(
          id,
          session,
          options,
          { stored: toStore.record, own: toStore.own },
          { before: fast.before, shortRef: toShortRef(id) },
          fast.restore,
          { created: false, healed: false },
          fast.written,
        );
    }
    // Content and record are independent writes: do them at once. A crash between them can leave a
    // record without content (verify reports it, gc removes it), never a partial blob.
    const [blobCreated, recordCreated] = await allSettled([
      rewrite ? this.#core.driver.put(key, bytes).then(() => false) : createBlob(this.#core, id, bytes, refresh),
      createRecord(this.#core, id, toStore.record),
    ]);
    const created = rewrite ? recordCreated : blobCreated;
    if (rewrite) this.#writes.blobWritten(id, started); // written (and so refreshed) after `started`
    // Content and record exist now, so the reference may be written: a crash from here on leaves it
    // pointing at stored content. What a write found already there (the stored copy's hash, the stored
    // record) is checked at the same time, not before.
    const [blob, ensured, written] = await allSettled([
      // A rewritten blob next to an older record may be a re-store after a gc's blob delete whose record
      // delete is still to come: that gc finds the blob back after its record delete and writes the record again.
      rewrite || blobCreated
        ? { created, healed: false, wrote: !rewrite }
        : checkStoredBlob(this.#core, id, bytes, refresh),
      rewrite || recordCreated
        ? { stored: toStore.record, own: toStore.own, created: recordCreated }
        : storedRecord(this.#core, id, toStore),
      session === undefined ? undefined : this.#writes.claim(session, id, options, toStore.own),
    ]);
    // Close the race with a concurrent gc, once the reference is written: refresh the blob's
    // time, or store it again if it was swept meanwhile. A gc whose second mark missed the
    // reference then cannot delete the blob after this point either: its conditional delete
    // sees a blob modified after its cutoff. (A mere existence check here lost blobs deleted
    // between the check and the sweep: found by the stress suite's 4-writer + gc-loop run with
    // grace 0.) A blob this put wrote next to an older record may be a re-store after a sweep whose
    // record delete was still to come: that record is refreshed too (at the same time), and stored
    // again if gone. A record this put created is newer than the cutoff of any gc whose blob delete
    // came before it; a gc that started later and missed the reference took the blob too, which the
    // refresh finds gone: both are then stored again.
    // In a store with a grace floor (layout.json), a put whose reference was written within the floor
    // (less a margin) skips the refresh: every gc there runs with a grace of at least the floor, so a
    // gc that could take this blob (written or refreshed by this put, after `started`) began its mark
    // after the reference was written, and its second mark sees it. A record at risk (above) is still refreshed.
    const restore = async () => {
      const withinFloor = floorMs > 0 && performance.now() - started + FLOOR_MARGIN_MS <= floorMs;
      const recordAtRisk = blob.wrote && !ensured.created;
      if (withinFloor && !recordAtRisk) return;
      await restoreAfterReference(
        this.#core,
        { key, bytes },
        { key: metaKey(id), bytes: encodeJson(ensured.stored) },
        recordAtRisk,
      );
    };
    return this.#referenceAndResult(
      id,
      session,
      options,
      ensured,
      { before: written?.before, shortRef: toShortRef(id) },
      restore,
      { created, healed: blob.healed },
      written,
    );
  }

  /**
   * With a session, what a put needs to know of it, in one listing of the session's references
   * sharing the id's first 12 hex: its own earlier reference (read only when listed) and the
   * shortest prefix unique within the session.
   */
  async #sessionSide(
    session: string | undefined,
    id: ArtifactId,
  ): Promise<{ before: SessionReference | undefined; shortRef: string }> {
    if (session === undefined) return { before: undefined, shortRef: toShortRef(id) };
    const others: ArtifactId[] = [];
    let own = false;
    for await (const entry of this.#core.driver.list(refPrefixFor(session, id.slice(0, MIN_PREFIX_LENGTH)))) {
      const other = parseRefKey(entry.key)?.id;
      if (other === id) own = true;
      else if (other !== undefined) others.push(other);
    }
    const before = own ? await this.#core.readReference(session, id).catch(() => undefined) : undefined;
    return { before, shortRef: toShortRef(id, shortestUnique(id, others)) };
  }

  /**
   * The last steps of a put, once the content and its record are stored: the session's reference
   * (unless `written` already), then `restore` (re-store what a concurrent gc may have swept), then the result.
   */
  async #referenceAndResult(
    id: ArtifactId,
    session: string | undefined,
    options: PutOptions,
    { stored: record, own }: { stored: ArtifactRecord; own: ArtifactRecord },
    { before, shortRef }: { before: SessionReference | undefined; shortRef: string },
    restore: () => Promise<void>,
    { created, healed }: { created: boolean; healed: boolean },
    written?: ReferenceWritten,
  ): Promise<PutResult> {
    let reference: SessionReference | undefined;
    if (session !== undefined) {
      const done = written ?? (await this.#writes.own(session, id, options, own, before));
      reference = done.reference;
      const { since } = done;
      await restore();
      // The writer has its reference: a read of it by the short ref within maxAgeMs needs no request.
      this.#references.set(session, shortRef, reference, since);
      // Its content is stored and safe from gc from here on: a re-put may write over this version.
      this.#writes.settled(session, id, reference, done.version);
    }
    // With a session: whether that session already held these bytes (another session's copy is never revealed).
    const deduped = session === undefined ? !created : before !== undefined && !this.#core.isExpired(before);
    return {
      id,
      handle: toHandle(id),
      shortRef,
      record: reference ? sessionView(record, reference) : record,
      created,
      healed,
      deduped,
      ...(reference ? { reference } : {}),
    };
  }

  /**
   * Stores a stream of bytes (a Node Readable or any async iterable of bytes or strings) with
   * bounded memory: content up to 512 KiB is stored as one blob, exactly as `put` does; larger
   * content is cut into chunks as it arrives, each written as soon as it is cut. The manifest and
   * the record are written after every chunk, and the reference last: a stream that fails, is cut
   * or goes over the cap (TOO_LARGE) leaves nothing live (its chunks are garbage for gc).
   */
  async putStream(source: AsyncIterable<Uint8Array | string>, putOptions: PutOptions = {}): Promise<PutResult> {
    if (
      source === null ||
      typeof source !== "object" ||
      typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] !== "function"
    ) {
      throw new ArefError("INVALID_INPUT", "putStream needs a readable stream or an async iterable of bytes", {
        hint: "use put() for a string or a Uint8Array",
      });
    }
    const options = parsePutOptions(putOptions);
    const session = options.session === undefined ? undefined : parseSessionId(options.session);
    const iterator = source[Symbol.asyncIterator]();
    const head: Uint8Array[] = [];
    let size = 0;
    try {
      while (size <= SINGLE_BLOB_MAX) {
        const next = await iterator.next();
        if (next.done) return await this.put(concatBytes(head, size), options);
        const piece = toPieceBytes(next.value);
        size += piece.byteLength;
        if (size > this.#core.maxBytes) throw tooLarge(`more than ${this.#core.maxBytes}`, this.#core.maxBytes);
        head.push(piece);
      }
    } catch (error) {
      await iterator.return?.();
      throw error;
    }
    return this.#putChunked(head, iterator, options, session);
  }

  /** The bytes of an artifact, integrity-checked. */
  async get(ref: string, options: SessionOption = {}): Promise<Uint8Array> {
    const { id, listed } = await this.#resolveListed(ref, options);
    // The session's access check and the content read go out at once; the check decides.
    const { content } = await this.#withAccess(options.session, id, this.#content(id), listed);
    if ("bytes" in content) return content.bytes;
    const { chunks } = content;
    const parts = await mapLimit(chunks.chunks, CHUNK_PARALLELISM, (_, i) => chunks.read(i));
    const all = concatBytes(parts, chunks.size);
    const actual = sha256Hex(all);
    if (actual !== id) throw wholeHashMismatch(id, actual);
    return all;
  }

  /**
   * What a bounded fetch needs, in the fewest round trips: the session's access check and the
   * content, read at once. Cold, by short ref in a session: the listing (for the id), then the
   * reference and the blob together (3 requests, 2 round trips; the reference's body holds its expiry,
   * which no listing shows); by id or handle: 2 requests, 1 round trip; with a reference this instance
   * read or wrote within `maxAgeMs` (a put's own reference included): the blob alone, 1 request. A
   * chunked artifact (over 512 KiB) gives its chunks, so a selection reads only those it needs.
   */
  async open(ref: string, options: SessionOption & ReferenceReadOptions = {}): Promise<OpenedArtifact> {
    const maxAgeMs = parseMaxAge(options.maxAgeMs);
    if (options.session === undefined) {
      const id = await this.resolve(ref);
      return { id, ...(await this.#content(id)) };
    }
    const session = parseSessionId(options.session);
    const cached = maxAgeMs > 0 ? this.#references.get(session, ref, maxAgeMs) : undefined;
    if (cached !== undefined && !this.#core.isExpired(cached))
      return { id: cached.artifact_id, reference: cached, ...(await this.#content(cached.artifact_id)) };
    const since = this.#references.generation(session);
    const { id, listed } = await this.#resolveListed(ref, { session });
    const { reference, content } = await this.#withAccess(session, id, this.#content(id), listed);
    if (maxAgeMs > 0) this.#references.set(session, ref, reference!, since);
    return { id, reference, ...content };
  }

  /**
   * Runs `read` and, with a session, its access check at once; the check's error wins over the read's.
   * `listed`: the reference's version in the listing that resolved the ref (see liveReference).
   */
  async #withAccess<T>(
    session: string | undefined,
    id: ArtifactId,
    read: Promise<T>,
    listed?: string,
  ): Promise<{ reference: SessionReference | undefined; content: T }> {
    const [access, content] = await Promise.allSettled([
      session === undefined ? undefined : this.#live(session, id, listed),
      read,
    ]);
    if (access.status === "rejected") throw access.reason;
    if (content.status === "rejected") throw content.reason;
    return { reference: access.value, content: content.value };
  }

  /** The integrity-checked bytes of an artifact stored as one blob, else the chunks of a chunked one. */
  async #content(id: ArtifactId): Promise<{ bytes: Uint8Array } | { chunks: ChunkedArtifact }> {
    const bytes = await this.#core.driver.get(blobKey(id));
    if (bytes === undefined) {
      const chunks = await this.#chunkedOf(id);
      if (chunks !== undefined) return { chunks };
      throw new ArefError("NOT_FOUND", `artifact ${toShortRef(id)} is not in the store`, {
        hint: "it was never stored here, or it was removed or swept by gc; stash it again",
        details: { artifact_id: id },
      });
    }
    const actual = sha256Hex(bytes);
    if (actual !== id) {
      throw new ArefError(
        "INTEGRITY",
        `artifact ${toShortRef(id)} failed its integrity check: the stored bytes hash to ${actual.slice(0, 12)}…`,
        {
          hint: "the stored copy is corrupt; run `aref verify` to list damaged blobs, and stash the original content again to heal it",
          details: { artifact_id: id, actual_sha256: actual, key: blobKey(id) },
        },
      );
    }
    return { bytes };
  }

  /**
   * The artifact's bytes as a Node Readable, with bounded memory at any size: each chunk is
   * integrity-checked before it is pushed, and the stream fails with INTEGRITY after the last
   * one unless the whole content hashes to the artifact's id. Errors found before the first
   * byte (NOT_FOUND, EXPIRED, a damaged manifest) reject the returned promise.
   */
  async getStream(ref: string, options: SessionOption = {}): Promise<Readable> {
    const { id, listed } = await this.#resolveListed(ref, options);
    if (options.session !== undefined) await this.#live(options.session, id, listed);
    const chunked = await this.#chunkedOf(id);
    if (chunked === undefined) {
      const bytes = await this.get(id);
      return Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)], { objectMode: false });
    }
    return Readable.from(chunked.stream(), { objectMode: false });
  }

  /**
   * The chunks of a chunked artifact (content over 512 KiB), to read only the ones a selection
   * needs; undefined for an artifact stored as one blob. Each chunk read is integrity-checked.
   */
  async chunks(ref: string, options: SessionOption = {}): Promise<ChunkedArtifact | undefined> {
    const { id, listed } = await this.#resolveListed(ref, options);
    if (options.session !== undefined) await this.#live(options.session, id, listed);
    return this.#chunkedOf(id);
  }

  /** The artifact as UTF-8 text; UNSUPPORTED when it is binary. */
  async getText(ref: string, options: SessionOption = {}): Promise<string> {
    return textOf(await this.get(ref, options), ref);
  }

  /**
   * The session's reference to `ref` when this instance read or wrote it within `maxAgeMs` and it
   * has not expired; undefined otherwise. Makes no request: a caller with its own cache of what it
   * derived from the content (a selection) checks it first and calls `open()` only on a miss.
   */
  cachedReference(session: string, ref: string, options: ReferenceReadOptions = {}): SessionReference | undefined {
    const maxAgeMs = parseMaxAge(options.maxAgeMs);
    if (maxAgeMs <= 0) return undefined;
    const cached = this.#references.get(session, ref, maxAgeMs);
    return cached !== undefined && !this.#core.isExpired(cached) ? cached : undefined;
  }

  /**
   * The session's live reference to an artifact (the access check of `get(ref, { session })`
   * without reading the content): NOT_FOUND when the session holds none, EXPIRED when it expired.
   */
  async reference(session: string, ref: string, options: ReferenceReadOptions = {}): Promise<SessionReference> {
    const maxAgeMs = parseMaxAge(options.maxAgeMs);
    if (maxAgeMs > 0) {
      // Only validated session ids are ever cached: a hit needs no parsing.
      const cached = this.#references.get(session, ref, maxAgeMs);
      if (cached !== undefined && !this.#core.isExpired(cached)) return cached;
    }
    const sessionId = parseSessionId(session);
    const since = this.#references.generation(sessionId);
    const { id, listed } = await this.#resolveListed(ref, { session: sessionId });
    const reference = await this.#live(sessionId, id, listed);
    if (maxAgeMs > 0) this.#references.set(sessionId, ref, reference, since);
    return reference;
  }

  /** The artifact's metadata record. */
  async getRecord(ref: string, options: SessionOption = {}): Promise<ArtifactRecord> {
    const { id, listed } = await this.#resolveListed(ref, options);
    // With a session: that session's view (its own label, summary, type, time), never another session's.
    const reference = options.session === undefined ? undefined : await this.#live(options.session, id, listed);
    const { record } = await this.#sharedRecord(id);
    return reference === undefined ? record : sessionView(record, reference);
  }

  /**
   * A session's references, as `listReferences`, each with its artifact's shared record (the one
   * `getRecord(id)` returns; undefined when the record or content is damaged, CORRUPT_METADATA or INTEGRITY:
   * verify reports it). The record held by a live reference this instance read it under before (the same
   * reference, still live in this listing) is not read again (see RecordCache): listing an unchanged session
   * again is its listing alone. Expired references' records are always read.
   */
  async listArtifacts(
    session: string,
    options: { includeExpired?: boolean } = {},
  ): Promise<Array<{ reference: SessionReference; record?: ArtifactRecord }>> {
    const references = await this.listReferences(session, options);
    const now = this.#core.now();
    return mapLimit(references, 16, async (reference) => {
      const live = !this.#core.isExpired(reference, now);
      const cached = live ? this.#records.get(reference) : undefined;
      if (cached !== undefined) return { reference, record: cached };
      try {
        const { record, stored } = await this.#sharedRecord(reference.artifact_id);
        if (live && stored) this.#records.set(reference, record);
        return { reference, record };
      } catch (error) {
        if (isArefError(error) && (error.code === "CORRUPT_METADATA" || error.code === "INTEGRITY"))
          return { reference };
        throw error;
      }
    });
  }

  /** The artifact's shared record; `stored`: read back as stored (else rebuilt from the content just now). */
  async #sharedRecord(id: ArtifactId): Promise<{ record: ArtifactRecord; stored: boolean }> {
    const record = await this.#core.readRecord(id);
    if (record !== undefined) return { record, stored: true };
    if ((await this.#core.driver.head(blobKey(id))) === undefined) {
      throw new ArefError("NOT_FOUND", `artifact ${toShortRef(id)} is not in the store`, {
        details: { artifact_id: id },
      });
    }
    // Content without metadata (an interrupted put): rebuild the record from the content.
    const bytes = await this.get(id);
    const rebuilt = this.#core.buildRecord(id, bytes, {});
    await this.#core.driver.putIfAbsent(metaKey(id), encodeJson(rebuilt));
    return { record: rebuilt, stored: false };
  }

  /** True when the artifact's content is stored (no integrity check). */
  async has(ref: string): Promise<boolean> {
    const parsed = parseRef(ref);
    if (parsed.kind === "id") {
      if ((await this.#core.driver.head(blobKey(parsed.id))) !== undefined) return true;
      try {
        return (await this.#core.readRecord(parsed.id))?.chunked !== undefined;
      } catch (error) {
        rethrowUnlessCorrupt(error);
        return false;
      }
    }
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
    return (await this.#resolveListed(ref, options)).id;
  }

  /**
   * `resolve`, with (in a session, where the driver lists versions) the version the listing gave the
   * session's reference to the id: the access check then needs no read of a reference this instance
   * already holds in that version.
   */
  async #resolveListed(ref: string, options: SessionOption = {}): Promise<{ id: ArtifactId; listed?: string }> {
    const parsed = parseRef(ref);
    if (parsed.kind === "id") return { id: parsed.id };
    const session = options.session === undefined ? undefined : parseSessionId(options.session);
    const prefix = session === undefined ? blobPrefixFor(parsed.prefix) : refPrefixFor(session, parsed.prefix);
    const ids = new Set<ArtifactId>();
    const versions = new Map<ArtifactId, string | undefined>();
    for await (const entry of this.#core.driver.list(prefix)) {
      const id = session === undefined ? idOfBlobKey(entry.key) : parseRefKey(entry.key)?.id;
      if (id?.startsWith(parsed.prefix)) {
        ids.add(id);
        versions.set(id, listedVersion(entry));
      }
    }
    if (session === undefined) for (const id of await this.#chunkedIdsWithPrefix(parsed.prefix)) ids.add(id);
    if (ids.size === 0) {
      throw new ArefError(
        "NOT_FOUND",
        `no artifact matches ${ref}${session === undefined ? "" : ` in session ${session}`}`,
        {
          hint:
            session === undefined
              ? "check the ref with `aref list`"
              : `check the ref with \`aref list --session ${session}\``,
        },
      );
    }
    if (ids.size > 1) {
      const candidates = [...ids].sort();
      const length = uniquePrefixLength(candidates);
      throw new ArefError(
        "AMBIGUOUS_REF",
        `${ref} matches ${candidates.length} artifacts: ${candidates.map((c) => toShortRef(c, length)).join(", ")}`,
        {
          hint: "use more hex characters, the full id, or the handle",
          details: { candidates: candidates.map((c) => toShortRef(c, length)) },
        },
      );
    }
    const id = [...ids][0]!;
    const listed = session === undefined ? undefined : versions.get(id);
    return listed === undefined ? { id } : { id, listed };
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
    if (session === undefined)
      for (const other of await this.#chunkedIdsWithPrefix(head)) if (other !== id) others.push(other);
    return toShortRef(id, shortestUnique(id, others));
  }

  /** Adds (or refreshes) a session's reference to a stored artifact. */
  async addReference(
    session: string,
    ref: string,
    referenceOptions: Omit<PutOptions, "session" | "summary" | "redactions" | "producer" | "mime"> = {},
  ): Promise<SessionReference> {
    const sessionId = parseSessionId(session);
    const options = parsePutOptions(referenceOptions);
    const record = await this.getRecord(ref);
    const id = record.artifact_id;
    const { reference } = await this.#writes.write(sessionId, id, record, options);
    // As in put, once the reference is written: refresh the content (the blob, or a chunked artifact's
    // manifest), so a gc whose marks missed the reference cannot delete it from now on. There are no
    // bytes to store again: content gone meanwhile (swept by a concurrent gc) takes the reference back.
    const { driver } = this.#core;
    const key = blobKey(record.chunked?.manifest ?? id);
    const there = driver.touch === undefined ? (await driver.head(key)) !== undefined : await driver.touch(key);
    if (!there) {
      try {
        await driver.delete(refKey(sessionId, id));
      } finally {
        this.#references.forget(sessionId);
      }
      throw new ArefError("NOT_FOUND", `artifact ${toShortRef(id)} is not in the store any more`, {
        hint: "a gc swept its content while the reference was added; stash the content again",
        details: { artifact_id: id },
      });
    }
    return reference;
  }

  /**
   * A session's references, oldest first. UNKNOWN_SESSION when the session holds none (live or expired).
   * One listing, then a read of each reference, except those listed in the version this instance already
   * read or wrote (where the driver lists versions: S3). Each live reference counts as an access check made
   * now, as `reference(…, { maxAgeMs })` would: a fetch by its shortest unique short ref or full id within
   * the caller's `maxAgeMs` reads only the content.
   */
  listReferences(session: string, options: { includeExpired?: boolean } = {}): Promise<SessionReference[]> {
    return listSessionReferences(this.#core, this.#writes, this.#references, session, options);
  }

  /** Every session that holds at least one reference. */
  listSessions(): Promise<string[]> {
    return listSessions(this.#core);
  }

  /** Drops one reference of a session; the blob stays until gc finds it unreferenced. */
  async removeReference(session: string, ref: string): Promise<boolean> {
    const sessionId = parseSessionId(session);
    const id = await this.resolve(ref, { session: sessionId });
    // A short ref was resolved by listing the session's references: the key was just seen.
    const listed = parseRef(ref).kind !== "id";
    this.#writes.drop(sessionId, id);
    try {
      return await this.#core.driver.delete(refKey(sessionId, id), { listed });
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
      this.#writes.forgetAll();
    }
    let blobRemoved: boolean;
    try {
      blobRemoved = await driver.delete(blobKey(id));
      await driver.delete(metaKey(id));
    } finally {
      // Again once the content is gone: a put in flight may have reported its blob write in between.
      this.#writes.forgetAll();
      this.#records.clear();
    }
    return { id, referencesRemoved, blobRemoved };
  }

  /** Removes every reference and record of a session; returns how many references. Its blobs become garbage unless shared. */
  async cleanupSession(session: string): Promise<number> {
    const sessionId = parseSessionId(session);
    let removed = 0;
    await this.records.removeSession(sessionId);
    try {
      for (const entry of await collect(this.#core.driver.list(sessionPrefix(sessionId)))) {
        if (await this.#core.driver.delete(entry.key)) removed++;
      }
    } finally {
      this.#references.forget(sessionId);
      this.#writes.dropHints();
    }
    return removed;
  }

  /** Removes every expired reference in the store; returns how many. */
  async cleanupExpired(): Promise<number> {
    return (await deleteExpired(this.#core, this.#writes, await expiredReferences(this.#core, this.#writes))).length;
  }

  /** Mark and sweep: removes blobs no live reference holds (see GcOptions and the README's grace rule). */
  async gc(gcOptions: GcOptions = {}): Promise<GcReport> {
    const options = parseWith(GcOptionsSchema, gcOptions ?? {}, "gc options") as GcOptions;
    const layout = await this.#checkLayout(false);
    // The store's grace floor: an explicit grace below it is refused, the default is raised to it.
    const graceMs = options.graceMs ?? Math.max(this.#core.gcGraceMs, layout?.gcGraceFloorMs ?? 0);
    const { location } = this.#core.driver;
    assertGraceAboveFloor(graceMs, layout, location);
    // No marker yet: a writer creating the store now records its floor before its first blob, so
    // the floor is read again once the blobs are listed.
    const recheck =
      layout === undefined
        ? async () => assertGraceAboveFloor(graceMs, await this.#checkLayout(false), location)
        : undefined;
    const expiredEntries = await expiredReferences(this.#core, this.#writes);
    // What this run removes (a dry run: what it would): a reference renewed since it was read is not removed.
    const expiredKeys = options.dryRun
      ? expiredEntries.map((e) => e.key)
      : await deleteExpired(this.#core, this.#writes, expiredEntries);
    const expired = expiredKeys.length;
    let report: GcReport;
    try {
      report = await runGc(this.#core, { ...options, graceMs }, expired, recheck, this.#writes);
    } finally {
      this.#records.clear(); // swept records (none a live reference holds; cleared all the same)
    }
    // A session whose last reference this run expires ends: its records go with it (a dry run counts them).
    const ended: string[] = [];
    const expiring = new Set(expiredKeys);
    for (const session of new Set(expiredKeys.map((k) => parseRefKey(k)!.session))) {
      const left = await collect(this.#core.driver.list(sessionPrefix(session)));
      if (left.every((e) => expiring.has(e.key))) ended.push(session);
    }
    const dryRun = options.dryRun === true;
    return { ...report, records_removed: await this.records.collectGarbage(ended, { dryRun }) };
  }

  /** Checks every blob's hash, every record and reference; with `repair`, fixes what can be fixed. */
  async verify(verifyOptions: VerifyOptions = {}): Promise<VerifyReport> {
    const options = parseWith(VerifyOptionsSchema, verifyOptions ?? {}, "verify options") as VerifyOptions;
    await this.#checkLayout(false);
    try {
      const report = await runVerify(this.#core, options);
      const records = await this.records.verify();
      if (records.length === 0) return report;
      const problems = [...report.problems, ...records].sort((a, b) => a.key.localeCompare(b.key));
      return { ...report, problems, ok: problems.every((p) => p.repaired) };
    } finally {
      if (options.repair) {
        this.#writes.forgetAll(); // repair may drop corrupt references
        this.#records.clear(); // and rewrite records
      }
    }
  }

  async stats(): Promise<StoreStats> {
    return runStats(this.#core);
  }

  async close(): Promise<void> {
    await this.#core.driver.close?.();
  }

  /** Stores content over 512 KiB in chunks: chunks, then the manifest, then the record, then the reference. */
  async #putChunked(
    head: Uint8Array[],
    rest: AsyncIterator<Uint8Array | string> | undefined,
    options: PutOptions,
    session: string | undefined,
  ): Promise<PutResult> {
    await this.#checkLayout(true);
    const { driver } = this.#core;
    const writer = new ChunkedWriter(this.#core, (id, bytes) => storeBlob(this.#core, id, bytes));
    let written;
    try {
      for (const piece of head) await writer.write(piece);
      for (;;) {
        const next = await rest?.next();
        if (next === undefined || next.done) break;
        await writer.write(toPieceBytes(next.value));
      }
      written = await writer.finish();
    } catch (error) {
      await rest?.return?.().catch(() => undefined);
      await writer.settle();
      throw error;
    }
    const { id, manifest, manifestBytes, manifestId } = written;
    // The first part of the content makes the summary and the MIME sniff, as for a small artifact.
    const first = concatBytes(
      head,
      head.reduce((n, p) => n + p.byteLength, 0),
    ).subarray(0, SINGLE_BLOB_MAX);
    const firstText =
      manifest.encoding === "binary"
        ? undefined
        : decodeUtf8(first.subarray(0, first.byteLength - incompleteUtf8Tail(first)));
    const layout = {
      sizeBytes: manifest.size_bytes,
      manifest: manifestId,
      chunks: manifest.chunks.length,
      binary: manifest.encoding === "binary",
    };
    const { created: manifestCreated } = await driver.putIfAbsent(blobKey(manifestId), manifestBytes);
    const [ensured, seen] = await Promise.all([
      ensureRecord(
        this.#core,
        id,
        recordToStore((o) => this.#core.buildRecord(id, first, o, firstText, layout), options, session !== undefined),
      ),
      this.#sessionSide(session, id),
    ]);
    // As in put: after the reference, restore or refresh the manifest and the record a
    // concurrent gc may have swept (the chunks are protected by gc's grace period).
    // The chunks are refreshed too: a gc with a grace shorter than this put took (graceMs 0) may
    // have swept them before the reference was written. Their bytes are gone with the stream, so
    // a swept chunk cannot be stored again: the put then takes back the reference it added and
    // fails with CONFLICT (stash again).
    const restore = async () => {
      await restoreAfterReference(
        this.#core,
        { key: blobKey(manifestId), bytes: manifestBytes },
        { key: metaKey(id), bytes: encodeJson(ensured.stored) },
        manifestCreated && !ensured.created,
      );
      const gone = await writer.chunksGone();
      if (gone.length === 0 || session === undefined) return;
      if (seen.before === undefined) await this.removeReference(session, id).catch(() => undefined);
      throw new ArefError(
        "CONFLICT",
        `a concurrent gc swept ${gone.length} chunk(s) of ${toShortRef(id)} while it was stored`,
        {
          hint: "stash the content again; run gc with a grace period longer than a stash takes (the default is 10 minutes)",
          details: { artifact_id: id, chunks_gone: gone.length },
        },
      );
    };
    return this.#referenceAndResult(id, session, options, ensured, seen, restore, {
      created: manifestCreated,
      healed: false,
    });
  }

  /** The chunked artifact `id`, or undefined when it is stored as one blob (or not at all). */
  /** The access check (liveReference): the session's live reference to `id`. */
  #live(session: string, id: ArtifactId, listed?: string): Promise<SessionReference> {
    return liveReference(this.#core, this.#writes, session, id, listed);
  }

  async #chunkedOf(id: ArtifactId): Promise<ChunkedArtifact | undefined> {
    let record: ArtifactRecord | undefined;
    try {
      record = await this.#core.readRecord(id);
    } catch (error) {
      rethrowUnlessCorrupt(error);
      if ((await this.#core.driver.head(blobKey(id))) !== undefined) return undefined;
      throw error; // no blob and an unreadable record: the content cannot be found without it
    }
    return record?.chunked === undefined ? undefined : openChunked(this.#core, record);
  }

  /** Ids of records starting with `hexPrefix` that have no blob of their own (chunked artifacts). */
  async #chunkedIdsWithPrefix(hexPrefix: string): Promise<ArtifactId[]> {
    const ids: ArtifactId[] = [];
    for await (const entry of this.#core.driver.list(metaPrefixFor(hexPrefix))) {
      const id = idOfMetaKey(entry.key);
      if (id === undefined || !id.startsWith(hexPrefix) || (await this.#core.driver.head(blobKey(id))) !== undefined)
        continue;
      try {
        if ((await this.#core.readRecord(id))?.chunked !== undefined) ids.push(id);
      } catch (error) {
        rethrowUnlessCorrupt(error);
      }
    }
    return ids;
  }

  /**
   * Writes the layout marker on first write (recording this instance's grace floor); refuses a store
   * written by an unknown layout version. Read once per instance; undefined while the store has no marker.
   */
  #checkLayout(forWrite: boolean): Promise<StoreLayout | undefined> {
    this.#layoutChecked ??= readLayoutMarker(
      this.#core.driver,
      forWrite ? { floorMs: this.#core.gcGraceFloorMs } : undefined,
    ).then(
      (layout) => {
        if (layout === undefined) this.#layoutChecked = undefined; // the first write must still write the marker
        return layout;
      },
      (error: unknown) => {
        this.#layoutChecked = undefined;
        throw error;
      },
    );
    return this.#layoutChecked;
  }
}

function parseMaxAge(maxAgeMs: number | undefined): number {
  const value = maxAgeMs ?? 0;
  if (!(Number.isFinite(value) && value >= 0))
    throw new ArefError("INVALID_INPUT", `maxAgeMs must be a number ≥ 0, got ${String(maxAgeMs)}`);
  return value;
}

function parsePutOptions(options: PutOptions | undefined): PutOptions {
  return parseWith(PutOptionsSchema, options ?? {}, "put options") as PutOptions;
}

function toPieceBytes(piece: Uint8Array | string): Uint8Array {
  if (typeof piece === "string") return toBytes(piece);
  if (piece instanceof Uint8Array) return piece;
  throw new ArefError(
    "INVALID_INPUT",
    `putStream needs a stream of bytes or strings, got ${piece === null ? "null" : typeof piece}`,
  );
}

function concatBytes(pieces: Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Bytes as UTF-8 text; UNSUPPORTED (naming `ref`) when they are binary. */
export function textOf(bytes: Uint8Array, ref: string): string {
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    throw new ArefError("UNSUPPORTED", `artifact ${ref} is binary (${bytes.byteLength} bytes), not UTF-8 text`, {
      hint: "use `aref cat` to get its bytes",
    });
  }
  return text;
}
