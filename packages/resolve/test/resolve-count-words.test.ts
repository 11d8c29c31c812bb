import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";

// A question about how many is answered by the result that gives the count, in digits or in words.
const session = [
  {
    id: "c1",
    tool_name: "web_search",
    tool_args: { query: "koala sightings creek trail" },
    label: "search: koala sightings creek trail",
    summary: "5 results: park blog on koala habitats, trail map, ranger contacts",
    result_type: "success" as const,
  },
  {
    id: "c2",
    tool_name: "read_file",
    tool_args: { path: "survey/creek-walk.txt" },
    label: "survey/creek-walk.txt",
    summary: "morning walk: four koalas near the footbridge, one wombat, rain from 10:00",
    result_type: "success" as const,
  },
  {
    id: "c3",
    tool_name: "read_file",
    tool_args: { path: "survey/gear.txt" },
    label: "survey/gear.txt",
    summary: "binoculars, notebook, koala id sheet",
    result_type: "success" as const,
  },
];

describe("a count written as a word", () => {
  it("answers a how-many question like digits do", () => {
    expect(resolveReferences("how many koalas did we spot in the end", session).candidates[0]?.id).toBe("c2");
  });
});
