import { describe, expect, it } from "vitest";
import { ARENA_BYTES, ChunkArena, copyParts } from "../src/chunk-slots.js";

const filled = (size: number, seed: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) & 0xff);

describe("chunk copies cut from arenas (a driver batch's chunks)", () => {
  it("copies are exact, independent of their source, and consecutive ones are adjacent in one buffer", () => {
    const arena = new ChunkArena();
    const source = filled(200_000, 1);
    const a = arena.copy([source.subarray(0, 70_000)], 70_000);
    const b = arena.copy([source.subarray(70_000, 100_000), source.subarray(100_000, 130_000)], 60_000);
    source.fill(0); // the source is reused (a pooled buffer): the copies keep their bytes
    expect(a).toEqual(filled(200_000, 1).subarray(0, 70_000));
    expect(b).toEqual(filled(200_000, 1).subarray(70_000, 130_000));
    expect(b.buffer).toBe(a.buffer);
    expect(b.byteOffset).toBe(a.byteOffset + a.byteLength);
  });

  it("starts a new arena when a copy does not fit, and gives a copy larger than an arena its own allocation", () => {
    const arena = new ChunkArena();
    const first = arena.copy([filled(ARENA_BYTES - 10, 2)], ARENA_BYTES - 10);
    const next = arena.copy([filled(20, 3)], 20);
    expect(next.buffer).not.toBe(first.buffer);
    expect(next).toEqual(filled(20, 3));
    const big = filled(ARENA_BYTES + 1, 4);
    const own = arena.copy([big], big.byteLength);
    expect(own.byteLength).toBe(ARENA_BYTES + 1);
    expect(own.buffer.byteLength).toBe(ARENA_BYTES + 1);
    expect(own).toEqual(big);
    expect(arena.copy([filled(5, 5)], 5).buffer).toBe(next.buffer); // the current arena goes on
  });

  it("copyParts concatenates in order into a fresh buffer", () => {
    const out = copyParts([Uint8Array.of(1, 2), Uint8Array.of(), Uint8Array.of(3)], 3);
    expect([...out]).toEqual([1, 2, 3]);
    expect(out.buffer.byteLength).toBe(3);
  });
});
