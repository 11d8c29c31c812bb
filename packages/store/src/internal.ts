/**
 * Internals the other workspace packages share (drivers, the CLI, the server, tests): content
 * hashing and decoding, the key layout, record keys and a bounded-concurrency map. Not part of
 * the public API: `import { blobKey } from "@artifact-refs/store/internal"`; may change in any release.
 */
export { sha256Hex, decodeUtf8, sniffMime, defaultSummary } from "./content.js";
export { mapLimit } from "./concurrency.js";
export { LAYOUT_VERSION, blobKey, metaKey, refKey, idOfBlobKey } from "./layout.js";
export { recordKey, parseRecordKey } from "./record-keys.js";
export { textOf } from "./artifact-store.js";
