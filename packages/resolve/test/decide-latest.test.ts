// The last resort of the decision step: a question about how the thing just done went, named only by a pronoun, that no
// record's words answer, is about the latest execution; questions of the world and told things stay unanswered.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { asksStateOfLatest } from "../src/resolution/decide-latest.js";

const session: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "read_file",
    tool_args: { path: "deploy/kiln.toml" },
    summary: "kiln service config: port 7070, workers 4, cache dir /var/cache/kiln",
    result_type: "success",
  },
  {
    id: "g2",
    tool_name: "execute_bash",
    tool_args: { command: "cargo test -p kiln" },
    summary: "test result: ok. 212 passed; 0 failed",
    result_type: "success",
  },
  {
    id: "g3",
    tool_name: "execute_bash",
    tool_args: { command: "sudo systemctl restart kiln" },
    summary: "exit 1: Job for kiln.service failed; journal: bind 0.0.0.0:7070: address already in use",
    result_type: "error",
  },
];

describe("decide: the latest execution for a state question about the thing just done", () => {
  it("answers what the thing just done complains about, whether it went through, whether it is done yet", () => {
    for (const text of ["hmm, what's it complaining about", "so did it go through?", "has it synced yet?"]) {
      const r = resolveReferences(text, session);
      expect(r.candidates[0]?.id, text).toBe("g3");
      expect(r.candidates[0]?.reasons.join(" "), text).toMatch(/latest execution/);
    }
    // A failure of "it" asked about, with nothing else named: the thing just done.
    const failing = [
      ...session.slice(0, 2),
      {
        id: "g4",
        tool_name: "grep",
        tool_args: { pattern: "OOMKilled", path: "/var/log/kube.log" },
        summary: "14 matches, 03:12 to 03:40",
        result_type: "success",
      },
    ];
    expect(resolveReferences("it keeps hanging for me, what gives?", failing).candidates[0]?.id).toBe("g4");
    // After a run that passed, "who broke it" asks about that run too.
    expect(resolveReferences("who broke it?", session.slice(0, 2)).candidates[0]?.id).toBe("g2");
  });

  it("leaves questions of the world and told things alone", () => {
    for (const text of [
      "did the treaty go through parliament?",
      "did it go through when you mailed the tax office?",
      "has it stopped snowing yet?",
      "who broke it off first in that sitcom couple?",
      "has that album come out yet?",
    ]) {
      expect(resolveReferences(text, session.slice(0, 2)).candidates, text).toEqual([]);
    }
  });

  it("reads the shape of the message, not its topic", () => {
    expect(asksStateOfLatest("so did that finally go thru?")).toBe(true);
    expect(asksStateOfLatest("is it ok now?")).toBe(true);
    expect(asksStateOfLatest("has it synced yet")).toBe(true);
    expect(asksStateOfLatest("did the merger go through?")).toBe(false);
    expect(asksStateOfLatest("is it friday yet?")).toBe(false);
  });

  it("keeps away when another record holds the message's words", () => {
    // "cache" is a word of the config read, not of the restart: the rules decide, the last resort does not.
    const r = resolveReferences("did it sync the cache yet?", session);
    expect(r.candidates[0]?.id).toBe("g1");
    expect(r.candidates.map((c) => c.id)).not.toContain("g3");
  });
});
