// Any text, any previous answer, any `now`: resolution answers with ids of the session only, or
// fails with ArefError INVALID_INPUT — never another error, never an invented id.
import { ArefError } from "@artifact-refs/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ExecutionLike, ResolutionSession, resolveReferences } from "../src/index.js";

const base = Date.parse("2031-05-06T10:00:00Z");
const session: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "read_file",
    tool_args: { path: "garden/beds.toml" },
    summary: "three beds: tomato, basil, chard",
    timestamp: new Date(base).toISOString(),
  },
  {
    id: "w2",
    tool_name: "execute_bash",
    tool_args: { command: "./water --dry-run" },
    summary: "would open valve 2 for 4 min",
    result_type: "success",
    timestamp: new Date(base + 60_000).toISOString(),
  },
  {
    id: "w3",
    tool_name: "web_search",
    tool_args: { query: "chard bolting heat" },
    summary: "5 results on shade cloth",
    timestamp: new Date(base + 3_600_000).toISOString(),
  },
  {
    id: "w4",
    tool_name: "stash",
    summary: "valve schedule saved",
    result_ref: "a".repeat(64),
    timestamp: new Date(base + 7_200_000).toISOString(),
  },
  {
    id: "w5",
    tool_name: "execute_bash",
    tool_args: { command: "./water --bed 2" },
    summary: "valve 2 stuck: timeout after 30 s",
    result_type: "error",
  },
];
const ids = new Set(session.map((e) => e.id));

function check(run: () => { candidates: { id: string }[] }): void {
  let answer: { candidates: { id: string }[] };
  try {
    answer = run();
  } catch (error) {
    expect(error).toBeInstanceOf(ArefError);
    expect((error as ArefError).code).toBe("INVALID_INPUT");
    return;
  }
  for (const c of answer.candidates) expect(ids.has(c.id)).toBe(true);
}

describe("resolution never crashes and never invents an id", () => {
  it("'both' with one previous answer adds the similar other record whole (its id, not the id's characters)", () => {
    const answer = resolveReferences("both", session, { previous: ["w5"], now: new Date(base) });
    expect(answer.candidates.map((c) => c.id)).toEqual(["w5", "w2"]);
  });

  it("on arbitrary text (any script, control characters), previous ids and clocks", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 300, unit: "grapheme" }),
      fc.string({ maxLength: 300, unit: "binary" }),
      fc
        .array(
          fc.constantFrom(
            "the",
            "valve",
            "chard",
            "first",
            "an hour ago",
            "not",
            "both",
            "ago",
            "?",
            "\u0000",
            "стоп",
            "水",
          ),
          { maxLength: 12 },
        )
        .map((ws) => ws.join(" ")),
    );
    fc.assert(
      fc.property(
        text,
        fc.array(fc.constantFrom("w1", "w3", "w5", "zz", ""), { maxLength: 3 }),
        fc.integer({ min: -86_400_000, max: 10 * 86_400_000 }),
        (t, previous, offset) => {
          const now = new Date(base + offset);
          check(() => resolveReferences(t, session, { previous, now }));
          check(() => new ResolutionSession(session).resolve(t, { now }));
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});
