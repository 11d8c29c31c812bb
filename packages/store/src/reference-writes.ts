import {
  SessionReferenceSchema,
  parseWith,
  type ArtifactId,
  type ArtifactRecord,
  type SessionReference,
} from "@artifact-refs/schema";
import { allSettled } from "./concurrency.js";
import { type StoreCore, encodeJson } from "./core.js";
import { FLOOR_MARGIN_MS } from "./layout-marker.js";
import { blobKey, metaKey, refKey } from "./layout.js";
import type { PutOptions } from "./options.js";
import { RecentBlobs, ReferenceHints, type WrittenReference } from "./put-hints.js";
import { type RecordToStore, restoreAfterReference } from "./put-steps.js";
import type { Generation, ReferenceCache } from "./reference-cache.js";

/**
 * A re-put writes over the session's reference without its content writes first only while that
 * reference stays live this long past now: gc on another instance (another clock) must still see it live.
 */
const HELD_EXPIRY_MARGIN_MS = 60_000;

/** A session reference a put wrote, with the reference cache's generation right after, and its version if the driver gave one. */
export interface ReferenceWritten {
  reference: SessionReference;
  since: Generation;
  version?: string | undefined;
}

/** What a put's fast path (rePutHeld, putRecentBlob) leaves for its last steps: the reference written, the one it replaced, what to re-store. */
export interface FastPut {
  written: ReferenceWritten;
  before: SessionReference | undefined;
  restore: () => Promise<void>;
}

/**
 * A put's own view of its reference: its own metadata; the session's earlier reference (`before`)
 * fills what this put does not say (type, label, tool, summary, mime), so a re-put without a label keeps it.
 */
function ownView(own: ArtifactRecord, options: PutOptions, before: SessionReference | undefined): ArtifactRecord {
  if (before === undefined) return own;
  return {
    ...own,
    type: options.type ?? before.type,
    ...(options.label === undefined && before.label !== undefined ? { label: before.label } : {}),
    ...(options.tool === undefined && before.tool !== undefined ? { tool: before.tool } : {}),
    ...(options.summary === undefined && before.summary !== undefined ? { summary: before.summary } : {}),
    ...(options.mime === undefined && before.mime !== undefined ? { mime: before.mime } : {}),
  };
}

/**
 * The writes of a store instance's session references (put, addReference), with what this instance
 * remembers of its own writes: the references it wrote with their versions (a re-put into the same
 * session writes over one, see rePutHeld) and the blobs it wrote with when (in a store with a grace
 * floor, a put into another session may reference them at once, see putRecentBlob). Every write
 * forgets the session in the store's reference cache.
 */
export class ReferenceWrites {
  readonly #core: StoreCore;
  /** References read with `maxAgeMs`, shared with the store: forgotten on every reference change this instance makes. */
  readonly #references: ReferenceCache;
  /** References this instance wrote, with their versions: a re-put into the same session writes over one (see rePutHeld). */
  readonly #hints = new ReferenceHints();
  /** Blobs this instance wrote, with when: in a store with a grace floor, a put into another session may reference them at once (see putRecentBlob). */
  readonly #recentBlobs = new RecentBlobs();

  constructor(core: StoreCore, references: ReferenceCache) {
    this.#core = core;
    this.#references = references;
  }

  /**
   * A put of bytes the session holds by a live reference this instance wrote or read with its version
   * (a hint): the blob is
   * written again (it refreshes and heals it, as any put without read-back) and, at the same time, the
   * reference over the hinted version only (`ifMatch`): 2 requests, 1 round trip. The earlier reference
   * fills what this put does not say, as in own. Safe without waiting for the blob write:
   * the session's live reference held the content all along (gc keeps what a live reference holds, and
   * the reference was written after its content), and the new reference replaces it atomically. A hint
   * made stale by another process (the reference changed, removed, or expiring) fails the condition:
   * undefined, and the put takes its usual path. Needs `Driver.putVersioned`.
   */
  async rePutHeld(
    session: string,
    id: ArtifactId,
    bytes: Uint8Array,
    options: PutOptions,
    { own }: RecordToStore,
    started: number,
  ): Promise<FastPut | undefined> {
    const { driver } = this.#core;
    const hint = driver.putVersioned === undefined ? undefined : this.#hints.get(session, id);
    if (hint === undefined || hint.reference.artifact_id !== id) return undefined;
    const before = hint.reference;
    // A reference expiring soon may be expired for a gc marking now (another clock): not a hold to rely on.
    if (
      before.expires_at !== undefined &&
      Date.parse(before.expires_at) - this.#core.now().getTime() <= HELD_EXPIRY_MARGIN_MS
    )
      return undefined;
    const reference = this.newReference(session, id, own, options, ownView(own, options, before));
    let version: string | undefined;
    try {
      [, version] = await allSettled([
        driver.put(blobKey(id), bytes),
        driver.putVersioned!(refKey(session, id), encodeJson(reference), { ifMatch: hint.version }),
      ]);
    } catch (error) {
      this.#hints.drop(session, id);
      throw error;
    } finally {
      this.#references.forget(session);
    }
    if (version === undefined) {
      this.#hints.drop(session, id);
      return undefined;
    }
    this.#recentBlobs.set(id, started);
    return {
      written: { reference, since: this.#references.generation(session), version },
      before,
      restore: async () => {},
    };
  }

  /**
   * A put into a session of bytes this instance wrote a moment ago, in a store with a gc grace floor:
   * the reference goes out at once with the blob's write (which refreshes and heals it), without the
   * record's conditional write: 2 requests, 1 round trip, `created` false. Safe without waiting for the
   * blob write: that earlier put's blob and record writes had answered, and every gc here runs with a
   * grace of at least the floor, so neither can be swept before the floor has passed since that put
   * started (`since`), unless purged. A reference written before then (less a margin) is seen by the
   * mark of any gc that could take them; one written later (a slow put) is followed by the refresh of
   * both, which stores them again if gone, as in a store without a floor. When the session already holds
   * the bytes, its reference is read and written over, as in claim.
   */
  async putRecentBlob(
    session: string,
    id: ArtifactId,
    bytes: Uint8Array,
    options: PutOptions,
    toStore: RecordToStore,
    floorMs: number,
    started: number,
  ): Promise<FastPut | undefined> {
    const since = floorMs > 0 ? this.#recentBlobs.get(id, floorMs - FLOOR_MARGIN_MS) : undefined;
    if (since === undefined) return undefined;
    const key = blobKey(id);
    const [, written] = await allSettled([
      this.#core.driver.put(key, bytes),
      this.claim(session, id, options, toStore.own),
    ]);
    this.#recentBlobs.set(id, started);
    const restore = async () => {
      if (performance.now() - since + FLOOR_MARGIN_MS <= floorMs) return;
      await restoreAfterReference(
        this.#core,
        { key, bytes },
        { key: metaKey(id), bytes: encodeJson(toStore.record) },
        true,
      );
    };
    return { written, before: written.before, restore };
  }

  /**
   * A put's reference without a listing of the session: written only if the session holds none for
   * these bytes (one conditional request). When it does (412), its earlier reference is read and fills
   * what this put does not say, as `own` does, and the reference is written over it.
   */
  async claim(
    session: string,
    id: ArtifactId,
    options: PutOptions,
    own: ArtifactRecord,
  ): Promise<{
    reference: SessionReference;
    since: Generation;
    before: SessionReference | undefined;
    version?: string | undefined;
  }> {
    const fresh = this.newReference(session, id, own, options, own);
    const { driver } = this.#core;
    const key = refKey(session, id);
    let created: boolean;
    let version: string | undefined;
    try {
      if (driver.putVersioned === undefined)
        ({ created } = await driver.putIfAbsent(key, encodeJson(fresh), { refresh: false }));
      else {
        version = await driver.putVersioned(key, encodeJson(fresh), { ifAbsent: true });
        created = version !== undefined;
      }
    } finally {
      this.#references.forget(session);
    }
    if (created) return { reference: fresh, since: this.#references.generation(session), before: undefined, version };
    const before = await this.#core.readReference(session, id).catch(() => undefined);
    return { ...(await this.own(session, id, options, own, before)), before };
  }

  /**
   * Writes a put's reference: its own metadata; the session's earlier reference (`before`) fills
   * what this put does not say, so a re-put without a label keeps it. `since`: the reference
   * cache's generation right after the write.
   */
  async own(
    session: string,
    id: ArtifactId,
    options: PutOptions,
    own: ArtifactRecord,
    before: SessionReference | undefined,
  ): Promise<{ reference: SessionReference; since: Generation; version: string | undefined }> {
    const { reference, version } = await this.write(session, id, own, options, ownView(own, options, before));
    return { reference, since: this.#references.generation(session), version };
  }

  /** `own` (a put's own view): the reference takes its metadata from it alone; without it (addReference) the record's fill in. */
  async write(
    session: string,
    id: ArtifactId,
    record: ArtifactRecord,
    options: Omit<PutOptions, "session">,
    own?: ArtifactRecord,
  ): Promise<WrittenReference | { reference: SessionReference; version: undefined }> {
    const reference = this.newReference(session, id, record, options, own);
    const { driver } = this.#core;
    const key = refKey(session, id);
    this.#hints.drop(session, id);
    try {
      if (driver.putVersioned !== undefined)
        return { reference, version: await driver.putVersioned(key, encodeJson(reference)) };
      await driver.put(key, encodeJson(reference));
      return { reference, version: undefined };
    } finally {
      this.#references.forget(session);
    }
  }

  /** References of any session may have changed (purge, gc, cleanup of expired ones, repair): forget what was read or written. */
  forgetAll(): void {
    this.#references.clear();
    this.#hints.clear();
    this.#recentBlobs.clear();
  }

  /**
   * Expired references were deleted (cleanup of expired ones, gc): what was read or written of references
   * and blobs is forgotten, except the versioned hints of references not deleted. A hint is only ever used
   * with its version (a listing showing that version, a re-put over it with `ifMatch`), which a reference
   * changed or removed since no longer has: a repeated gc then reads only references changed since.
   */
  expiredDeleted(deleted: Array<{ session: string; id: ArtifactId }>): void {
    this.#references.clear();
    this.#recentBlobs.clear();
    for (const { session, id } of deleted) this.#hints.drop(session, id);
  }

  /** The reference `write` writes (see there). */
  newReference(
    session: string,
    id: ArtifactId,
    record: ArtifactRecord,
    options: Omit<PutOptions, "session">,
    own?: ArtifactRecord,
  ): SessionReference {
    const now = this.#core.now();
    const from = own ?? {
      ...record,
      ...(options.label === undefined ? {} : { label: options.label }),
      ...(options.tool === undefined ? {} : { tool: options.tool }),
    };
    return parseWith(
      SessionReferenceSchema,
      {
        session_id: session,
        artifact_id: id,
        type: options.type ?? from.type,
        ...(from.label ? { label: from.label } : {}),
        ...(from.tool ? { tool: from.tool } : {}),
        ...(own?.summary === undefined ? {} : { summary: own.summary }),
        ...(own?.mime === undefined ? {} : { mime: own.mime }),
        created_at: now.toISOString(),
        ...(options.ttlMs === undefined ? {} : { expires_at: new Date(now.getTime() + options.ttlMs).toISOString() }),
      },
      "session reference",
    );
  }

  /** A put that started at `started` wrote the blob of `id` (unconditionally) and its write answered. */
  blobWritten(id: ArtifactId, started: number): void {
    this.#recentBlobs.set(id, started);
  }

  /**
   * This instance read the session's reference with its version (a fetch, a listing): a re-put of the
   * same bytes into that session may write over that version (rePutHeld). Safe as for a reference this
   * instance wrote: every put writes its reference after its content, so a live reference holds stored
   * content (a gc keeps what a live reference holds); another process's change or removal since the
   * read fails the condition. A reference expired or expiring soon is not used (rePutHeld checks).
   */
  read(session: string, id: ArtifactId, reference: SessionReference, version: string | undefined): void {
    if (version !== undefined && reference.artifact_id === id && reference.session_id === session)
      this.#hints.set(session, id, { reference, version });
  }

  /**
   * The session's reference to `id` when this instance read or wrote it with exactly `version` (the one a
   * listing shows now): the stored reference, byte for byte, so it needs no read. A copy; undefined otherwise.
   */
  known(session: string, id: ArtifactId, version: string): SessionReference | undefined {
    const hint = this.#hints.get(session, id);
    return hint !== undefined && hint.version === version && hint.reference.artifact_id === id
      ? structuredClone(hint.reference)
      : undefined;
  }

  /** A put's reference is written and its content safe from gc: a re-put may write over this version (if any). */
  settled(session: string, id: ArtifactId, reference: SessionReference, version: string | undefined): void {
    if (version !== undefined) this.#hints.set(session, id, { reference, version });
    else this.#hints.drop(session, id);
  }

  /** This instance removes the reference (session, id). */
  drop(session: string, id: ArtifactId): void {
    this.#hints.drop(session, id);
  }

  /** This instance removed references (of one session or more), not content. */
  dropHints(): void {
    this.#hints.clear();
  }
}
