// "are flakes still experimental in nix 2.24?": the present state of a bare name is the world's, unless a record holds
// most of what the message talks about.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "s1",
    tool_name: "read_file",
    tool_args: { path: "flake.nix" },
    summary: "nix flake: inputs nixpkgs 24.05, outputs devShells.default",
    result_type: "success",
  },
  {
    id: "s2",
    tool_name: "execute_bash",
    tool_args: { command: "nix flake check" },
    summary: "all checks passed",
    result_type: "success",
  },
];

describe("decide: the present state of a bare name", () => {
  it("refers to nothing", () => {
    expect(resolveReferences("are nix flakes still flagged unstable upstream?", session).candidates).toEqual([]);
  });

  it("a bare name asked about the session's past is no world question", () => {
    expect(resolveReferences("is flake check still passing like it did?", session).candidates[0]?.id).toBe("s2");
  });

  it("a record that holds most of it answers", () => {
    expect(resolveReferences("is the flake check still passing?", session).candidates[0]?.id).toBe("s2");
  });
});
