// "any tips for …", "some advice on …": a request for advice refers to nothing of the session, even with an order word
// ("… first") or a possessive ("my …") in it.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "t1",
    tool_name: "sql_query",
    tool_args: { query: "select name, offer from interviews order by offer desc" },
    summary: "3 rows: Lumen 92k, Brightway 88k, Quarry 85k; first offer from Lumen",
    result_type: "success",
  },
  {
    id: "t2",
    tool_name: "read_file",
    tool_args: { path: "notes/offers.md" },
    summary: "notes on the offers: Lumen wants an answer by Friday, Quarry asked for my expectations",
    result_type: "success",
  },
];

describe("decide: a request for tips or advice", () => {
  it("answers nothing", () => {
    for (const text of [
      "any tips for turning down an offer politely when it was the first one i got?",
      "some advice on how to answer when a recruiter asks my expectations?",
    ])
      expect(resolveReferences(text, session).candidates, text).toEqual([]);
  });

  it("still answers a question about a record", () => {
    expect(resolveReferences("what did the interviews query return?", session).candidates[0]?.id).toBe("t1");
  });
});
