// Forms of an irregular verb that a stemmer does not join ("freezing" ~ "froze", "dying" ~ "died") match each other;
// words that only look like a form of one ("left", "bit") are no verb forms. Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";
import { irregularForms } from "../src/resolution/irregular-verbs.js";

describe("irregular verb forms", () => {
  it("join the forms of one verb", () => {
    expect(irregularForms("freezing")).toContain("froze");
    expect(irregularForms("dying")).toContain("died");
    expect(irregularForms("broken")).toContain("broke");
    expect(parseQuery("the pump freezing").terms.find((t) => t.word === "freezing")?.related).toContain("frozen");
  });

  it("leave words of another meaning alone", () => {
    expect(irregularForms("left")).toEqual([]);
    expect(irregularForms("bit")).toEqual([]);
    expect(irregularForms("folder")).toEqual([]);
  });

  it("find the record that says it in another form", () => {
    const session = [
      {
        id: "p1",
        tool_name: "read_file",
        tool_args: { path: "greenhouse/log.txt" },
        summary: "03:10 fuse blew in the shed",
      },
      { id: "p2", tool_name: "execute_bash", tool_args: { command: "sensors" }, summary: "cpu 48C, fan 1200rpm" },
      {
        id: "p3",
        tool_name: "web_search",
        tool_args: { query: "tomato seedlings light hours" },
        summary: "10 results",
      },
    ];
    expect(resolveReferences("was there a note about a fuse blowing", session).candidates[0]?.id).toBe("p1");
  });
});
