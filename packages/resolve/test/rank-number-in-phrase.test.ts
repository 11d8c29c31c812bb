import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { resolveReferencesFullScan } from "./reference/full-scan.js";

// Both records hold "python" and "scripts"; only one says them around the version number.
const session = [
  {
    id: "p1",
    tool_name: "fetch_url",
    tool_args: { url: "https://example.org/guides/py-migration" },
    label: "example.org/guides/py-migration",
    summary: "guide: moving python 2 scripts to 3 with futurize; keep six for shared modules",
    result_type: "success" as const,
  },
  {
    id: "p2",
    tool_name: "execute_bash",
    tool_args: { command: "ls tools/" },
    label: "ls tools/",
    summary: "scripts: backup.py, rotate.py, report.py (python 3.11 shebangs), README",
    result_type: "success" as const,
  },
];

describe("a number inside a phrase", () => {
  it("the record with the words around the same number wins the tie", () => {
    const text = "what was that about python 2 scripts?";
    expect(resolveReferences(text, session).candidates[0]?.id).toBe("p1");
    expect(resolveReferencesFullScan(text, session).candidates[0]?.id).toBe("p1");
  });
});
