import { stat, readFile } from "node:fs/promises";
import { hasErrorCode } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import {
  ArtifactsGetTool,
  Externalizer,
  artifactArgModes,
  artifactsGetDefinition,
  resolveArtifactArgs,
  stripArtifactAnnotations,
  type ArtifactsGetAnswer,
  type LoopGuardAnswer,
} from "../src/internal.js";
import { bigLog, memoryStore } from "./helpers.js";

const session = "sess-get";

async function setup(content: unknown = bigLog(60_000)) {
  const store = memoryStore();
  const ext = new Externalizer({ store });
  const r = await ext.externalize({ session, tool: "sh", result: content, label: "test log" });
  const tool = new ArtifactsGetTool({ store, session });
  return { store, ext, ref: r.artifactRef!, tool };
}

describe("artifacts_get", () => {
  it("has a neutral JSON-schema definition", () => {
    const def = artifactsGetDefinition();
    expect(def.name).toBe("artifacts_get");
    expect(def.parameters).toMatchObject({ type: "object", required: ["ref"], additionalProperties: false });
    expect(JSON.parse(JSON.stringify(def))).toEqual(def);
  });

  it("fetches in the same turn that externalized, by short ref, bounded", async () => {
    const { tool, ref } = await setup();
    const answer = (await tool.call({ ref: ref.short_ref })) as ArtifactsGetAnswer;
    expect(answer.artifact_reference).toBe(ref.short_ref);
    expect(answer.chars).toBeLessThanOrEqual(8_000);
    expect(answer.text.length).toBeLessThanOrEqual(8_000);
    expect(answer.truncated).toBe(true);
    expect(answer.label).toBe("test log");
    expect(answer.omitted).toBeDefined();
  });

  it("applies selectors (nested or flat) and caps maxChars to the tool's cap", async () => {
    const { tool, ref } = await setup();
    const grep = (await tool.call({
      ref: ref.handle,
      selector: { mode: "grep", pattern: "ERROR", context: 0, maxMatches: 3 },
    })) as ArtifactsGetAnswer;
    expect(grep.text.split("\n").filter((l) => l.includes("ERROR")).length).toBeGreaterThanOrEqual(3);
    const range = (await tool.call(
      JSON.stringify({ ref: ref.artifact_id, mode: "range", start: 2, end: 3 }),
    )) as ArtifactsGetAnswer;
    expect(range.text).toBe(`${bigLog(60_000).split("\n").slice(1, 3).join("\n")}\n`);
    const small = new ArtifactsGetTool({ store: tool.store, session, maxChars: 500 });
    const capped = (await small.call({
      ref: ref.short_ref,
      selector: { mode: "headtail", maxChars: 50_000 },
    })) as ArtifactsGetAnswer;
    expect(capped.text.length).toBeLessThanOrEqual(500);
    expect(capped.note).toMatch(/over this tool's cap/);
  });

  it("guards against loops: the same fetch again and again gets narrower selectors, not the payload", async () => {
    const { tool, ref } = await setup();
    await tool.call({ ref: ref.short_ref });
    await tool.call({ ref: ref.short_ref });
    const third = (await tool.call({ ref: ref.short_ref })) as LoopGuardAnswer;
    expect(third.loop_guard).toBe(true);
    expect("text" in third).toBe(false);
    expect(third.suggestions.length).toBeGreaterThan(1);
    expect(third.suggestions[0]).not.toEqual({ mode: "headtail" });
    expect(third.note).toMatch(/2 times/);
    // a different selector is still served
    expect(
      ((await tool.call({ ref: ref.short_ref, selector: third.suggestions[1] })) as ArtifactsGetAnswer).text.length,
    ).toBeGreaterThan(0);
    tool.resetLoopGuard();
    expect("text" in (await tool.call({ ref: ref.short_ref }))).toBe(true);
  });

  it("answers errors in plain text from handle() (CODE: message, a hint naming a tool), and throws from call()", async () => {
    const { tool, store } = await setup();
    const missing = await tool.handle({ ref: "art:000000000000" });
    expect(missing).toMatch(/^NOT_FOUND: /);
    expect(missing).not.toMatch(/`aref|\baref [a-z]/);
    expect(await tool.handle({ ref: "art:XYZ" })).toMatch(/^INVALID_HANDLE: /);
    expect(await tool.handle({ ref: "art:000000000000", selector: { mode: "nope" } })).toMatch(/^INVALID_SELECTOR: /);
    await expect(tool.call({ ref: "x", extra: 1 })).rejects.toSatisfy((e) => hasErrorCode(e, "INVALID_INPUT"));
    await expect(tool.call("{not json")).rejects.toThrow(/not valid JSON/);
    // another session cannot read this session's artifact by short ref
    const other = new ArtifactsGetTool({ store, session: "other-session" });
    const { ref } = await setup();
    await expect(other.call({ ref: ref.short_ref })).rejects.toSatisfy((e) => hasErrorCode(e, "NOT_FOUND"));
  });

  it("its own results are never externalized", async () => {
    const { tool, ext, ref } = await setup();
    const content = await tool.handle({ ref: ref.short_ref, selector: { mode: "headtail", maxChars: 8000 } });
    expect(content.length).toBeGreaterThan(2_000);
    expect((await ext.externalize({ session, tool: tool.name, result: content })).action).toBe("inline");
  });
});

describe("handles in tool arguments", () => {
  it("resolves to content or to a 0600 temp file path, as the tool declares", async () => {
    const { store, ref } = await setup(bigLog(5_000));
    const declared = {
      name: "analyze",
      description: "x",
      parameters: {
        type: "object",
        properties: {
          text: { type: "string", resolveArtifacts: "content" },
          file: { type: "string", resolveArtifacts: "path" },
          note: { type: "string" },
        },
      },
    };
    const modes = artifactArgModes(declared);
    expect(modes).toEqual({ text: "content", file: "path" });
    expect(JSON.stringify(stripArtifactAnnotations(declared))).not.toContain("resolveArtifacts");
    const result = await resolveArtifactArgs(
      { text: ref.short_ref, file: `cat ${ref.short_ref} | wc -l`, note: ref.short_ref },
      modes,
      { store, session },
    );
    expect(result.args.text).toBe(bigLog(5_000));
    expect(result.args.note).toBe(ref.short_ref); // undeclared: untouched
    const path = result.resolved.find((r) => r.mode === "path")!.path!;
    expect(result.args.file).toBe(`cat ${path} | wc -l`);
    expect(await readFile(path, "utf8")).toBe(bigLog(5_000));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await result.cleanup();
    await expect(stat(path)).rejects.toThrow();
  });

  it("fails clearly for an unknown handle and a bad declaration", async () => {
    const { store } = await setup(bigLog(5_000));
    await expect(
      resolveArtifactArgs({ a: "art:ffffffffffff" }, { a: "content" }, { store, session }),
    ).rejects.toSatisfy((e) => hasErrorCode(e, "NOT_FOUND"));
    expect(() => artifactArgModes({ resolveArtifacts: { a: "inline" as never } })).toThrow(/use "content" or "path"/);
  });
});
