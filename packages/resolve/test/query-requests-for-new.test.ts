// The message reader: requests for something new (names, ideas, a snippet asked politely) and questions about what
// the assistant knows of the world are general. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "h1",
    tool_name: "execute_bash",
    tool_args: { command: "ls ~/dotfiles" },
    summary: "12 entries: .zshrc, .vimrc, …",
  },
  { id: "h2", tool_name: "web_search", tool_args: { query: "node lts release" }, summary: "node 22 is the active lts" },
];
const none = (text: string) => expect(resolveReferences(text, session).candidates).toEqual([]);

describe("requests for something new", () => {
  it("names and ideas asked for", () => {
    expect(parseQuery("catchy names for a cli that backs up dotfiles?").general).toBe(true);
    none("catchy names for a cli that backs up dotfiles?");
    none("a mascot for our shell tool, give me 3");
  });

  it("a snippet asked for politely", () => {
    expect(parseQuery("could you write me a shell loop that renames every jpg").general).toBe(true);
    none("could you write me a shell loop that renames every jpg");
  });

  it("a command asked for a task, and how a thing of the world works", () => {
    none("give me a command to list dotfiles bigger than 1 mb");
    none("explain how node lts releases work");
    expect(parseQuery("show me a command that failed").general).toBe(false);
    expect(parseQuery("explain how the listing works").general).toBe(false);
  });

  it("what the assistant knows of the world", () => {
    none("which node release is lts right now, as far as you know?");
  });

  it("a request about the session's record is still answered", () => {
    expect(resolveReferences("what was in the dotfiles listing?", session).candidates[0]?.id).toBe("h1");
  });
});
