import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArtifactStore } from "../src/artifact-store.js";
import { PIPELINE_AFTER } from "../src/chunked.js";
import { chunkJobsStarted } from "../src/chunk-worker.js";
import { MemoryDriver } from "../src/memory-driver.js";
import { PINNED_INPUTS, unevenPieces } from "./chunk-inputs.js";

/**
 * [artifact id, manifest id] of each input, recorded from the main-thread chunker before the chunking
 * moved to a worker thread (round 6). The manifest id pins every chunk boundary, chunk id, newline and
 * char count, the encoding and the line total: a stash must give the same manifest, byte for byte,
 * whichever path cut it and however the stream was split.
 */
const PINNED: Record<string, [string, string | null]> = {
  empty: ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", null],
  tiny: ["7e18f737311b2dc3b2f269dd78396b0351f14fb66efa879f768cb23181883c78", null],
  "log just over the blob cap": [
    "a2a83a513333451b448631c479210215bc49dad823f276b45ec603829608cd98",
    "46119ecbae919ada7ac8af37f5c006374b28cd2432846d42d12bb51e1c787e0a",
  ],
  "log 20 MiB": [
    "6c5fa0bf8a692309aea0c6f9a1e4d3597b13998569612688fb171899695dad0f",
    "4bba36ff4057af604c50756127f10cbe404ea9166d11b98696723ea42cd9ae42",
  ],
  "random bytes 12 MiB": [
    "5bc34af9c7c28c964d73d7e523653894c95940c1b22c1324d6fd990d01079558",
    "015ab6c15dbe3af0f6f1369ed3eb7685f2c68402170f88419af370d2590a4c6e",
  ],
  "CJK text 10 MiB (3-byte characters)": [
    "f6eca63a66b43c8b757b3cbf2930cf3c09e4c541edd5db050b8cdbc73f9b938f",
    "5490e4019753a83dc8e9a89bbefe6a295ef8b2dc1154d023bdc433a26588acbb",
  ],
  "emoji text 9 MiB (4-byte characters)": [
    "99ad3f5ed8cda76da26f0dacf09f8509e9e8a2315426c6e7021a698a7470c1be",
    "399b727fe8c69b92e81d573fd52c574d6866ba900b79eb0c48da0bc43a520fcb",
  ],
  "log with invalid UTF-8 near the end": [
    "f2f5fb67941ef8ac5000f50cfd6e94cfc26b8076a698a18318cbab03800e5825",
    "b4f72a177c4da5151d4e8429bd26c3883fdfaecd117f6595a8caad61609293b7",
  ],
  "log with a NUL in the middle": [
    "09c6d878f8253b45218ddf3a3e476d587be46766307af7d47c815192be7f8ad7",
    "ffe281fe27b9f48f8e8d52ca6339741de8b13d2f362fce1fce1471293ac7e764",
  ],
  "log without a final newline, 9 MiB": [
    "a7ea143d3be8d923a2ee7920e5172b9f5bb970444861f3d5f0ef3d62bf35c70d",
    "843d84d8a69dd87ed85ec2a66d7de222702a43ca611c7e2315495e2a6e8ebf46",
  ],
};

async function stash(pieces: Uint8Array[]): Promise<[string, string | null]> {
  const store = new ArtifactStore({ driver: new MemoryDriver() });
  async function* source() {
    yield* pieces;
  }
  const result = await store.putStream(source());
  // Every chunk reads back and checks against its id, and the whole against the artifact's id.
  const back = createHash("sha256");
  for await (const piece of await store.getStream(result.id)) back.update(piece);
  expect(back.digest("hex")).toBe(result.id);
  return [result.id, result.record.chunked?.manifest ?? null];
}

describe.each([
  ["the chunk worker past PIPELINE_AFTER", "on"],
  ["the main thread only (AREF_CHUNK_WORKER=off)", "off"],
])(
  "chunking is pinned: the same bytes give the same manifest as before, however they arrive, through %s",
  (_, mode) => {
    beforeAll(() => {
      process.env.AREF_CHUNK_WORKER = mode;
    });
    afterAll(() => {
      delete process.env.AREF_CHUNK_WORKER;
    });
    for (const [name, make] of Object.entries(PINNED_INPUTS)) {
      it(name, async () => {
        const bytes = make();
        const jobs = chunkJobsStarted();
        expect(PINNED[name]![0]).toBe(createHash("sha256").update(bytes).digest("hex"));
        expect(await stash(unevenPieces(bytes, 9))).toEqual(PINNED[name]);
        expect(await stash(unevenPieces(bytes, 31))).toEqual(PINNED[name]);
        expect(await stash(bytes.length > 0 ? [bytes] : [])).toEqual(PINNED[name]);
        // Content past PIPELINE_AFTER went through a pooled worker (3 stashes, 3 jobs), exactly when the worker is on.
        expect(chunkJobsStarted() - jobs).toBe(mode === "on" && bytes.length > PIPELINE_AFTER ? 3 : 0);
      }, 120_000);
    }
  },
);
