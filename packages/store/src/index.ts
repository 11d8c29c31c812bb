export { ArtifactStore, type OpenedArtifact, type PutResult } from "./artifact-store.js";
export { ChunkedArtifact, SINGLE_BLOB_MAX, CHUNK_PARALLELISM } from "./chunked.js";
export { CHUNK_MIN, CHUNK_AVG, CHUNK_MAX, CHUNKING_ALGORITHM, Chunker, chunkBytes } from "./chunking.js";
export { MANIFEST_VERSION, ManifestSchema, type Manifest, type ChunkInfo } from "./manifest.js";
export { MemoryDriver } from "./memory-driver.js";
export {
  SessionRecords,
  DEFAULT_MAX_RECORDS,
  DEFAULT_RECORD_MAX_AGE_MS,
  DEFAULT_PRUNE_EVERY,
  MAX_RECORD_PAGE,
  RECORD_CLOCK_SKEW_MS,
  type SessionRecordsOptions,
  type StoredRecord,
  type RecordPage,
  type RecordWarning,
  type BodySchema,
} from "./session-records.js";
export {
  assertValidKey,
  assertValidListPrefix,
  isValidKey,
  isValidListPrefix,
  type Driver,
  type DriverBatch,
  type DeleteOptions,
  type DriverEntry,
  type PutIfAbsentOptions,
  type VersionCondition,
  type VersionedValue,
} from "./driver.js";
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_BYTES as DEFAULT_MAX_ARTIFACT_BYTES,
  DEFAULT_GC_GRACE_MS,
  DEFAULT_REMOTE_GC_GRACE_FLOOR_MS,
  GcOptionsSchema,
  PutOptionsSchema,
  VerifyOptionsSchema,
  type ArtifactStoreOptions,
  type PutOptions,
  type SessionOption,
  type ReferenceReadOptions,
  type GcOptions,
  type VerifyOptions,
  type SummarizeInput,
} from "./options.js";
