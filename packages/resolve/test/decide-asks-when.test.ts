// "when does/do …" opening a question asks for a time: no condition that makes the question one of the world. A record
// that holds what it asks about answers it; a question of the world about a time still gets nothing.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "fetch_url",
    tool_args: { url: "https://rustfest.example/cfp" },
    summary: "RustFest Lisbon: talk submissions close March 3; speakers get travel and two hotel nights",
    result_type: "success",
  },
  {
    id: "w2",
    tool_name: "read_file",
    tool_args: { path: "talks/abstract.md" },
    summary: "draft abstract: zero-copy parsing with nom, 30 minutes",
    result_type: "success",
  },
];

describe("decide: a question opened by when", () => {
  it("is answered by the record that holds what it asks about", () => {
    const r = resolveReferences("when do talk submissions close for that conference", session);
    expect(r.candidates[0]?.id).toBe("w1");
  });

  it("leaves a question of the world about a time unanswered", () => {
    for (const text of ["when do cherry trees bloom in japan?", "when does daylight saving time end?"])
      expect(resolveReferences(text, session).candidates, text).toEqual([]);
  });
});
