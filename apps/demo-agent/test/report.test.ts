import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import {
  REPORT_ARTIFACT_MAX_CHARS,
  refsMentioned,
  renderReport,
  reportArtifacts,
  type DemoSummary,
} from "../src/index.js";
import { sectionsOf, testOutcome } from "../src/providers/scripted.js";

const summary = (answers: string[], referenced: string[][] = []): DemoSummary => ({
  session: "s1",
  provider: "scripted policy (offline, deterministic; not an LLM)",
  strategy: "append",
  store: "memory:",
  calls: [
    {
      call: 1,
      request: 1,
      naiveTokens: 100,
      refsTokens: 40,
      hotStateTokens: 10,
      budgetOk: true,
      violations: 0,
      stashed: 1,
      fetched: 0,
      action: "read_file",
    },
  ],
  requests: answers.map((answer, i) => ({ text: `request ${i + 1}`, answer, referenced: referenced[i] ?? [] })),
  naiveTotal: 100,
  refsTotal: 40,
  savedPct: 60,
  rehydrated: 1,
  rehydrationMismatches: 0,
  transcriptPath: "/tmp/t.jsonl",
  metricsPath: "/tmp/m.jsonl",
  maxPromptTokens: 8_000,
});

describe("the HTML report opens every art: ref in place", () => {
  it("puts each mentioned artifact's stored content (bounded, escaped) in a <details> where the ref is", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const small = await store.put("# Notes\n<script>alert(1)</script>\nline three\n", {
      session: "s1",
      label: "notes.md",
    });
    const bigText = Array.from({ length: 5_000 }, (_, i) => `log line ${i} ${"x".repeat(20)}`).join("\n");
    const big = await store.put(bigText, { session: "s1", label: "build.log" });
    const smallRef = `art:${small.id.slice(0, 12)}`;
    const bigRef = `art:${big.id.slice(0, 12)}`;
    const gone = "art:0123456789ab";
    const s = summary(
      [`Done. The full result is stored as ${smallRef}.`, `Compared ${smallRef} with ${bigRef}; ${gone} is gone.`],
      [[], [bigRef]],
    );
    expect(refsMentioned(s.requests.map((r) => r.answer))).toEqual([smallRef, bigRef, gone]);
    const artifacts = await reportArtifacts(store, "s1", s);
    expect(artifacts.map((a) => a.ref)).toEqual([smallRef, bigRef]); // the unknown ref is left out
    const bigOne = artifacts.find((a) => a.ref === bigRef)!;
    expect(bigOne).toMatchObject({ label: "build.log", truncated: true, total_lines: 5_000 });
    expect(bigOne.text.length).toBeLessThanOrEqual(REPORT_ARTIFACT_MAX_CHARS);
    expect(bigOne.text).toContain("log line 0 ");

    const html = renderReport(s, artifacts);
    // Every mention of a stored ref (4: three in the answers, one in the referenced list) opens it.
    expect(html.match(/<details class="art" data-ref="art:[0-9a-f]{12}">/g)).toHaveLength(4);
    expect(html).toContain(`<details class="art" data-ref="${smallRef}"><summary><code>${smallRef}</code></summary>`);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).toMatch(/build\.log · [a-z_]+ · \d+\.\d KiB · showing [\d,]+ of [\d,]+ characters \(5,000 lines\)/);
    expect(html).toContain(`aref fetch ${bigRef}`);
    expect(html).toContain("notes.md");
    expect(html).toContain("whole content");
    // A ref the store no longer has stays plain, escaped text.
    expect(html).toContain(`${gone} is gone.`);
    expect(html).not.toContain(`data-ref="${gone}"`);
  });

  it("without artifacts the report still renders every ref as text", () => {
    const html = renderReport(summary(["stored as art:0123456789ab"]));
    expect(html).toContain("stored as art:0123456789ab");
    expect(html).not.toContain("<details");
  });
});

describe("the scripted policy reads what it fetched", () => {
  it("finds failing test names and the count lines in a grep slice", () => {
    const slice = [
      "3: FAIL  test/parse.test.ts > parses a bad selector",
      "--",
      "7:  × test/parse.test.ts > parses a bad selector 12ms",
      "8:  × test/ids.test.ts > rejects a short ref",
      "9:  Test Files  2 failed | 10 passed (12)",
      "10:       Tests  2 failed | 118 passed (120)",
    ].join("\n");
    expect(testOutcome(slice)).toEqual({
      failing: ["test/parse.test.ts > parses a bad selector", "test/ids.test.ts > rejects a short ref"],
      counts: ["Test Files 2 failed | 10 passed (12)", "Tests 2 failed | 118 passed (120)"],
    });
    expect(testOutcome("1: Tests  5 passed (5)")).toEqual({ failing: [], counts: ["Tests 5 passed (5)"] });
  });

  it("reads section titles from a heading grep", () => {
    expect(sectionsOf("1:# Title\n--\n3:## Install ##\n--\n9:### Deep\n10:#### too deep")).toEqual([
      "Title",
      "Install",
      "Deep",
    ]);
  });
});
