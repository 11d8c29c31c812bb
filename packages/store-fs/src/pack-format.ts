import { createHash } from "node:crypto";

/**
 * Pack files: many blobs of one batch (a chunked put's chunks) in one immutable file, so a big put
 * creates a few files instead of one per ~64 KiB chunk.
 *
 *   <root>/~packs/<name>.pack   the blobs back to back, then the index, then a fixed trailer
 *   <root>/~packs/<name>.dead   append-only log of the pack's keys deleted (see packs.ts)
 *
 * `~` cannot appear in a key, so no key ever maps into this directory.
 *
 * Index: one 40-byte entry per blob, in file order: the blob id (32 raw bytes of its SHA-256),
 * the stored length (u32 LE) and the logical length (u32 LE; differs when gzip is on). Offsets are
 * cumulative from 0. Trailer (64 bytes): magic "AREFPACK", version u32, flags u32 (1: gzip),
 * entry count u32, reserved u32, index offset u64, SHA-256 of the index. A pack whose trailer or
 * index does not check out is not read at all (its blobs read as missing: verify reports them).
 */
export const PACK_DIR = "~packs";
export const PACK_SUFFIX = ".pack";
export const DEAD_SUFFIX = ".dead";
export const PACK_VERSION = 1;
export const FLAG_GZIP = 1;
const MAGIC = Buffer.from("AREFPACK", "ascii");
export const TRAILER_BYTES = 64;
const ENTRY_BYTES = 40;

export interface PackEntry {
  id: string;
  offset: number;
  stored: number;
  logical: number;
}

/** The index and trailer that end a pack whose blobs (in `entries` order, from offset 0) end at `indexOffset`. */
export function encodeIndex(entries: readonly PackEntry[], indexOffset: number, gzip: boolean): Buffer {
  const index = Buffer.alloc(entries.length * ENTRY_BYTES);
  entries.forEach((e, i) => {
    const at = i * ENTRY_BYTES;
    index.write(e.id, at, 32, "hex");
    index.writeUInt32LE(e.stored, at + 32);
    index.writeUInt32LE(e.logical, at + 36);
  });
  const trailer = Buffer.alloc(TRAILER_BYTES);
  MAGIC.copy(trailer, 0);
  trailer.writeUInt32LE(PACK_VERSION, 8);
  trailer.writeUInt32LE(gzip ? FLAG_GZIP : 0, 12);
  trailer.writeUInt32LE(entries.length, 16);
  trailer.writeBigUInt64LE(BigInt(indexOffset), 24);
  createHash("sha256").update(index).digest().copy(trailer, 32);
  return Buffer.concat([index, trailer]);
}

/** Where the index is and how many entries it has, or undefined when `trailer` is not a pack trailer of a file of `fileSize` bytes. */
export function decodeTrailer(
  trailer: Uint8Array,
  fileSize: number,
): { count: number; indexOffset: number; gzip: boolean; digest: Buffer } | undefined {
  const t = Buffer.from(trailer.buffer, trailer.byteOffset, trailer.byteLength);
  if (t.byteLength !== TRAILER_BYTES || !t.subarray(0, 8).equals(MAGIC) || t.readUInt32LE(8) !== PACK_VERSION)
    return undefined;
  const count = t.readUInt32LE(16);
  const indexOffset = Number(t.readBigUInt64LE(24));
  if (indexOffset + count * ENTRY_BYTES + TRAILER_BYTES !== fileSize) return undefined;
  return { count, indexOffset, gzip: (t.readUInt32LE(12) & FLAG_GZIP) !== 0, digest: Buffer.from(t.subarray(32, 64)) };
}

/** The entries of an index checked against the trailer's digest, or undefined when it does not check out. */
export function decodeIndex(
  index: Uint8Array,
  count: number,
  indexOffset: number,
  digest: Buffer,
): PackEntry[] | undefined {
  const b = Buffer.from(index.buffer, index.byteOffset, index.byteLength);
  if (b.byteLength !== count * ENTRY_BYTES || !createHash("sha256").update(b).digest().equals(digest)) return undefined;
  const entries: PackEntry[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const at = i * ENTRY_BYTES;
    const stored = b.readUInt32LE(at + 32);
    entries.push({ id: b.toString("hex", at, at + 32), offset, stored, logical: b.readUInt32LE(at + 36) });
    offset += stored;
  }
  return offset === indexOffset ? entries : undefined;
}

/** Dead-log operations, one 66-byte line each: `<op><64-hex id>\n`. */
export type DeadOp = "?" | "+" | "-" | "!";
export const DEAD_LINE_BYTES = 66;

export function deadLine(op: DeadOp, id: string): string {
  return `${op}${id}\n`;
}
