// A first-person statement that carries a path no record holds as a name is still a statement: it refers to nothing
// unless a record holds most of what it talks about. Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "v1",
    tool_name: "execute_bash",
    tool_args: { command: "ls ~/.vscode/extensions" },
    summary: "41 extensions; ms-python.python-2024.2.1",
  },
  {
    id: "v2",
    tool_name: "read_file",
    tool_args: { path: ".vscode/settings.json" },
    summary: "python.defaultInterpreterPath set to .venv/bin/python; formatOnSave true",
  },
  { id: "v3", tool_name: "execute_bash", tool_args: { command: "code --list-extensions | wc -l" }, summary: "41" },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("a statement with a path", () => {
  it("a path no record holds as a name does not make it a reference", () => {
    expect(ids("i hate how vscode hides its extensions somewhere in ~/.vscodium, who thought of that")).toEqual([]);
  });

  it("a statement naming a record's own file still finds it", () => {
    expect(ids("i changed .vscode/settings.json so formatOnSave is true")[0]).toBe("v2");
  });
});

describe("a statement about someone else", () => {
  it("refers to nothing unless a record holds most of it", () => {
    expect(ids("my brother builds websites, he just wants vscode to stop asking about python")).toEqual([]);
    expect(ids("she never reads the settings anyway, she only cares that it opens fast")).toEqual([]);
  });

  it("a statement about a record's words still finds it", () => {
    expect(ids("my settings.json sets formatOnSave to true")[0]).toBe("v2");
  });
});

describe("a feeling told", () => {
  it("refers to nothing unless a record holds most of it", () => {
    expect(ids("the vscode extensions list is driving me nuts")).toEqual([]);
  });

  it("a feeling about a record's own words, or a question, still finds it", () => {
    expect(ids("formatOnSave in the vscode settings is killing me")[0]).toBe("v2");
    expect(ids("how many vscode extensions are installed?")[0]).toBe("v1");
  });
});
