import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { hasErrorCode } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { sessionHotState } from "@artifact-refs/hot-state";

describe("sessionHotState", () => {
  it("indexes a session's references (oldest first, newest kept), with summaries from the records", async () => {
    let t = Date.parse("2025-01-01T00:00:00Z");
    const store = new ArtifactStore({ driver: new MemoryDriver(), now: () => new Date((t += 1000)) });
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      const put = await store.put(`output ${i}\n`.repeat(20), {
        session: "s1",
        type: "log",
        label: `run-${i}.log`,
        summary: `run ${i} output`,
      });
      ids.push(put.id);
    }
    const built = await sessionHotState(store, "s1", {
      state: { objective: "find the failing run" },
      pinned: [`art:${ids[0]!.slice(0, 12)}`],
    });
    const index = built.state.artifact_index!;
    expect(index).toHaveLength(20);
    expect(index[0]).toMatchObject({ label: "run-0.log", summary: "run 0 output", type: "log" });
    expect(index.map((e) => e.label)).toEqual([
      "run-0.log",
      ...Array.from({ length: 19 }, (_, k) => `run-${k + 3}.log`),
    ]);
    expect(built.cuts[0]!.what).toBe("2 index candidates beyond the cap");
    expect(built.cuts[0]!.recover).toContain("aref list --session s1");
    expect(built.state.objective).toBe("find the failing run");
    await store.close();
  });

  it("an unknown session is UNKNOWN_SESSION", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    await expect(sessionHotState(store, "nobody")).rejects.toSatisfy((e: unknown) =>
      hasErrorCode(e, "UNKNOWN_SESSION"),
    );
  });
});
