import { describe, expect, it } from "vitest";
import { SessionRefs, toolArgs, type ExternalizedResult, type ToolOutputCall } from "../src/index.js";
import { bigLog, memoryStore } from "./helpers.js";

describe("SessionRefs", () => {
  it("toolContent answers artifacts_get itself (bad calls flagged isError) and externalizes any other output, telling onResult", async () => {
    const heard: Array<{ result: ExternalizedResult; call: ToolOutputCall }> = [];
    const store = memoryStore();
    const refs = new SessionRefs({ store, session: "s1" }, "createTestRefs", (result, call) =>
      heard.push({ result, call }),
    );
    const log = bigLog(50_000);
    const stashed = await refs.toolContent(
      { name: "read_log", id: "c1", args: { path: "a.log" } },
      { path: "a.log" },
      () => log,
    );
    const [record] = await store.listReferences("s1");
    const short = await store.shortRef(record!.artifact_id, { session: "s1" });
    expect(stashed.isError).toBe(false);
    expect(stashed.text).toContain(short);
    expect(stashed.text).not.toContain(log.split("\n")[200]);
    const small = await refs.toolContent({ name: "add", id: "c2" }, {}, { sum: 3 });
    expect(small.isError).toBe(false);
    expect(JSON.parse(small.text)).toEqual({ sum: 3 });
    // artifacts_get answers in plain text: the matching lines, then what they were.
    const answer = await refs.toolContent(
      { name: "artifacts_get", id: "c3" },
      JSON.stringify({ ref: short, selector: { mode: "grep", pattern: "ERROR" } }),
    );
    expect(answer).toMatchObject({ isError: false, text: expect.stringMatching(/^\d+:.*ERROR/) });
    expect(answer.code).toBeUndefined();
    expect(answer.text).toContain(`[artifacts_get: `);
    // A bad artifacts_get call is an error answer with its stable code, for every adapter to flag.
    expect(await refs.toolContent({ name: "artifacts_get", id: "c4" }, "{oops")).toEqual({
      text: expect.stringMatching(/^INVALID_INPUT: /),
      isError: true,
      code: "INVALID_INPUT",
    });
    expect(await refs.toolContent({ name: "artifacts_get", id: "c6" }, { ref: `art:${"0".repeat(12)}` })).toEqual({
      text: expect.stringMatching(/^NOT_FOUND: /),
      isError: true,
      code: "NOT_FOUND",
    });
    expect(heard.map((h) => h.call)).toEqual([
      { name: "read_log", id: "c1", args: { path: "a.log" } },
      { name: "add", id: "c2" },
    ]);
    expect(heard[0]!.result.artifactRef?.artifact_id).toBe(record!.artifact_id);
    await expect(
      refs.toolContent({ name: "add", id: "c5" }, {}, undefined, undefined, "use refs.x(call, output)"),
    ).rejects.toThrow(expect.objectContaining({ code: "INVALID_INPUT", hint: "use refs.x(call, output)" }));
    expect(heard).toHaveLength(2);
  });

  it("names the caller's factory when options are missing", () => {
    expect(() => new SessionRefs(undefined as never, "createTestRefs")).toThrow(
      /createTestRefs needs \{ store, session \}/,
    );
  });

  it("toolArgs keeps JSON objects only", () => {
    expect(toolArgs({ a: 1 })).toEqual({ a: 1 });
    for (const value of [null, undefined, "{}", 3, [1, 2]]) expect(toolArgs(value)).toBeUndefined();
  });
});
