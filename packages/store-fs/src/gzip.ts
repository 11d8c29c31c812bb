import { open } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip as gunzipCb, gzip as gzipCb } from "node:zlib";

const gzipAsync = promisify(gzipCb);
const gunzipAsync = promisify(gunzipCb);

export async function compress(data: Uint8Array): Promise<Uint8Array> {
  return gzipAsync(data);
}

/**
 * Decompresses a stored `.gz` file. A file that does not decompress (a flipped byte
 * breaks gzip's CRC) is returned as stored: its bytes cannot hash to the blob's id, so
 * ArtifactStore's integrity check fails the read with INTEGRITY and `verify` reports it,
 * exactly like a damaged uncompressed blob, and a re-put heals it.
 */
export async function decompress(stored: Uint8Array): Promise<Uint8Array> {
  try {
    return await gunzipAsync(stored);
  } catch {
    return stored;
  }
}

/**
 * The uncompressed size of a `.gz` file, from gzip's trailer (ISIZE: the size modulo
 * 2^32, exact for anything under 4 GiB). Falls back to the file's size when the file is
 * too short to be gzip.
 */
export async function gzipLogicalSize(path: string, fileSize: number): Promise<number> {
  if (fileSize < 18) return fileSize;
  const handle = await open(path, "r");
  try {
    const trailer = Buffer.alloc(4);
    const { bytesRead } = await handle.read(trailer, 0, 4, fileSize - 4);
    return bytesRead === 4 ? trailer.readUInt32LE(0) : fileSize;
  } finally {
    await handle.close();
  }
}
