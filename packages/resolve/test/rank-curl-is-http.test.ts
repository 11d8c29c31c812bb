import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { resolveReferencesFullScan } from "./reference/full-scan.js";

// A request made from the shell first, then one made through the HTTP tool.
const session = [
  {
    id: "h1",
    tool_name: "execute_bash",
    tool_args: { command: "curl -s -o /dev/null -w '%{http_code}' https://tiles.example.net/z/4/8/5.png" },
    label: "curl -s https://tiles.example.net/z/4/8/5.png",
    summary: "404",
    result_type: "success" as const,
  },
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
    tool_args: { url: "https://tiles.example.net/z/4/8/6.png" },
    label: "GET tiles.example.net/z/4/8/6.png",
    summary: "HTTP 200, image/png, 18 KB",
    result_type: "success" as const,
  },
];

describe("a request made with curl is an HTTP call", () => {
  it("the first request of the session is the curl one, not the first made through the HTTP tool", () => {
    const text = "the very first request - what status came back";
    expect(resolveReferences(text, session).candidates[0]?.id).toBe("h1");
    expect(resolveReferencesFullScan(text, session).candidates[0]?.id).toBe("h1");
  });
});
