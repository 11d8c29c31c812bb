import { open } from "node:fs/promises";

/** Bytes read at a time by readFilePieces (4 of these are held at once: 4 MiB). */
export const FILE_PIECE_BYTES = 1024 * 1024;
/** The first this many bytes come in buffers of their own, never reused (see readFilePieces). */
export const FILE_PIECES_FRESH = 2 * FILE_PIECE_BYTES;
/** Buffers the reader cycles through after the fresh ones: one being read into, the others handed out. */
const RING = 4;

/**
 * A file's bytes as pieces for `ArtifactStore.putStream`, without a new buffer per read: after the
 * first FILE_PIECES_FRESH bytes (fresh buffers, which putStream may keep to decide between one blob
 * and chunks, and for the summary), the reader cycles through a few buffers of FILE_PIECE_BYTES, so
 * a big file makes no garbage per read (a `fs.createReadStream` allocates a buffer per read, and the
 * external memory of those drives full garbage collections during a big stash). The next piece is
 * read while the caller handles the current one. A piece past the fresh ones is valid only until
 * the caller asks for the piece after the next one: copy what must outlive that (putStream copies
 * everything it keeps past its first 512 KiB).
 */
export async function* readFilePieces(path: string): AsyncGenerator<Uint8Array, void, undefined> {
  const handle = await open(path, "r");
  try {
    const ring = Array.from({ length: RING }, () => new Uint8Array(0));
    let turn = 0;
    let position = 0;
    const read = async (): Promise<Uint8Array> => {
      let buffer: Uint8Array;
      if (position < FILE_PIECES_FRESH) buffer = new Uint8Array(FILE_PIECE_BYTES);
      else {
        if (ring[turn]!.byteLength === 0) ring[turn] = new Uint8Array(FILE_PIECE_BYTES);
        buffer = ring[turn]!;
        turn = (turn + 1) % RING;
      }
      const { bytesRead } = await handle.read(buffer, 0, buffer.byteLength, position);
      position += bytesRead;
      return buffer.subarray(0, bytesRead);
    };
    let next = read();
    for (;;) {
      const piece = await next;
      if (piece.byteLength === 0) return;
      next = read(); // read ahead: the piece after this one is read while the caller handles this one
      next.catch(() => undefined); // awaited above on the next turn
      yield piece;
    }
  } finally {
    await handle.close();
  }
}
