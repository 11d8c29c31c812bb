// "the first deploy that actually worked": an adverb between "that" and the verb of success still asks for a run that
// succeeded, so an order word ranges over the runs that did not fail.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const deploy = (id: string, ok: boolean, summary: string): ExecutionLike => ({
  id,
  tool_name: "execute_bash",
  tool_args: { command: "make deploy ENV=staging" },
  summary,
  result_type: ok ? "success" : "error",
});

const session: ExecutionLike[] = [
  deploy("d1", false, "exit 2: release staging-api revision 13 rolled back after 300 s"),
  deploy("d2", true, "release staging-api upgraded, revision 14, 96 s"),
  deploy("d3", true, "release staging-api upgraded, revision 15, 71 s"),
];

describe("decide: a run that actually worked", () => {
  it("picks among the runs that succeeded", () => {
    for (const text of [
      "the first deploy that actually worked, which revision was it?",
      "the first deploy that finally succeeded, which revision?",
    ])
      expect(resolveReferences(text, session).candidates[0]?.id, text).toBe("d2");
  });
});
