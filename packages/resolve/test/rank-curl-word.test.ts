import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { resolveReferencesFullScan } from "./reference/full-scan.js";

const curl = (id: string, url: string, summary: string) => ({
  id,
  tool_name: "execute_bash",
  tool_args: { command: `curl -s -o /dev/null -w '%{http_code}' ${url}` },
  label: `curl -s ${url}`,
  summary,
  result_type: "success" as const,
});

// Requests made from the shell with curl, and one made through the HTTP tool in between.
const session = [
  curl("h1", "https://tiles.example.net/z/4/8/5.png", "404"),
  {
    id: "h2",
    tool_name: "read_file",
    tool_args: { path: "map/layers.toml" },
    label: "map/layers.toml",
    summary: "base layer url template, max zoom 14",
    result_type: "success" as const,
  },
  {
    id: "h3",
    tool_name: "http_get",
    tool_args: { url: "https://tiles.example.net/api/v1/layers" },
    label: "GET tiles.example.net/api/v1/layers",
    summary: "HTTP 200: 3 layers (base, roads, labels)",
    result_type: "success" as const,
  },
  curl("h4", "https://tiles.example.net/z/4/8/6.png", "200"),
];

describe("curl names the command, an api call the HTTP tool", () => {
  it("the very first curl is the first record that ran curl", () => {
    const text = "the earliest curl, which code came back?";
    expect(resolveReferences(text, session).candidates[0]?.id).toBe("h1");
    expect(resolveReferencesFullScan(text, session).candidates[0]?.id).toBe("h1");
  });

  it("the api call is the HTTP tool's record, not a later curl from the shell", () => {
    const text = "show me what the api call returned once more";
    expect(resolveReferences(text, session).candidates[0]?.id).toBe("h3");
    expect(resolveReferencesFullScan(text, session).candidates[0]?.id).toBe("h3");
  });
});
