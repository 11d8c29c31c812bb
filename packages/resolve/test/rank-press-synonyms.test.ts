import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

// A setup guide read earlier, then unrelated device work.
const session = [
  {
    id: "b1",
    tool_name: "fetch_url",
    tool_args: { url: "https://example.net/manual/doorbell-setup" },
    label: "example.net/manual/doorbell-setup",
    summary: "Setup: hold the doorbell close to the hub and keep pressing its reset button every 3 s while pairing",
    result_type: "success" as const,
  },
  {
    id: "b2",
    tool_name: "execute_bash",
    tool_args: { command: "hubctl devices --list" },
    label: "hubctl devices --list",
    summary: "4 devices: thermostat, 2 plugs, window contact; doorbell not joined",
    result_type: "success" as const,
  },
  {
    id: "b3",
    tool_name: "read_file",
    tool_args: { path: "app/ui/theme.css" },
    label: "app/ui/theme.css",
    summary: "button colours: primary teal, ghost grey, danger red; 14px radius",
    result_type: "success" as const,
  },
];

describe("pressing a button said in other words", () => {
  it("a button tapped is the button pressed", () => {
    const tapped = parseQuery("how often was the button to be tapped?").terms.find((t) => t.word === "tapped");
    expect(tapped?.related).toContain("pressing");
    const r = resolveReferences("how often was the button to be tapped?", session);
    expect(r.candidates[0]?.id).toBe("b1");
  });
});
