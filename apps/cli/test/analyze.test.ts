import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AnalyzeReportSchema } from "@artifact-refs/analyze";
import { itWithData, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";
import { describe, expect, it } from "vitest";
import { run, tempDir, tempFile } from "./helpers.js";

const TRAJECTORIES = sharedDataPath("trajectories");
const ROCK = join(TRAJECTORIES, "sweagent__ctf-rev-rock.jsonl");
const FLASH = join(TRAJECTORIES, "sweagent__ctf-forensics-flash.jsonl");

const SMALL = [
  { role: "system", content: "You are an agent." },
  { role: "user", content: "Read the log." },
  { role: "assistant", content: "cat app.log" },
  { role: "tool", content: "x".repeat(10).concat("\n").repeat(1_000), tool_name: "bash" },
  { role: "assistant", content: "Done." },
];

describe("aref analyze", () => {
  itWithData("trajectories", "finds the shared trajectories", () => {
    expect(existsSync(ROCK)).toBe(true);
  });

  itWithData("trajectories", "prints a versioned JSON report for a real trajectory", async () => {
    const r = await run(["analyze", ROCK, "--json"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const report = AnalyzeReportSchema.parse(r.json());
    expect(report.schema).toBe("artifact-refs.analyze.v1");
    expect(report.calls).toBe(12);
    expect(report.files).toEqual([
      expect.objectContaining({ file: "sweagent__ctf-rev-rock.jsonl", format: "trajectory-jsonl", calls: 12 }),
    ]);
    expect(report.turns).toHaveLength(12);
    expect(report.rehydration_mismatches).toBe(0);
    expect(report.budget_violations).toBe(0);
    expect(report.strategies.window.tokens).toBeLessThan(report.naive_tokens);
    expect(Object.keys(report.policies).sort()).toEqual([
      "anthropic_clear",
      "claude_code",
      "deepagents",
      "swe_agent_last5",
    ]);
  });

  itWithData("trajectories", "prints the table, the per-call table, and writes the chart", async () => {
    const dir = tempDir();
    const r = await run(["analyze", ROCK, FLASH, "--turns", "--chart", "chart.svg"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^transcript \(\.jsonl\) +calls +naive +window +append +deepag /m);
    expect(r.out).toMatch(/^sweagent__ctf-rev-rock +12 /m);
    expect(r.out).toMatch(/^total \(2 files\) +16 /m);
    expect(r.out).toContain("sweagent__ctf-forensics-flash.jsonl: per call");
    expect(r.out).toContain("chart: chart.svg");
    // A real multi-file run: every line of the default output within 100 columns.
    expect(Math.max(...r.out.split("\n").map((l) => Array.from(l).length))).toBeLessThanOrEqual(100);
    const svg = readFileSync(join(dir, "chart.svg"), "utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain("16 calls");
    expect(svg.match(/<text class="group-label"/g)).toHaveLength(2 * 3);
  });

  it("takes the budget, fetch cap and encoding as flags", async () => {
    const file = tempFile("small.jsonl", SMALL.map((m) => JSON.stringify(m)).join("\n"));
    const r = await run([
      "analyze",
      file,
      "--json",
      "--max-prompt-tokens",
      "4000",
      "--fetch-chars",
      "500",
      "--encoding",
      "o200k_base",
      "--append-compaction",
      "cost",
    ]);
    expect(r.code).toBe(0);
    expect(r.json().settings).toMatchObject({
      max_prompt_tokens: 4000,
      fetch_chars: 500,
      encoding: "o200k_base",
      keep_turns: 2,
      append_compaction: "cost",
    });
    expect((await run(["analyze", file, "--append-compaction", "sometimes"])).code).toBe(2);
  });

  it("reads OpenAI and Anthropic message arrays", async () => {
    const openai = tempFile(
      "o.json",
      JSON.stringify(
        SMALL.map((m) => (m.role === "tool" ? { role: "tool", tool_call_id: "c1", content: m.content } : m)),
      ),
    );
    const o = await run(["analyze", openai, "--json"]);
    expect(o.code).toBe(0);
    expect(o.json().files[0].format).toBe("openai");
    const anthropic = tempFile(
      "a.json",
      JSON.stringify({
        system: "You are an agent.",
        messages: [
          { role: "user", content: "Read the log." },
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "bash", input: { cmd: "cat app.log" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: SMALL[3]!.content }] },
          { role: "assistant", content: [{ type: "text", text: "Done." }] },
        ],
      }),
    );
    const a = await run(["analyze", anthropic, "--json"]);
    expect(a.code).toBe(0);
    expect(a.json().files[0]).toMatchObject({ format: "anthropic", calls: 2, externalized: 1 });
  });
});

describe("aref analyze: bad input", () => {
  it("names the line of invalid JSONL (exit 4)", async () => {
    const file = tempFile("bad.jsonl", `${JSON.stringify(SMALL[0])}\n${JSON.stringify(SMALL[1])}\nnot json\n`);
    const r = await run(["analyze", file]);
    expect(r.code).toBe(4);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/bad\.jsonl:3: invalid JSON/);
    const j = await run(["analyze", file, "--json"]);
    expect(j.code).toBe(4);
    expect(j.json()).toMatchObject({
      schema: "artifact-refs.error.v1",
      error: { code: "INVALID_INPUT", details: { line: 3 } },
    });
  });

  it("rejects an unknown format (exit 4, UNSUPPORTED) and a missing file (exit 3)", async () => {
    const r = await run(["analyze", tempFile("notes.txt", "just some notes\n"), "--json"]);
    expect(r.code).toBe(4);
    expect(r.json().error.code).toBe("UNSUPPORTED");
    expect(r.json().error.hint).toMatch(/OpenAI chat "messages" array/);
    const missing = await run(["analyze", join(tempDir(), "nope.jsonl")]);
    expect(missing.code).toBe(3);
  });

  it("rejects bad flag values as usage errors", async () => {
    const file = tempFile("small.jsonl", SMALL.map((m) => JSON.stringify(m)).join("\n"));
    expect((await run(["analyze", file, "--fetch-chars", "lots"])).code).toBe(2);
    expect((await run(["analyze", file, "--encoding", "p50k"])).code).toBe(2);
    const keep = await run(["analyze", file, "--keep-turns", "1"]);
    expect(keep.code).toBe(4);
    expect(keep.err).toMatch(/--keep-turns must be at least 2/);
    expect((await run(["analyze"])).code).toBe(2);
  });
});
