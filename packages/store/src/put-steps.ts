import type { ArtifactId, ArtifactRecord } from "@artifact-refs/schema";
import { sha256Hex } from "./content.js";
import { type StoreCore, encodeJson, rethrowUnlessCorrupt } from "./core.js";
import { blobKey, metaKey } from "./layout.js";
import type { PutOptions } from "./options.js";
import { sharedRecord } from "./session-view.js";

// The steps of a put, each one driver request or a few: the writes (blob, record) go out first;
// what a write answered "already there" is checked afterwards (the stored copy's hash, the stored
// record), at the same time as the reference write (see ArtifactStore.put).

export interface BlobOutcome {
  created: boolean;
  /** A corrupt stored copy was replaced by these bytes. */
  healed: boolean;
  /** This put wrote the bytes (new, re-stored after a sweep, or healed). */
  wrote: boolean;
}

/** With a verify read to come, an existing blob's refresh goes out with it (one round trip less), not with the write. */
const touchWithVerify = (core: StoreCore, refresh: boolean) =>
  refresh && core.verifyOnDedupe && core.driver.touch !== undefined;

/** Writes the blob unless it exists; `refresh` false leaves an existing blob's time alone (the caller refreshes it later). */
export async function createBlob(
  core: StoreCore,
  id: ArtifactId,
  bytes: Uint8Array,
  refresh: boolean,
): Promise<boolean> {
  const { created } = await core.driver.putIfAbsent(blobKey(id), bytes, {
    refresh: refresh && !touchWithVerify(core, refresh),
  });
  return created;
}

/**
 * The blob existed: with `verifyOnDedupe`, reads it back (and refreshes it when `refresh`, at once)
 * and checks its hash; a corrupt copy is replaced by these bytes (re-putting heals), a copy swept
 * meanwhile is stored again.
 */
export async function checkStoredBlob(
  core: StoreCore,
  id: ArtifactId,
  bytes: Uint8Array,
  refresh: boolean,
): Promise<BlobOutcome> {
  const { driver } = core;
  if (!core.verifyOnDedupe) return { created: false, healed: false, wrote: false };
  const key = blobKey(id);
  const [touched, stored] = await Promise.all([
    touchWithVerify(core, refresh) ? driver.touch!(key) : true,
    driver.get(key),
  ]);
  if (stored === undefined || !touched) {
    // Swept between the calls: store it again.
    const again = await driver.putIfAbsent(key, bytes);
    return { created: false, healed: false, wrote: again.created };
  }
  if (sha256Hex(stored) === id) return { created: false, healed: false, wrote: false };
  await driver.put(key, bytes);
  return { created: false, healed: true, wrote: true };
}

/** Creates the blob, or checks the stored copy (see checkStoredBlob). */
export async function storeBlob(
  core: StoreCore,
  id: ArtifactId,
  bytes: Uint8Array,
  refresh = true,
): Promise<BlobOutcome> {
  if (await createBlob(core, id, bytes, refresh)) return { created: true, healed: false, wrote: true };
  return checkStoredBlob(core, id, bytes, refresh);
}

export interface RecordToStore {
  /** What is stored: with a session, only what the bytes determine (see session-view.ts). */
  record: ArtifactRecord;
  /** This put's own view (its label, summary, type). */
  own: ArtifactRecord;
}

export interface RecordOutcome {
  stored: ArtifactRecord;
  own: ArtifactRecord;
  created: boolean;
}

export function recordToStore(
  build: (options: PutOptions) => ArtifactRecord,
  options: PutOptions,
  perSession: boolean,
): RecordToStore {
  const own = build(options);
  const personal = options.summary !== undefined || options.label !== undefined;
  const record = !perSession
    ? own
    : sharedRecord(personal ? build({ ...options, summary: undefined, label: undefined }) : own);
  return { record, own };
}

/**
 * Writes the record unless it exists. An existing record's time matters to gc only once its blob
 * is swept; a put refreshes (or restores) it after its reference write when that can be the case.
 */
export async function createRecord(core: StoreCore, id: ArtifactId, record: ArtifactRecord): Promise<boolean> {
  return (await core.driver.putIfAbsent(metaKey(id), encodeJson(record), { refresh: false })).created;
}

/** The record existed: reads it; a missing, corrupt or (chunked) outdated one is rewritten. */
export async function storedRecord(
  core: StoreCore,
  id: ArtifactId,
  { record, own }: RecordToStore,
): Promise<RecordOutcome> {
  try {
    const existing = await core.readRecord(id);
    // A chunked record must name this manifest (a record of a failed or older layout is rewritten).
    if (
      existing &&
      (record.chunked === undefined ||
        existing.chunked?.manifest === record.chunked.manifest ||
        (existing.chunked === undefined && (await core.driver.head(blobKey(id))) !== undefined))
    )
      return { stored: existing, own, created: false };
  } catch (error) {
    rethrowUnlessCorrupt(error);
  }
  await core.driver.put(metaKey(id), encodeJson(record)); // heal missing or corrupt metadata
  return { stored: record, own, created: true };
}

/** Writes the content record if missing (see createRecord, storedRecord). */
export async function ensureRecord(core: StoreCore, id: ArtifactId, toStore: RecordToStore): Promise<RecordOutcome> {
  if (await createRecord(core, id, toStore.record)) return { stored: toStore.record, own: toStore.own, created: true };
  return storedRecord(core, id, toStore);
}

/**
 * After a reference write: refreshes `blob` (stores it again when gone) and, when `always` or the
 * blob had to be stored again, `record` too (with `always`, the two refreshes go out at once).
 */
export async function restoreAfterReference(
  core: StoreCore,
  blob: { key: string; bytes: Uint8Array },
  record: { key: string; bytes: Uint8Array },
  always: boolean,
): Promise<void> {
  const { driver } = core;
  const touch = async (target: { key: string; bytes: Uint8Array }) =>
    driver.touch === undefined
      ? !(await driver.putIfAbsent(target.key, target.bytes)).created
      : (await driver.touch(target.key)) || !(await driver.putIfAbsent(target.key, target.bytes)).created;
  const [blobThere] = await Promise.all([touch(blob), always ? touch(record) : true]);
  if (!blobThere && !always) await driver.putIfAbsent(record.key, record.bytes);
}
