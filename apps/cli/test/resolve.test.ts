import { readFileSync } from "node:fs";
import { ErrorReceiptSchema, ResolveReceiptSchema } from "@artifact-refs/schema";
import { describeWithData, hasSharedData, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";
import { describe, expect, it } from "vitest";
import { run, tempFile, tempStore } from "./helpers.js";

const DEV = sharedDataPath("references/dev.json");
const dev = (hasSharedData("references/dev.json") ? JSON.parse(readFileSync(DEV, "utf8")) : { scenarios: [] }) as {
  scenarios: Array<{ id: string; executions: Array<{ id: string }> }>;
};
const s04 = dev.scenarios.find((s) => s.id === "s04");
const executionsFile = tempFile("executions.json", JSON.stringify(s04?.executions ?? []));

describeWithData("references/dev.json", "aref resolve --executions", () => {
  it("prints a resolve receipt with ranked candidates and reasons", async () => {
    const r = await run([
      "resolve",
      "the log before the last one",
      "--executions",
      executionsFile,
      "--after",
      "e4",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const receipt = ResolveReceiptSchema.parse(r.json());
    expect(receipt.schema).toBe("artifact-refs.resolve.v1");
    expect(receipt.candidates[0]!.id).toBe("e3");
    expect(receipt.candidates[0]!.reasons.join(" ")).toMatch(/order/);
    expect(receipt.ambiguous).toBe(false);
  });

  it("returns no candidate when the words refer to nothing", async () => {
    const r = await run([
      "resolve",
      "how would I ship logs to Loki in general?",
      "--executions",
      executionsFile,
      "--json",
    ]);
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({ schema: "artifact-refs.resolve.v1", candidates: [], ambiguous: false });
    const human = await run(["resolve", "write a haiku about spring", "--executions", executionsFile]);
    expect(human.out).toMatch(/no reference/);
  });

  it("prints a table without --json and limits the candidates", async () => {
    const r = await run(["resolve", "what caused that error?", "--executions", executionsFile, "--limit", "2"]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")[0]).toMatch(/^ID\s+SCORE\s+REASONS/);
    expect(r.out.split("\n")[1]).toMatch(/^e8\s+1\.00\s+/);
    expect(r.out.trim().split("\n")).toHaveLength(3);
  });
});

describe("aref resolve --session", () => {
  it("resolves over a session's artifacts", async () => {
    const store = tempStore();
    await run([
      "stash",
      tempFile("README.md", "# Orders API\n\nServes /orders.\n"),
      "--store",
      store,
      "--session",
      "s1",
    ]);
    const log = await run([
      "stash",
      tempFile("server.log", "2024-05-01T10:00:00Z INFO up\n2024-05-01T10:00:01Z ERROR db down\n"),
      "--store",
      store,
      "--session",
      "s1",
      "--json",
    ]);
    const r = await run(["resolve", "what does the server log say?", "--store", store, "--session", "s1", "--json"]);
    expect(r.code).toBe(0);
    expect(ResolveReceiptSchema.parse(r.json()).candidates[0]!.id).toBe(log.json().short_ref);
    const empty = await run(["resolve", "the README", "--store", store, "--session", "nobody", "--json"]);
    expect(empty.json().candidates).toEqual([]);
    // Every artifact of a session was stashed: "what I just stashed" is the latest of them.
    const stashed = await run(["resolve", "what did I just stash?", "--store", store, "--session", "s1", "--json"]);
    expect(ResolveReceiptSchema.parse(stashed.json()).candidates[0]!.id).toBe(log.json().short_ref);
  });

  it("--previous reads a follow-up against the previous answer's ids", async () => {
    const file = tempFile(
      "follow.json",
      JSON.stringify([
        { id: "f1", tool_name: "read_file", tool_args: { path: "api/app.yaml" }, summary: "api settings" },
        { id: "f2", tool_name: "read_file", tool_args: { path: "web/app.yaml" }, summary: "web settings" },
      ]),
    );
    const first = ResolveReceiptSchema.parse(
      (await run(["resolve", "show app.yaml", "--executions", file, "--json"])).json(),
    );
    expect(first.ambiguous).toBe(true);
    const other = await run(["resolve", "and the other one?", "--executions", file, "--previous", "f2", "--json"]);
    expect(ResolveReceiptSchema.parse(other.json()).candidates.map((c) => c.id)).toEqual(["f1"]);
    const bad = await run(["resolve", "and the other one?", "--executions", file, "--previous", " , ", "--json"]);
    expect(bad.code).toBe(4);
    expect(ErrorReceiptSchema.parse(bad.json()).error.code).toBe("INVALID_INPUT");
  });

  it("reads the executions' timestamps for clock phrases", async () => {
    const file = tempFile(
      "clock.json",
      JSON.stringify([
        { id: "k1", tool_name: "run_command", tool_args: { command: "df -h" }, timestamp: "2026-05-01T08:00:00Z" },
        { id: "k2", tool_name: "run_command", tool_args: { command: "df -i" }, timestamp: "2026-05-01T10:50:00Z" },
        {
          id: "k3",
          tool_name: "run_command",
          tool_args: { command: "du -sh /var" },
          timestamp: "2026-05-01T10:58:00Z",
        },
      ]),
    );
    const r = await run(["resolve", "the command you ran about three hours ago", "--executions", file, "--json"]);
    expect(ResolveReceiptSchema.parse(r.json()).candidates[0]?.id).toBe("k1");
  });
});

describe("aref resolve bad input", () => {
  const cases: Array<[string, string[], number, string]> = [
    ["empty text", ["resolve", "  ", "--executions", executionsFile], 4, "INVALID_INPUT"],
    ["missing file", ["resolve", "the log", "--executions", "/nonexistent/x.json"], 3, "NOT_FOUND"],
    ["not JSON", ["resolve", "the log", "--executions", tempFile("bad.json", "{nope")], 4, "INVALID_INPUT"],
    ["not executions", ["resolve", "the log", "--executions", tempFile("obj.json", '{"id": 1}')], 4, "INVALID_INPUT"],
    ["unknown --after", ["resolve", "the log", "--executions", executionsFile, "--after", "e99"], 3, "NOT_FOUND"],
    ["bad --limit", ["resolve", "the log", "--executions", executionsFile, "--limit", "0"], 4, "INVALID_INPUT"],
  ];
  for (const [name, args, code, errorCode] of cases) {
    it(name, async () => {
      const r = await run([...args, "--json"]);
      expect(r.code).toBe(code);
      expect(ErrorReceiptSchema.parse(r.json()).error.code).toBe(errorCode);
    });
  }
  it("--session with --executions is a usage error", async () => {
    const r = await run(["resolve", "the log", "--session", "s1", "--executions", executionsFile]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/choose --session or --executions/);
  });
});
