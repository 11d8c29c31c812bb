import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";

describe("an English word is not taken for a slip of another", () => {
  const session = [
    {
      id: "x1",
      tool_name: "http_get",
      tool_args: { url: "https://intranet.example/admin/users" },
      summary: "200: 14 users",
    },
    {
      id: "x2",
      tool_name: "fetch_url",
      tool_args: { url: "https://forum.example/t/importer-drops-rows" },
      summary: "the maintainer concedes the importer drops rows with a BOM; fix promised in 2.4",
    },
    { id: "x3", tool_name: "run_command", tool_args: { command: "redis info memory" }, summary: "used_memory 3.1G" },
    {
      id: "x4",
      tool_name: "read_file",
      tool_args: { path: "theme/palette.css" },
      summary: "primary #c0392b (a red), accent teal",
    },
  ];

  it("a word of its own ('admit') does not match the record it is one letter from ('admin')", () => {
    const r = resolveReferences("did the maintainer admit the importer drops rows?", session);
    expect(r.candidates[0]?.id).toBe("x2");
    expect(r.candidates.map((c) => c.reasons.join(" ")).join(" ")).not.toMatch(/admit.*admin/);
  });

  it("a common short word ('red') does not abbreviate a name that merely starts with it ('redis')", () => {
    const r = resolveReferences("which file had the red in it?", session);
    expect(r.candidates[0]?.id).toBe("x4");
    expect(r.candidates.some((c) => c.id === "x3")).toBe(false);
  });

  it("a misspelt word that is no word still matches ('memroy' for 'memory'), and shorthand still abbreviates", () => {
    expect(resolveReferences("how much memroy was used", session).candidates[0]?.id).toBe("x3");
    const cfg = [
      { id: "c1", tool_name: "read_file", tool_args: { path: "deploy/config.yaml" }, summary: "replicas 3" },
      { id: "c2", tool_name: "run_command", tool_args: { command: "uptime" }, summary: "load 0.4" },
    ];
    expect(resolveReferences("what's in the cfg", cfg).candidates[0]?.id).toBe("c1");
  });
});
