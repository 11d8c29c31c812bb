import { createHash } from "node:crypto";
import { readdir, readlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { generatedLog } from "@artifact-refs/store/testing";
import { FILE_PIECES_FRESH, FILE_PIECE_BYTES, FsDriver, readFilePieces } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("readFilePieces: a file read for putStream with reused buffers", () => {
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ parent: dir, cleanup } = await tempRoot());
  });
  afterEach(async () => {
    await cleanup();
  });

  /** Collects the pieces, copying each as it comes (they may be reused later). */
  async function readAll(path: string): Promise<{ bytes: Buffer; pieces: Uint8Array[] }> {
    const copies: Buffer[] = [];
    const pieces: Uint8Array[] = [];
    for await (const piece of readFilePieces(path)) {
      copies.push(Buffer.from(piece));
      pieces.push(piece);
    }
    return { bytes: Buffer.concat(copies), pieces };
  }

  it.each([0, 1, FILE_PIECE_BYTES, FILE_PIECES_FRESH + 1, FILE_PIECES_FRESH + 7 * FILE_PIECE_BYTES + 123])(
    "gives back every byte of a %d-byte file, in order",
    async (size) => {
      const content = Buffer.alloc(size);
      for (let i = 0; i < size; i++) content[i] = (i * 7 + (i >> 12)) & 0xff;
      const path = join(dir, "f.bin");
      await writeFile(path, content);
      const { bytes, pieces } = await readAll(path);
      expect(bytes.equals(content)).toBe(true);
      expect(pieces.every((p) => p.byteLength > 0 && p.byteLength <= FILE_PIECE_BYTES)).toBe(true);
    },
  );

  it("reuses its buffers past the first FILE_PIECES_FRESH bytes only", async () => {
    const path = join(dir, "f.bin");
    await writeFile(path, Buffer.alloc(FILE_PIECES_FRESH + 10 * FILE_PIECE_BYTES, 1));
    const { pieces } = await readAll(path);
    const buffers = pieces.map((p) => p.buffer);
    const fresh = FILE_PIECES_FRESH / FILE_PIECE_BYTES;
    // The fresh pieces share no buffer with any other piece; the rest cycle through a few.
    for (let i = 0; i < fresh; i++) expect(buffers.filter((b) => b === buffers[i]).length).toBe(1);
    expect(new Set(buffers.slice(fresh)).size).toBeLessThan(pieces.length - fresh);
  });

  it("is a source putStream stores exactly, chunked, whatever it reuses after its first pieces", async () => {
    const text = generatedLog(200_000, 3); // ~12 MB: chunked, cut by the worker past its first batch
    const path = join(dir, "big.log");
    await writeFile(path, text);
    const file = Buffer.from(text);
    const store = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "store"), fsync: false }) });
    const put = await store.putStream(readFilePieces(path), { session: "s1" });
    expect(put.id).toBe(sha256(file));
    expect(put.record.size_bytes).toBe(file.byteLength);
    const stored = await store.get(put.id);
    expect(Buffer.from(stored).equals(file)).toBe(true);
    // The summary and MIME sniff come from the first pieces, which putStream keeps until the end.
    const other = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "other"), fsync: false }) });
    const once = await other.putStream(
      (async function* () {
        yield new Uint8Array(file);
      })(),
      { session: "s1" },
    );
    expect(once.id).toBe(put.id);
    expect(put.record.summary).toBe(once.record.summary);
    expect(put.record.mime).toBe(once.record.mime);
    await store.close();
    await other.close();
  });

  it("closes the file when the caller stops early (a put over the cap)", async () => {
    const path = join(dir, "over.bin");
    await writeFile(path, Buffer.alloc(FILE_PIECES_FRESH + 6 * FILE_PIECE_BYTES, 7));
    const openOnIt = async () => {
      let n = 0;
      for (const fd of await readdir("/proc/self/fd"))
        if ((await readlink(`/proc/self/fd/${fd}`).catch(() => "")) === path) n++;
      return n;
    };
    const store = new ArtifactStore({
      driver: new FsDriver({ root: join(dir, "capped"), fsync: false }),
      maxBytes: FILE_PIECES_FRESH + 2 * FILE_PIECE_BYTES,
    });
    await expect(store.putStream(readFilePieces(path), { session: "s1" })).rejects.toMatchObject({
      code: "TOO_LARGE",
    });
    expect(await openOnIt()).toBe(0);
    await store.close();
  });
});
