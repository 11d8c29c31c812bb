import type { TranscriptEntry } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { Externalizer, collectReferences, isInjected, pruneTranscript } from "../src/internal.js";
import { bigLog, memoryStore } from "./helpers.js";

async function session(turns: number): Promise<TranscriptEntry[]> {
  const ext = new Externalizer({ store: memoryStore() });
  const entries: TranscriptEntry[] = [{ type: "message", role: "system", content: "sys" }];
  for (let i = 0; i < turns; i++) {
    entries.push({
      type: "message",
      role: "assistant",
      content: "",
      tool_calls: [{ id: `c${i}`, name: "sh", arguments: "{}" }],
    });
    entries.push(
      (await ext.externalize({ session: "p", tool: "sh", result: i % 2 ? "small" : bigLog(5_000, i), callId: `c${i}` }))
        .entry,
    );
  }
  return entries;
}

describe("pruneTranscript", () => {
  it("drops old entries but carries every reference in an injected index entry", async () => {
    const entries = await session(10);
    const refs = collectReferences(entries);
    expect(refs).toHaveLength(5);
    const pruned = pruneTranscript(entries, { keepLast: 4 });
    expect(pruned.dropped).toBe(16);
    expect(pruned.entries[0]!.content).toBe("sys");
    const index = pruned.entries[1]!;
    expect(isInjected(index.content)).toBe(true);
    expect(index.details?.injected).toBe(true);
    for (const r of pruned.carried) expect(index.content).toContain(r.short_ref);
    expect(
      collectReferences(pruned.entries)
        .map((r) => r.artifact_id)
        .sort(),
    ).toEqual(refs.map((r) => r.artifact_id).sort());
    // pruning again keeps the carried references too
    const twice = pruneTranscript(pruned.entries, { keepLast: 1 });
    expect(
      collectReferences(twice.entries)
        .map((r) => r.artifact_id)
        .sort(),
    ).toEqual(refs.map((r) => r.artifact_id).sort());
  });

  it("never separates a tool result from its call, and validates keepLast", async () => {
    const entries = await session(3);
    const pruned = pruneTranscript(entries, { keepLast: 1 });
    expect(pruned.entries.at(-2)!.role).toBe("assistant");
    expect(() => pruneTranscript(entries, { keepLast: -1 })).toThrow(/keepLast/);
    expect(pruneTranscript(entries, { keepLast: 100 }).dropped).toBe(0);
  });
});
