import {
  ArefError,
  ArtifactRecordSchema,
  isArefError,
  toShortRef,
  type ArtifactId,
  type GcReport,
  type StoreStats,
  type VerifyProblem,
  type VerifyReport,
} from "@artifact-refs/schema";
import { collect, mapLimit } from "./concurrency.js";
import { sha256Hex } from "./content.js";
import { encodeJson, listedVersion, rethrowUnlessCorrupt, type StoreCore } from "./core.js";
import { type HeldReferences, listedReference } from "./listed-references.js";
import { parseManifest } from "./manifest.js";
import {
  BLOB_PREFIX,
  META_PREFIX,
  REF_PREFIX,
  blobKey,
  idOfBlobKey,
  idOfMetaKey,
  metaKey,
  parseRefKey,
} from "./layout.js";
import type { GcOptions, VerifyOptions } from "./options.js";

/**
 * Ids held by live (unexpired, readable) references. A corrupt reference keeps its blob alive. A reference the
 * listing shows in the version `held` holds is that reference, byte for byte: it is not read (the same bytes a
 * read would return, so the same mark); every other one is read, and its version kept for the next gc.
 */
async function markLive(core: StoreCore, held?: HeldReferences): Promise<Set<ArtifactId>> {
  const live = new Set<ArtifactId>();
  const now = core.now();
  const entries = await collect(core.driver.list(REF_PREFIX));
  const unknown = entries.filter((e) => parseRefKey(e.key) === undefined);
  if (unknown.length > 0) {
    // A reference gc cannot read might hold any blob: sweeping anything could lose data.
    throw new ArefError(
      "CORRUPT_METADATA",
      `gc found ${unknown.length} reference key(s) it cannot read (first: ${unknown[0]!.key}); it sweeps nothing while they exist`,
      {
        hint: "run `aref verify` to list them; remove or restore them by hand (they may come from another layout version), then run gc again",
        details: { keys: unknown.slice(0, 20).map((e) => e.key) },
      },
    );
  }
  const keys = entries.flatMap((e) => {
    const k = parseRefKey(e.key);
    return k === undefined ? [] : [{ ...k, listed: listedVersion(e) }];
  });
  await mapLimit(keys, 16, async (k) => {
    try {
      const reference = await listedReference(core, held, k.session, k.id, k.listed);
      if (reference && !core.isExpired(reference, now)) live.add(k.id);
    } catch (error) {
      rethrowUnlessCorrupt(error);
      live.add(k.id); // unreadable: keep the blob, verify reports the reference
    }
  });
  return live;
}

/**
 * Adds to `live` the manifest and chunks of every live chunked artifact. Only ids without a blob
 * of their own can be chunked, so only their records are read. A chunked artifact whose record
 * or manifest cannot be read keeps whatever it may hold: gc then sweeps no chunk at all.
 */
async function markParts(
  core: StoreCore,
  live: Set<ArtifactId>,
  blobIds: Set<ArtifactId | undefined>,
): Promise<{ unreadable: boolean }> {
  let unreadable = false;
  const chunkedCandidates = [...live].filter((id) => !blobIds.has(id));
  await mapLimit(chunkedCandidates, 8, async (id) => {
    try {
      const record = await core.readRecord(id);
      if (record?.chunked === undefined) return;
      live.add(record.chunked.manifest);
      const raw = await core.driver.get(blobKey(record.chunked.manifest));
      if (raw === undefined) return; // nothing to keep; verify reports the artifact as broken
      for (const [chunkId] of parseManifest(raw, record.chunked.manifest, id, record.size_bytes).chunks)
        live.add(chunkId);
    } catch (error) {
      if (!(isArefError(error) && (error.code === "CORRUPT_METADATA" || error.code === "INTEGRITY"))) throw error;
      unreadable = true;
    }
  });
  return { unreadable };
}

/**
 * The backend's own clock: the modification time of a marker written now. Blob times
 * come from the same clock (a server's, a filesystem's), so client clock skew and
 * coarse backend time precision (S3: seconds) cannot make a fresh blob look old.
 */
async function backendNow(core: StoreCore): Promise<Date> {
  const key = `gc/mark-${process.pid}-${Math.random().toString(36).slice(2)}.json`;
  await core.driver.put(key, encodeJson({ gc_mark: core.now().toISOString() }));
  const entry = await core.driver.head(key);
  await core.driver.delete(key);
  return entry?.modifiedAt ?? new Date();
}

/**
 * After gc deleted a record: a blob stored again meanwhile (a put between the two deletes) gets its record back.
 * Returns whether the artifact is back (its blob is stored again), so gc does not report it as removed.
 */
async function restoreRecord(core: StoreCore, id: ArtifactId): Promise<boolean> {
  const bytes = await core.driver.get(blobKey(id)); // one request whether or not it is there
  if (bytes === undefined || sha256Hex(bytes) !== id) return false; // gone, or damaged: verify's to report
  await core.driver.putIfAbsent(metaKey(id), encodeJson(core.buildRecord(id, bytes, {})), { refresh: false });
  return true;
}

/** Dry run: whether the sweep would delete this record too (it exists and is older than the cutoff). */
async function recordWouldGo(core: StoreCore, id: ArtifactId, cutoff: Date): Promise<boolean> {
  const entry = await core.driver.head(metaKey(id));
  return entry !== undefined && entry.modifiedAt < cutoff;
}

/**
 * Mark and sweep, safe against concurrent writers:
 * 1. mark: the ids every live reference holds, at backend time T;
 * 2. candidates: blobs outside the mark whose last modification is older than T − grace
 *    (a put refreshes the blob's time, so anything written or re-used after T − grace stays);
 * 3. mark again, and delete each candidate still unreferenced, conditionally on its time
 *    (drivers do this atomically where the backend allows). A writer that lost the race
 *    finds its blob gone after writing its reference and stores it again (see put).
 * `held`: the references this instance holds with their versions (the mark reads only those listed in
 * another version). `afterListing` runs once the blobs are listed (the store re-checks its grace floor there when
 * the store had no layout marker at the start: a writer records it before its first blob).
 */
export async function runGc(
  core: StoreCore,
  options: GcOptions,
  referencesExpired: number,
  afterListing?: () => Promise<void>,
  held?: HeldReferences,
): Promise<GcReport> {
  const graceMs = options.graceMs ?? core.gcGraceMs;
  const markStart = await backendNow(core);
  const cutoff = new Date(markStart.getTime() - graceMs);
  const firstMark = await markLive(core, held);
  await options.onMarked?.();
  const blobs = await collect(core.driver.list(BLOB_PREFIX));
  await afterListing?.();
  const blobIds = new Set(blobs.map((b) => idOfBlobKey(b.key)));
  const first = await markParts(core, firstMark, blobIds);
  const candidates = first.unreadable
    ? [] // a chunked artifact gc cannot read might hold any chunk: sweep no blob this time
    : blobs.filter((b) => {
        const id = idOfBlobKey(b.key);
        return id !== undefined && !firstMark.has(id) && b.modifiedAt < cutoff;
      });
  const secondMark = candidates.length > 0 ? await markLive(core, held) : firstMark;
  if (candidates.length > 0 && (await markParts(core, secondMark, blobIds)).unreadable) candidates.length = 0;
  const swept: ArtifactId[] = [];
  // Artifacts whose record went with their content: a whole artifact with its blob; a chunked one
  // (a record without a blob of its own) in the record pass below, with or after its manifest.
  const artifactsSwept = new Set<ArtifactId>();
  let bytesFreed = 0;
  let done = 0;
  options.onProgress?.(0, candidates.length);
  for (const blob of candidates) {
    const id = idOfBlobKey(blob.key)!;
    if (!secondMark.has(id)) {
      const removed = options.dryRun ? true : await core.driver.delete(blob.key, { ifUnmodifiedSince: cutoff });
      if (removed) {
        // Conditional too: a writer that re-stored the blob after the delete above has touched
        // (or written) the record since the cutoff, and keeps it. A writer that rewrites blobs without
        // touching an existing record (verifyOnDedupe off) may have stored the blob again meanwhile:
        // the record is then written again from the blob.
        if (options.dryRun) {
          if (await recordWouldGo(core, id, cutoff)) artifactsSwept.add(id);
        } else if (
          (await core.driver.delete(metaKey(id), { ifUnmodifiedSince: cutoff })) &&
          !(await restoreRecord(core, id))
        )
          artifactsSwept.add(id);
        swept.push(id);
        bytesFreed += blob.size;
      }
    }
    options.onProgress?.(++done, candidates.length);
  }
  // Records without a blob are garbage too once unreferenced: a chunked artifact's (its manifest and
  // chunks are swept above, or were before) and a whole artifact's whose blob a crash left gone.
  for (const meta of await collect(core.driver.list(META_PREFIX))) {
    const id = idOfMetaKey(meta.key);
    if (id && !blobIds.has(id) && meta.modifiedAt < cutoff && !secondMark.has(id)) {
      if ((await core.driver.head(blobKey(id))) !== undefined) continue;
      if (options.dryRun || (await core.driver.delete(meta.key, { ifUnmodifiedSince: cutoff }))) artifactsSwept.add(id);
    }
  }
  const temp = core.driver.sweepTemp ? await core.driver.sweepTemp(graceMs, { dryRun: options.dryRun === true }) : [];
  return {
    blobs_scanned: blobs.length,
    blobs_swept: swept.length,
    bytes_freed: bytesFreed,
    references_expired: referencesExpired,
    temp_files_removed: temp.length,
    dry_run: options.dryRun === true,
    swept: swept.sort(),
    artifacts_swept: [...artifactsSwept].sort(),
  };
}

export async function runVerify(core: StoreCore, options: VerifyOptions): Promise<VerifyReport> {
  const { driver } = core;
  const repair = options.repair === true;
  const problems: VerifyProblem[] = [];
  // Entries the driver did not write (a planted symlink, a FIFO) are reported, removed on repair (the entry itself,
  // never what a link points to) and not checked further: the content they stood for reads as missing until stashed again.
  const irregular = new Set<string>();
  const regular = async (prefix: string) => {
    const entries = await collect(driver.list(prefix));
    for (const entry of entries.filter((e) => e.irregular !== undefined)) {
      irregular.add(entry.key);
      if (repair) await driver.delete(entry.key);
      problems.push({
        kind: "irregular_file",
        key: entry.key,
        message: `a ${entry.irregular}, not a file the store wrote; stash the content again after removing it`,
        repaired: repair,
      });
    }
    return entries.filter((e) => e.irregular === undefined);
  };
  const blobs = await regular(BLOB_PREFIX);
  const metas = await regular(META_PREFIX);
  const refs = await regular(REF_PREFIX);
  const total = blobs.length + metas.length + refs.length;
  let done = 0;
  const tick = () => options.onProgress?.(++done, total);
  options.onProgress?.(0, total);
  const blobIds = new Set<ArtifactId>();
  const { chunked, partOf } = await verifyChunked(core, metas, new Set(blobs.map((b) => idOfBlobKey(b.key))), problems);

  await mapLimit(blobs, 8, async (blob) => {
    const id = idOfBlobKey(blob.key);
    try {
      if (id === undefined) {
        problems.push({ kind: "unreadable", key: blob.key, message: "not a well-formed blob key", repaired: false });
        return;
      }
      blobIds.add(id);
      const bytes = await driver.get(blob.key);
      if (bytes === undefined) return; // removed while we looked
      const actual = sha256Hex(bytes);
      if (actual !== id) {
        const breaks = partOf.get(id);
        problems.push({
          kind: "integrity",
          key: blob.key,
          artifact_id: id,
          message: `content hashes to ${actual.slice(0, 12)}…, not to its id; ${breaks ? `it is a part of ${breaks.map((a) => toShortRef(a)).join(", ")}, which cannot be read; ` : ""}stash the original content again to heal it`,
          repaired: false,
        });
        // Its record cannot be rebuilt from damaged content; a corrupt one is still reported, and removed on repair
        // (stashing the original content again writes both anew).
        try {
          await core.readRecord(id);
        } catch (error) {
          rethrowUnlessCorrupt(error);
          if (repair) await driver.delete(metaKey(id));
          problems.push({
            kind: "corrupt_metadata",
            key: metaKey(id),
            artifact_id: id,
            message: (error as Error).message,
            repaired: repair,
          });
        }
        return;
      }
      if (partOf.has(id)) return; // a chunk or manifest: it has no record of its own
      let record;
      let why = "missing";
      try {
        record = await core.readRecord(id);
      } catch (error) {
        rethrowUnlessCorrupt(error);
        why = (error as Error).message;
      }
      if (record === undefined) {
        if (repair) await driver.put(metaKey(id), encodeJson(core.buildRecord(id, bytes, {})));
        problems.push({
          kind: why === "missing" ? "missing_metadata" : "corrupt_metadata",
          key: metaKey(id),
          artifact_id: id,
          message: why === "missing" ? "content has no metadata record" : why,
          repaired: repair,
        });
      } else if (record.size_bytes !== bytes.byteLength) {
        if (repair)
          await driver.put(
            metaKey(id),
            encodeJson(ArtifactRecordSchema.parse({ ...record, size_bytes: bytes.byteLength })),
          );
        problems.push({
          kind: "corrupt_metadata",
          key: metaKey(id),
          artifact_id: id,
          message: `record says ${record.size_bytes} bytes, content has ${bytes.byteLength}`,
          repaired: repair,
        });
      }
    } finally {
      tick();
    }
  });

  for (const meta of metas) {
    const id = idOfMetaKey(meta.key);
    if (id === undefined)
      problems.push({ kind: "unreadable", key: meta.key, message: "not a well-formed metadata key", repaired: false });
    else if (chunked.has(id)) {
      // checked with its manifest and chunks above
    } else if (!blobIds.has(id) && (irregular.has(blobKey(id)) || (await driver.head(blobKey(id))) === undefined)) {
      if (repair) await driver.delete(meta.key);
      problems.push({
        kind: "missing_blob",
        key: meta.key,
        artifact_id: id,
        message: "metadata record without content",
        repaired: repair,
      });
    }
    tick();
  }

  await mapLimit(refs, 16, async (entry) => {
    const parsed = parseRefKey(entry.key);
    try {
      if (!parsed) {
        problems.push({
          kind: "unreadable",
          key: entry.key,
          message:
            "not a well-formed reference key (another layout version?); gc refuses to sweep while it exists: remove or restore it by hand",
          repaired: false,
        });
        return;
      }
      try {
        await core.readReference(parsed.session, parsed.id);
      } catch (error) {
        rethrowUnlessCorrupt(error);
        if (repair) await driver.delete(entry.key);
        problems.push({
          kind: "corrupt_reference",
          key: entry.key,
          artifact_id: parsed.id,
          message: (error as Error).message,
          repaired: repair,
        });
        return;
      }
      if (
        !blobIds.has(parsed.id) &&
        !chunked.has(parsed.id) &&
        (irregular.has(blobKey(parsed.id)) || (await driver.head(blobKey(parsed.id))) === undefined)
      ) {
        problems.push({
          kind: "missing_blob",
          key: entry.key,
          artifact_id: parsed.id,
          message: `session ${parsed.session} references content that is not stored`,
          repaired: false,
        });
      }
    } finally {
      tick();
    }
  });

  if (driver.sweepTemp) {
    for (const key of await driver.sweepTemp(core.gcGraceMs, { dryRun: !repair })) {
      problems.push({ kind: "temp_file", key, message: "leftover of an interrupted write", repaired: repair });
    }
  }
  problems.sort((a, b) => a.key.localeCompare(b.key));
  return {
    blobs_checked: blobs.length,
    ok: problems.every((p) => p.repaired),
    problems,
    repaired: problems.filter((p) => p.repaired).length,
  };
}

/**
 * Checks every chunked artifact (a record without a blob of its own that names a manifest): the
 * manifest is present and intact, and every chunk it lists is stored. Reports each broken
 * artifact with the part that breaks it; returns the chunked ids and, for each part, the
 * artifacts it belongs to (the blob pass names them when a part is corrupt).
 */
async function verifyChunked(
  core: StoreCore,
  metas: { key: string }[],
  blobIds: Set<ArtifactId | undefined>,
  problems: VerifyProblem[],
): Promise<{ chunked: Set<ArtifactId>; partOf: Map<ArtifactId, ArtifactId[]> }> {
  const chunked = new Set<ArtifactId>();
  const partOf = new Map<ArtifactId, ArtifactId[]>();
  const addPart = (part: ArtifactId, artifact: ArtifactId) => {
    const list = partOf.get(part) ?? [];
    if (!list.includes(artifact)) list.push(artifact);
    partOf.set(part, list);
  };
  const ids = metas
    .map((m) => idOfMetaKey(m.key))
    .filter((id): id is ArtifactId => id !== undefined && !blobIds.has(id));
  await mapLimit(ids, 8, async (id) => {
    let record;
    try {
      record = await core.readRecord(id);
    } catch (error) {
      rethrowUnlessCorrupt(error);
      return; // reported by the metadata pass as a record without content
    }
    if (record?.chunked === undefined) return;
    chunked.add(id);
    const manifestId = record.chunked.manifest;
    addPart(manifestId, id);
    const raw = await core.driver.get(blobKey(manifestId));
    if (raw === undefined) {
      problems.push({
        kind: "missing_blob",
        key: blobKey(manifestId),
        artifact_id: id,
        message: `the manifest of chunked artifact ${toShortRef(id)} is missing: the artifact cannot be read`,
        repaired: false,
      });
      return;
    }
    let manifest;
    try {
      manifest = parseManifest(raw, manifestId, id, record.size_bytes);
    } catch (error) {
      if (!isArefError(error)) throw error;
      problems.push({
        kind: "integrity",
        key: blobKey(manifestId),
        artifact_id: id,
        message: error.message,
        repaired: false,
      });
      return;
    }
    manifest.chunks.forEach(([chunkId], i) => {
      addPart(chunkId, id);
      if (!blobIds.has(chunkId)) {
        problems.push({
          kind: "missing_blob",
          key: blobKey(chunkId),
          artifact_id: id,
          message: `chunk ${i + 1} of ${manifest.chunks.length} of artifact ${toShortRef(id)} is missing: the artifact cannot be read; stash the original content again to restore it`,
          repaired: false,
        });
      }
    });
  });
  return { chunked, partOf };
}

export async function runStats(core: StoreCore): Promise<StoreStats> {
  const sizes = new Map<ArtifactId, number>();
  let bytes = 0;
  for await (const blob of core.driver.list(BLOB_PREFIX)) {
    const id = idOfBlobKey(blob.key);
    if (id === undefined) continue;
    sizes.set(id, blob.size);
    bytes += blob.size;
  }
  const sessions = new Set<string>();
  let references = 0;
  let logical = 0;
  const withoutBlob: ArtifactId[] = [];
  for await (const entry of core.driver.list(REF_PREFIX)) {
    const parsed = parseRefKey(entry.key);
    if (!parsed) continue;
    references++;
    sessions.add(parsed.session);
    const size = sizes.get(parsed.id);
    if (size === undefined) withoutBlob.push(parsed.id);
    else logical += size;
  }
  // A chunked artifact has no blob of its own: its logical size is its record's (its chunks and
  // manifest are counted as blobs). Each record is read once, however many references hold it.
  const chunkedSizes = new Map<ArtifactId, number>();
  await mapLimit([...new Set(withoutBlob)], 16, async (id) => {
    try {
      const record = await core.readRecord(id);
      if (record?.chunked !== undefined) chunkedSizes.set(id, record.size_bytes);
    } catch (error) {
      rethrowUnlessCorrupt(error); // verify reports it
    }
  });
  for (const id of withoutBlob) logical += chunkedSizes.get(id) ?? 0;
  return {
    blobs: sizes.size,
    bytes,
    references,
    sessions: sessions.size,
    logical_bytes: logical,
    dedupe_ratio: bytes === 0 ? 0 : Math.round((logical / bytes) * 1000) / 1000,
  };
}
