import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";

const read = (id: string, path: string, summary: string) => ({
  id,
  tool_name: "read_file",
  tool_args: { path },
  label: path,
  summary,
  result_type: "success" as const,
});

// Files named by their format in the message, by their extension in the records.
const session = [
  read("f1", "CHANGES.md", "## 0.4.0: faster import, dropped 3.8; ## 0.3.2: bugfix for empty rows"),
  read("f2", "tools/import_rows.py", "def import_rows(path, batch=500): reads CSV, writes to sqlite in batches"),
  read("f3", "data/budget-2026.xlsx", "sheet Q1: rent 3,600, travel 1,250, software 890; sheet Q2 empty"),
  read("f4", "notes/todo.txt", "call the bank; renew the domain; water the plants"),
];

describe("a file named by its format", () => {
  it("the markdown file is the .md one", () => {
    expect(resolveReferences("what was in that markdown file again", session).candidates[0]?.id).toBe("f1");
  });

  it("the python script is the .py one, the spreadsheet the .xlsx one", () => {
    expect(resolveReferences("in the python script, what batch size does it use", session).candidates[0]?.id).toBe(
      "f2",
    );
    expect(resolveReferences("how much went on travel per the spreadsheet", session).candidates[0]?.id).toBe("f3");
  });
});
