import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hasErrorCode } from "@artifact-refs/schema";
import { afterEach, describe, expect, it } from "vitest";
import { Externalizer, TranscriptWriter } from "@artifact-refs/context";
import {
  analyzeFiles,
  analyzeTexts,
  loadReplayMessages,
  parseReplayTranscript,
  type ReplayMessage,
} from "../src/index.js";
import { bigLog, memoryStore, tempDir } from "./helpers.js";

const BASE: ReplayMessage[] = [
  { role: "system", content: "You are an agent." },
  { role: "user", content: "List the files, then read the log." },
  { role: "assistant", content: "ls", tool_calls: [{ id: "c1", name: "bash", arguments: '{"cmd":"ls"}' }] },
  { role: "tool", content: "a.txt\nb.log\n", tool_name: "bash", tool_call_id: "c1" },
  {
    role: "assistant",
    content: "cat b.log",
    tool_calls: [{ id: "c2", name: "bash", arguments: '{"cmd":"cat b.log"}' }],
  },
  { role: "tool", content: bigLog(12_000), tool_name: "bash", tool_call_id: "c2" },
  { role: "assistant", content: "Done: the log has errors." },
];

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe("transcript formats", () => {
  it("reads trajectory JSONL as it is", () => {
    const parsed = parseReplayTranscript(jsonl(BASE), "t.jsonl");
    expect(parsed.format).toBe("trajectory-jsonl");
    expect(parsed.messages).toEqual(BASE);
  });

  it("reads an OpenAI chat messages array (tool_calls, tool role, content parts) and the {messages} wrapper", () => {
    const openai = [
      { role: "developer", content: "You are an agent." },
      { role: "user", content: [{ type: "text", text: "List the files, then read the log." }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"cmd":"ls"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "a.txt\nb.log\n" },
      { role: "assistant", content: "Done." },
    ];
    for (const text of [JSON.stringify(openai), JSON.stringify({ model: "gpt-x", messages: openai }, null, 2)]) {
      const parsed = parseReplayTranscript(text, "o.json");
      expect(parsed.format).toBe("openai");
      expect(parsed.messages).toEqual([
        { role: "system", content: "You are an agent." },
        { role: "user", content: "List the files, then read the log." },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "bash", arguments: '{"cmd":"ls"}' }] },
        { role: "tool", content: "a.txt\nb.log\n", tool_call_id: "c1", tool_name: "bash" },
        { role: "assistant", content: "Done." },
      ]);
    }
  });

  it("reads the legacy OpenAI function_call / function role", () => {
    const legacy = [
      { role: "user", content: "hi" },
      { role: "assistant", content: null, function_call: { name: "bash", arguments: '{"cmd":"ls"}' } },
      { role: "function", name: "bash", content: "a.txt" },
      { role: "assistant", content: "Done." },
    ];
    expect(parseReplayTranscript(JSON.stringify(legacy)).messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "", tool_calls: [{ id: null, name: "bash", arguments: '{"cmd":"ls"}' }] },
      { role: "tool", content: "a.txt", tool_name: "bash" },
      { role: "assistant", content: "Done." },
    ]);
  });

  it("reads an Anthropic messages array with system, tool_use and tool_result blocks", () => {
    const anthropic = {
      system: [{ type: "text", text: "You are an agent." }],
      messages: [
        { role: "user", content: "List the files." },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Listing." },
            { type: "tool_use", id: "tu1", name: "bash", input: { cmd: "ls" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "tu1", content: [{ type: "text", text: "a.txt" }] },
            { type: "text", text: "Now read it." },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "Done." }] },
      ],
    };
    const parsed = parseReplayTranscript(JSON.stringify(anthropic), "a.json");
    expect(parsed.format).toBe("anthropic");
    expect(parsed.messages).toEqual([
      { role: "system", content: "You are an agent." },
      { role: "user", content: "List the files." },
      { role: "assistant", content: "Listing.", tool_calls: [{ id: "tu1", name: "bash", arguments: '{"cmd":"ls"}' }] },
      { role: "tool", content: "a.txt", tool_call_id: "tu1", tool_name: "bash" },
      { role: "user", content: "Now read it." },
      { role: "assistant", content: "Done." },
    ]);
    // Thinking blocks of earlier turns are not re-sent, so they are not counted.
    const thinking = structuredClone(anthropic);
    (thinking.messages[1]!.content as Array<Record<string, unknown>>).unshift({
      type: "thinking",
      thinking: "secret plan",
      text: "secret plan",
    });
    expect(parseReplayTranscript(JSON.stringify(thinking)).messages[2]!.content).toBe("Listing.");
    // A bare array is recognised by its blocks.
    expect(parseReplayTranscript(JSON.stringify(anthropic.messages)).format).toBe("anthropic");
  });

  it("replays this project's transcript JSONL, restoring referenced payloads from the store", async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    const store = memoryStore();
    const path = join(dir, "s1.jsonl");
    const writer = new TranscriptWriter({ path, session: "s1", externalizer: new Externalizer({ store }) });
    for (const m of BASE) {
      if (m.role === "tool")
        await writer.appendToolResult({ tool: m.tool_name!, result: m.content, callId: m.tool_call_id! });
      else
        await writer.appendMessage(
          m.role as "system" | "user" | "assistant",
          m.content,
          m.tool_calls ? { tool_calls: m.tool_calls } : {},
        );
    }
    await writer.flush();
    const text = await readFile(path, "utf8");
    expect(text).not.toContain(BASE[5]!.content.slice(0, 200)); // the big output is a reference
    await expect(loadReplayMessages(text, path)).rejects.toSatisfy(
      (e) => hasErrorCode(e, "INVALID_INPUT") && /--store/.test((e as { hint?: string }).hint ?? ""),
    );
    const parsed = await loadReplayMessages(text, path, store);
    expect(parsed.format).toBe("project-jsonl");
    expect(parsed.messages.map((m) => m.content)).toEqual(BASE.map((m) => m.content));
    const fromProject = await analyzeFiles([path], { store: async () => store });
    const fromPlain = await analyzeTexts([{ name: "plain.jsonl", text: jsonl(BASE) }]);
    expect(fromProject.naive_tokens).toBe(fromPlain.naive_tokens);
    expect(fromProject.strategies).toEqual(fromPlain.strategies);
  });
});

describe("bad input", () => {
  it("names the line of invalid JSONL", () => {
    const text = `${JSON.stringify(BASE[0])}\n${JSON.stringify(BASE[1])}\n{"role": "assistant", "content": \n`;
    expect(() => parseReplayTranscript(text, "broken.jsonl")).toThrow(/broken\.jsonl:3: invalid JSON/);
    try {
      parseReplayTranscript(text, "broken.jsonl");
    } catch (e) {
      expect(hasErrorCode(e, "INVALID_INPUT")).toBe(true);
    }
  });

  it("names the line of a JSONL entry that is not a message", () => {
    const text = `${JSON.stringify(BASE[0])}\n{"role":42,"content":"x"}\n`;
    expect(() => parseReplayTranscript(text, "bad.jsonl")).toThrow(/bad\.jsonl:2: not a transcript entry/);
    // An unknown role name is not an error: replayed by size and position, with a warning.
    const robot = parseReplayTranscript(`${JSON.stringify(BASE[0])}\n{"role":"robot","content":"x"}\n`, "robot.jsonl");
    expect(robot.messages[1]!.role).toBe("user");
    expect(robot.warnings![0]).toMatch(/unknown role "robot"/);
  });

  it("rejects unknown formats and empty files", () => {
    const unsupported = (text: string) => {
      try {
        parseReplayTranscript(text, "x");
      } catch (e) {
        return hasErrorCode(e, "UNSUPPORTED") ? (e as Error).message : `wrong error: ${String(e)}`;
      }
      return "no error";
    };
    expect(unsupported("hello world")).toMatch(/unknown transcript format in x/);
    expect(unsupported('{"transcript": []}')).toMatch(/without a "messages" array/);
    expect(() => parseReplayTranscript("   \n", "e")).toThrow(/e is empty/);
    expect(() => parseReplayTranscript("[1, 2", "a.json")).toThrow(/a\.json is not valid JSON/);
  });

  it("names the message of an invalid OpenAI or Anthropic array", () => {
    expect(() =>
      parseReplayTranscript(JSON.stringify([{ role: "user", content: "x" }, { content: "no role" }]), "o.json"),
    ).toThrow(/o\.json: message 2 is not a valid OpenAI chat message/);
    const anthropic = [
      { role: "user", content: [{ type: "text", text: "x" }] },
      { role: "tool", content: [{ type: "tool_result", tool_use_id: "a", content: "y" }] },
    ];
    expect(() => parseReplayTranscript(JSON.stringify(anthropic), "a.json")).toThrow(
      /a\.json: message 2 is not a valid Anthropic message/,
    );
  });

  it("refuses a transcript with no model call", async () => {
    await expect(analyzeTexts([{ name: "q.jsonl", text: jsonl(BASE.slice(0, 2)) }])).rejects.toThrow(
      /no assistant message/,
    );
  });

  it("names files by their path when two have the same base name", async () => {
    const a = await tempDir();
    const b = await tempDir();
    cleanups.push(a.cleanup, b.cleanup);
    await writeFile(join(a.dir, "s.jsonl"), jsonl(BASE));
    await writeFile(join(b.dir, "s.jsonl"), jsonl(BASE));
    await writeFile(join(b.dir, "other.jsonl"), jsonl(BASE));
    const r = await analyzeFiles([join(a.dir, "s.jsonl"), join(b.dir, "s.jsonl"), join(b.dir, "other.jsonl")]);
    expect(r.files.map((f) => f.file)).toEqual([join(a.dir, "s.jsonl"), join(b.dir, "s.jsonl"), "other.jsonl"]);
    expect(new Set(r.turns.map((t) => t.file)).size).toBe(3);
  });

  it("reports a missing file as NOT_FOUND", async () => {
    const { dir, cleanup } = await tempDir();
    cleanups.push(cleanup);
    await writeFile(join(dir, "ok.jsonl"), jsonl(BASE));
    await expect(analyzeFiles([join(dir, "ok.jsonl"), join(dir, "missing.jsonl")])).rejects.toSatisfy((e) =>
      hasErrorCode(e, "NOT_FOUND"),
    );
  });
});
