// A question about the world that happens to use the session's words refers to nothing: "the diff between A and B"
// (the short form of "the difference between"), "is it worth it / better to / good enough for", "not for this",
// and a tool verb done by a third party ("who wrote …", "she ran …"). Own sessions and wording, no data-set sentence.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "execute_bash",
    tool_args: { command: "grep -rn 'Mutex' src/" },
    summary: "6 matches: Mutex in src/pool.rs and src/cache.rs",
    timestamp: "2025-05-01T10:00:00Z",
  },
  {
    id: "w2",
    tool_name: "read_file",
    tool_args: { path: "src/limits.rs" },
    summary: "Semaphore with 8 permits guards outbound requests",
    timestamp: "2025-05-01T10:02:00Z",
  },
  {
    id: "w3",
    tool_name: "web_search",
    tool_args: { query: "standing desk motor noise" },
    summary: "8 results: standing desk reviews, motor noise levels in dB",
    timestamp: "2025-05-01T10:05:00Z",
  },
  {
    id: "w4",
    tool_name: "write_file",
    tool_args: { path: "notes/chapter1.md" },
    summary: "Wrote 2,400 bytes: first chapter draft of the novel",
    timestamp: "2025-05-01T10:09:00Z",
  },
];

describe("questions about the world answer nothing", () => {
  it.each([
    "what's the diff between a mutex and a semaphore, roughly?",
    "is it worth it to buy a standing desk with a quiet motor?",
    "are standing desks with a quiet motor good enough for the noise levels in dB of an office?",
    "not for this: does a semaphore have permits in java too?",
    "who wrote the book they turned into a film last year?",
    "she wrote the book they turned into a film",
  ])("%s", (text) => {
    expect(resolveReferences(text, session).candidates).toEqual([]);
  });

  it("the same words about the session still answer", () => {
    expect(resolveReferences("show me the diff of src/limits.rs", session).candidates[0]?.id).toBe("w2");
    expect(resolveReferences("the standing desk search, was the motor noise in dB?", session).candidates[0]?.id).toBe(
      "w3",
    );
    expect(resolveReferences("which chapter did you write?", session).candidates[0]?.id).toBe("w4");
  });
});

describe("a tool verb whose object the session does not hold refers to nothing", () => {
  it.each([
    "we ran a half-marathon along the river on sunday",
    "my sister wrote a cookbook last spring",
    "you searched everywhere for your keys, huh?",
  ])("%s", (text) => {
    expect(resolveReferences(text, session).candidates).toEqual([]);
  });

  it("the verb with a thing of the session still answers", () => {
    expect(resolveReferences("we searched for standing desk noise, right?", session).candidates[0]?.id).toBe("w3");
    expect(resolveReferences("you wrote the chapter draft earlier", session).candidates[0]?.id).toBe("w4");
  });
});
