// A message asking what was placed into a file ("what did we add to the changelog") asks for the write of that file,
// not an earlier read of it. Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

const session = [
  {
    id: "r1",
    tool_name: "read_file",
    tool_args: { path: "docs/garden-plan.md" },
    label: "docs/garden-plan.md",
    summary: "Beds: tomatoes, beans; compost bin north corner; 18 lines",
  },
  {
    id: "r2",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh photos/" },
    label: "du -sh photos/",
    summary: "4.2G photos/",
  },
  {
    id: "r3",
    tool_name: "write_file",
    tool_args: { path: "docs/garden-plan.md" },
    label: "docs/garden-plan.md",
    summary: "Wrote 1,204 bytes: added a watering schedule and a row of leeks",
  },
  {
    id: "r4",
    tool_name: "web_search",
    tool_args: { query: "leek spacing cm" },
    label: "search: leek spacing cm",
    summary: "8 results: 15 cm apart in rows 30 cm",
  },
];

describe("putting something into a file is a write", () => {
  it("reads a write hint from a verb of placing with its place", () => {
    expect(parseQuery("what did we stick into the garden plan?").hints.get("write")?.weight).toBe(3);
    expect(parseQuery("show me what u added to the garden plan").hints.get("write")?.weight).toBe(3);
  });

  it("the verb without a place names no write", () => {
    expect(parseQuery("did I put the same photo twice?").hints.has("write")).toBe(false);
    expect(parseQuery("how do I add a column in a spreadsheet?").hints.has("write")).toBe(false);
  });

  it("picks the write of the file over its earlier read", () => {
    const r = resolveReferences("what did you put in the garden plan", session);
    expect(r.candidates[0]?.id).toBe("r3");
  });
});
