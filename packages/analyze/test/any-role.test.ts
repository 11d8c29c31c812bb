/**
 * Any role, any size: observations recorded as user messages of 100k+ chars, and the bad
 * inputs of issue 14 (unknown roles, structured content, empty transcript, no user message).
 */
import { describe, expect, it } from "vitest";
import { analyzeTexts, parseReplayTranscript, replayTranscript, type ReplayMessage } from "../src/index.js";
import { bigLog } from "./helpers.js";

describe("a transcript whose observations are user messages of 100k+ chars", () => {
  it("keeps every prompt inside the budget and every byte recoverable from the store", async () => {
    const messages: ReplayMessage[] = [
      { role: "system", content: "You are a shell agent. Reply with one command." },
      { role: "user", content: "Find why the build fails." },
    ];
    for (let t = 1; t <= 12; t++) {
      messages.push({ role: "assistant", content: `THOUGHT: step ${t}\n\`\`\`bash\ncat build-${t}.log\n\`\`\`` });
      messages.push({
        role: "user",
        content: `<returncode>1</returncode>\n<output>\n${bigLog(100_000 + t * 3_000, t)}</output>`,
      });
    }
    messages.push({ role: "assistant", content: "done" });
    const stored = new Map<string, string>();
    let calls = 0;
    const report = await replayTranscript(messages, {
      onCall: async (c) => {
        calls++;
        for (const p of [c.window, c.append]) {
          expect(p.violations).toEqual([]);
          expect(p.tokens).toBeLessThanOrEqual(8_000);
          // The latest observation (the request position) is represented: head + reference + fetch line.
          const last = c.history.length - 1;
          if (c.history[last]!.role === "user" && last > 1) {
            const part = p.parts.find((x) => x.source === last)!;
            expect(part.message.content).toMatch(
              /^\[message #\d+ \(user, \d+ chars\) stored as art:[0-9a-f]+; .*artifacts_get \{"ref":"art:/,
            );
            expect(part.message.content).toContain("<returncode>1</returncode>");
            stored.set(part.ref!, c.original[last]!.content);
          }
        }
        // Every byte recoverable: each message shown by reference reads back byte-identical.
        for (const [id, original] of stored) expect(await c.store.getText(id)).toBe(original);
      },
    });
    expect(calls).toBe(13);
    expect(stored.size).toBeGreaterThanOrEqual(12);
    expect(report.budget_violations).toBe(0);
    expect(report.strategies.window.tokens).toBeLessThan(report.naive_tokens / 10);
    expect(report.strategies.append.cost).toBeLessThan(report.naive_cost);
  }, 120_000);
});

describe("bad input", () => {
  const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n");

  it("unknown roles are replayed by size and position, with a warning", async () => {
    const text = jsonl([
      { role: "system", content: "s" },
      { role: "user", content: "task" },
      { role: "assistant", content: "look" },
      { role: "observation", content: "x".repeat(50_000) },
      { role: "assistant", content: "done" },
    ]);
    const parsed = parseReplayTranscript(text, "t.jsonl");
    expect(parsed.messages[3]!.role).toBe("user");
    expect(parsed.warnings).toEqual([
      't.jsonl: 1 message(s) with the unknown role "observation" replayed as user turns',
    ]);
    const report = await analyzeTexts([{ name: "t.jsonl", text }]);
    expect(report.budget_violations).toBe(0);
    expect(report.files[0]!.warnings).toHaveLength(1);
  });

  it("structured content is counted and stored as JSON", async () => {
    const blocks = [
      { type: "text", text: "y".repeat(30_000) },
      { type: "image", source: "data" },
    ];
    const text = jsonl([
      { role: "user", content: "task" },
      { role: "assistant", content: "a" },
      { role: "tool", content: blocks },
      { role: "assistant", content: "b" },
    ]);
    const parsed = parseReplayTranscript(text, "s.jsonl");
    expect(parsed.messages[2]!.content).toBe(JSON.stringify(blocks));
    const report = await analyzeTexts([{ name: "s.jsonl", text }]);
    expect(report.externalized).toBe(1);
    expect(report.rehydration_mismatches).toBe(0);
    expect(report.budget_violations).toBe(0);
  });

  it("an empty transcript is a clear error; one without an assistant message too", async () => {
    await expect(analyzeTexts([{ name: "e.jsonl", text: "" }])).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: "e.jsonl is empty",
    });
    await expect(
      analyzeTexts([{ name: "n.jsonl", text: jsonl([{ role: "user", content: "hi" }]) }]),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/no assistant message/) });
    await expect(replayTranscript([])).resolves.toMatchObject({ calls: 0, budget_violations: 0 });
  });

  it("a transcript with no user message is replayed inside the budget", async () => {
    const messages: ReplayMessage[] = [{ role: "system", content: "s" }];
    for (let t = 0; t < 20; t++)
      messages.push({ role: "assistant", content: `step ${t}` }, { role: "tool", content: bigLog(20_000, t) });
    messages.push({ role: "assistant", content: "end" });
    const report = await replayTranscript(messages, {
      onCall: (c) => {
        expect(c.window.tokens).toBeLessThanOrEqual(8_000);
        expect(c.append.tokens).toBeLessThanOrEqual(8_000);
      },
    });
    expect(report.calls).toBe(21);
    expect(report.budget_violations).toBe(0);
    expect(report.rehydration_mismatches).toBe(0);
  });
});
