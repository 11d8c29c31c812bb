import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hasErrorCode } from "@artifact-refs/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  Externalizer,
  TranscriptWriter,
  isInjected,
  parseTranscriptText,
  readTranscript,
  rehydrateEntry,
  rehydrateTranscript,
  toolResultValue,
} from "../src/internal.js";
import { bigLog, memoryStore, tempDir } from "./helpers.js";

const session = "sess-tr";
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

describe("transcripts", () => {
  it("writes references instead of payloads and rehydrates byte-exact", async () => {
    const store = memoryStore();
    const path = join(dir, "sessions", "s.jsonl");
    const writer = new TranscriptWriter({ path, session, externalizer: new Externalizer({ store }) });
    const outputs = [
      bigLog(30_000, 1),
      "small output\n",
      `unicode ✓ ünïcødé 🚀\r\n${bigLog(12_000, 2)}`,
      bigLog(3_000, 3),
    ];
    await writer.appendMessage("system", "You are a test agent.");
    await writer.appendMessage("user", "go");
    for (const [i, output] of outputs.entries()) {
      await writer.appendMessage("assistant", "", { tool_calls: [{ id: `c${i}`, name: "sh", arguments: "{}" }] });
      await writer.appendToolResult({ tool: "sh", result: output, callId: `c${i}` });
    }
    await writer.flush();
    const file = await readFile(path, "utf8");
    expect(file.length).toBeLessThan(6_000); // payloads are not in the file
    expect(file).not.toContain(outputs[0]!.split("\n")[300]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "sessions"))).mode & 0o777).toBe(0o700);

    const transcript = await readTranscript(path);
    expect(transcript.entries).toHaveLength(10);
    const refs = transcript.entries.filter((e) => e.details?.artifactRef);
    expect(refs).toHaveLength(3);
    const back = await rehydrateTranscript(transcript, { store });
    expect(back.errors).toEqual([]);
    expect(back.rehydrated).toBe(3);
    const tools = back.entries.filter((e) => e.role === "tool").map((e) => e.content);
    expect(tools).toEqual(outputs);
    for (const e of back.entries) expect(e.details?.artifactRef).toBeUndefined();
  });

  it("restores JSON values exactly (payload: json)", async () => {
    const store = memoryStore();
    const path = join(dir, "j.jsonl");
    const writer = new TranscriptWriter({ path, session, externalizer: new Externalizer({ store }) });
    const big = { rows: Array.from({ length: 200 }, (_, i) => ({ i, v: `value-${i}`, nested: { ok: i % 2 === 0 } })) };
    const small = { ok: true, n: 3 };
    await writer.appendToolResult({ tool: "api", result: big });
    await writer.appendToolResult({ tool: "api", result: small });
    const { entries } = await readTranscript(path);
    expect(entries[0]!.details?.artifactRef?.payload).toBe("json");
    expect(await toolResultValue(entries[0]!, store)).toEqual(big);
    expect(await toolResultValue(entries[1]!, store)).toEqual(small);
    expect((await rehydrateEntry(entries[0]!, store)).content).toBe(JSON.stringify(big, null, 2));
  });

  it("reports an invalid JSONL line with its line number", async () => {
    const path = join(dir, "bad.jsonl");
    await writeFile(
      path,
      '{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}\n{"role": "tool", "content": oops}\n',
    );
    const error = await readTranscript(path).catch((e: unknown) => e);
    expect(hasErrorCode(error, "INVALID_INPUT")).toBe(true);
    expect((error as Error).message).toMatch(/bad\.jsonl:3: invalid JSON/);
    expect(() => parseTranscriptText('{"role":"user","content":"a"}\n{"role":"robot","content":"b"}\n')).toThrow(
      /transcript:2: not a transcript entry: role/,
    );
    expect(() => parseTranscriptText('{"role":"user","content":"a"}\n[1,2]\n')).toThrow(
      /transcript:2: expected a JSON object/,
    );
  });

  it("reads assistant tool calls with content null (OpenAI style) as empty content", () => {
    const t = parseTranscriptText(
      '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","name":"sh","arguments":"{}"}]}\n',
    );
    expect(t.entries[0]!.content).toBe("");
    expect(t.lines[0]!.raw.content).toBeNull();
    const nested = parseTranscriptText(
      '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"sh","arguments":"{}"}}]}\n',
    );
    expect(nested.entries[0]!.tool_calls).toEqual([{ id: "c1", name: "sh", arguments: "{}" }]);
    expect(nested.lines[0]!.raw.tool_calls).toEqual([
      { id: "c1", type: "function", function: { name: "sh", arguments: "{}" } },
    ]);
  });

  it("rejects an unknown format and reads JSON arrays and {messages: [...]}", async () => {
    expect(() => parseTranscriptText("role,content\nuser,hi\n")).toThrow(/unknown format/);
    expect(() => parseTranscriptText("[]", { format: "yaml" as never })).toThrow(/unknown transcript format "yaml"/);
    expect(parseTranscriptText('[{"role":"user","content":"a"}]').entries).toHaveLength(1);
    expect(
      parseTranscriptText('{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}').entries,
    ).toHaveLength(2);
    expect(() => parseTranscriptText('{"messages": 3,\n "x": 1}')).toThrow(/not an array of messages/);
    await expect(readTranscript(join(dir, "missing.jsonl"))).rejects.toSatisfy((e) => hasErrorCode(e, "NOT_FOUND"));
  });

  it("a missing artifact is a clear error for that entry; the rest is still readable", async () => {
    const store = memoryStore();
    const path = join(dir, "m.jsonl");
    const writer = new TranscriptWriter({ path, session, externalizer: new Externalizer({ store }) });
    const a = await writer.appendToolResult({ tool: "sh", result: bigLog(10_000, 1) });
    await writer.appendToolResult({ tool: "sh", result: bigLog(10_000, 2) });
    await writer.appendMessage("assistant", "done");
    await store.purge(a.artifactRef!.artifact_id);
    const transcript = await readTranscript(path);
    const back = await rehydrateTranscript(transcript, { store });
    expect(back.errors).toHaveLength(1);
    expect(back.errors[0]).toMatchObject({ index: 0, line: 1, ref: a.artifactRef!.short_ref, code: "NOT_FOUND" });
    expect(back.errors[0]!.message).toMatch(/line 1.*cannot rehydrate art:/);
    expect(back.entries[0]!.details?.rehydrationError).toMatchObject({ code: "NOT_FOUND" });
    expect(back.entries[1]!.content).toBe(bigLog(10_000, 2));
    expect(back.entries[2]!.content).toBe("done");
    await expect(rehydrateTranscript(transcript, { store, strict: true })).rejects.toSatisfy((e) =>
      hasErrorCode(e, "NOT_FOUND"),
    );
  });

  it("concurrent appends never interleave: every line is one valid entry, in call order", async () => {
    const store = memoryStore();
    const path = join(dir, "c.jsonl");
    const writer = new TranscriptWriter({ path, session, externalizer: new Externalizer({ store }) });
    const outputs = Array.from({ length: 40 }, (_, i) => (i % 2 ? `small ${i}` : bigLog(4_000 + i * 100, i)));
    await Promise.all(outputs.map((result, i) => writer.appendToolResult({ tool: "sh", result, callId: `c${i}` })));
    const transcript = await readTranscript(path);
    expect(transcript.entries.map((e) => e.tool_call_id)).toEqual(outputs.map((_, i) => `c${i}`));
    const back = await rehydrateTranscript(transcript, { store });
    expect(back.entries.map((e) => e.content)).toEqual(outputs);
  });

  it("redacts secrets in every persisted line: messages, tool-call arguments, tool results", async () => {
    const store = memoryStore();
    const path = join(dir, "r.jsonl");
    const writer = new TranscriptWriter({ path, session, externalizer: new Externalizer({ store }) });
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
    await writer.appendMessage("user", `use my token ${token}`);
    await writer.appendMessage("assistant", "", {
      tool_calls: [
        { id: "c1", name: "sh", arguments: JSON.stringify({ command: `curl -H 'Authorization: token ${token}'` }) },
      ],
    });
    const r = await writer.appendToolResult({
      tool: "sh",
      result: bigLog(5_000),
      args: { command: `curl ${token}` },
      callId: "c1",
    });
    await writer.appendMessage("assistant", "clean text stays as it is");
    const file = await readFile(path, "utf8");
    expect(file).not.toContain(token);
    const { entries } = await readTranscript(path);
    expect(entries[0]!.content).toBe("use my token [REDACTED:github_token]");
    expect(entries[0]!.details?.redactions).toEqual(["github_token"]);
    expect(entries[1]!.tool_calls![0]!.arguments).toContain("[REDACTED:github_token]");
    expect(entries[3]!.details).toBeUndefined();
    expect((await store.getRecord(r.artifactRef!.artifact_id, { session })).tool?.args).toEqual({
      command: "curl [REDACTED:github_token]",
    });
    const raw = new TranscriptWriter({
      path: join(dir, "raw.jsonl"),
      session,
      externalizer: new Externalizer({ store }),
      redact: false,
    });
    expect((await raw.appendMessage("user", token)).content).toBe(token);
  });

  it("tags injected context and rejects invalid entries", async () => {
    const store = memoryStore();
    const path = join(dir, "i.jsonl");
    const writer = new TranscriptWriter({ path, session, externalizer: new Externalizer({ store }) });
    await writer.appendInjected(bigLog(20_000));
    const { entries } = await readTranscript(path);
    expect(entries[0]!.details?.injected).toBe(true);
    expect(isInjected(entries[0]!.content)).toBe(true);
    await expect(writer.append({ role: "nobody" as never, content: "x" })).rejects.toThrow(
      /invalid transcript entry: role/,
    );
  });
});
