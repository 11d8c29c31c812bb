import { describe, expect, it } from "vitest";
import { run, tempFile, tempStore } from "./helpers.js";

describe("aref hot-state show", () => {
  it("builds a session's hot state within the caps, with short refs and the cuts", async () => {
    const store = tempStore();
    const refs: string[] = [];
    for (let i = 0; i < 23; i++) {
      const r = await run([
        "stash",
        tempFile(`out-${i}.log`, `line ${i}\n`.repeat(50)),
        "--store",
        store,
        "--session",
        "s1",
        "--json",
      ]);
      expect(r.code, r.err).toBe(0);
      refs.push(r.json().short_ref);
    }
    const r = await run(["hot-state", "show", "--session", "s1", "--store", store, "--json", "--pin", refs[0]!]);
    expect(r.code, r.err).toBe(0);
    const receipt = r.json();
    expect(receipt.schema).toBe("artifact-refs.hot-state.v1");
    expect(receipt.state.artifact_index).toHaveLength(20);
    expect(receipt.state.artifact_index[0].artifact_id).toBe(refs[0]);
    expect(
      receipt.state.artifact_index.every((e: { artifact_id: string }) => /^art:[0-9a-f]{12,}$/.test(e.artifact_id)),
    ).toBe(true);
    expect(receipt.tokens).toBeLessThanOrEqual(1000);
    expect(receipt.truncated).toBe(true);
    expect(receipt.cuts[0].what).toBe("3 index candidates beyond the cap");
    expect(receipt.cuts[0].recover).toMatch(/aref list --session s1/);
    // deterministic: the same store gives the same bytes
    const raw1 = await run(["hot-state", "show", "--session", "s1", "--store", store, "--raw", "--pin", refs[0]!]);
    const raw2 = await run(["hot-state", "show", "--session", "s1", "--store", store, "--raw", "--pin", refs[0]!]);
    expect(raw1.out).toBe(receipt.json);
    expect(raw2.out).toBe(raw1.out);
    const human = await run(["hot-state", "show", "--session", "s1", "--store", store]);
    expect(human.out).toMatch(
      /tokens, .* 20 of at most 20 index entries; truncated:\n {2}- 3 index candidates beyond the cap/,
    );
  });

  it("honours AREF_MAX_ARTIFACT_INDEX_ENTRIES", async () => {
    const store = tempStore();
    for (let i = 0; i < 3; i++)
      await run(["stash", tempFile(`f${i}.md`, `# doc ${i}\n`), "--store", store, "--session", "s2"]);
    const r = await run(["hot-state", "show", "--session", "s2", "--store", store, "--json"], {
      env: { AREF_MAX_ARTIFACT_INDEX_ENTRIES: "2" },
    });
    expect(r.json().state.artifact_index).toHaveLength(2);
  });

  it("an unknown session is exit 3; a bad session id is exit 4", async () => {
    const store = tempStore();
    await run(["stash", tempFile("a.txt", "a"), "--store", store, "--session", "s1"]);
    expect((await run(["hot-state", "show", "--session", "nobody", "--store", store])).code).toBe(3);
    expect((await run(["hot-state", "show", "--session", "bad/id", "--store", store])).code).toBe(4);
  });
});
