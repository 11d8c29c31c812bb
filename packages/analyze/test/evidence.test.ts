import { describe, expect, it } from "vitest";
import { evidenceTerms, replayTranscript, type ReplayMessage } from "../src/index.js";
import { bigLog } from "./helpers.js";

describe("evidence terms", () => {
  it("takes paths, dotted/snake/camel identifiers, names with digits and numbers of 3+ digits, not plain words", () => {
    const terms = evidenceTerms(
      "open src/pkg/parser.py, call parse_token and tokenValue at line 1234 in worker7; the fix",
    );
    expect([...terms].sort()).toEqual(["1234", "parse_token", "src/pkg/parser.py", "tokenValue", "worker7"].sort());
  });
});

describe("evidence_visible / evidence_reachable in a replay", () => {
  it("counts terms that first appeared in an observation (tool or later user turn), never in the task; reachable stays 100%", async () => {
    const messages: ReplayMessage[] = [
      { role: "system", content: "You are an agent. Use task_helper when stuck." },
      { role: "user", content: "Fix the bug in src/app/main.py (task_helper may help)." },
    ];
    for (let t = 1; t <= 30; t++) {
      messages.push({
        role: "assistant",
        content: `step ${t}: look at request_id_${t - 1} and src/app/main.py with task_helper`,
      });
      // Observations recorded as user turns, large: only their reference fits the prompt.
      messages.push({ role: "user", content: `request_id_${t} seen\n${bigLog(12_000, t)}` });
    }
    const report = await replayTranscript(messages);
    const e = report.evidence;
    // request_id_<n> of each call after the first is evidence; task terms are not.
    expect(e.window!.terms).toBe(29);
    expect(e.append!.terms).toBe(29);
    expect(e.window!.reachable).toBe(29);
    expect(e.append!.reachable).toBe(29);
    expect(e.window!.visible).toBeGreaterThan(0);
    expect(e.deepagents!.visible).toBe(29);
    expect(report.budget_violations).toBe(0);
  }, 60_000);
});
