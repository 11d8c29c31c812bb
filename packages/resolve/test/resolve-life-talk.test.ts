// First-person statements about the speaker's life are answered with nothing, even when they carry an order word
// ("currently") or share a word or a command name with a record ("cat", "took"); statements about the session's
// own work still find their record. Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "execute_bash",
    tool_args: { command: "cat greenhouse/zones.csv" },
    summary: "6 zones; zone 4 currently dry (moisture 18%), irrigation took 3 hours yesterday",
  },
  {
    id: "g2",
    tool_name: "execute_bash",
    tool_args: { command: "valvectl calibrate --zone 4" },
    summary: "valve 4 calibrated: flow 2.1 l/min, children valves 4a 4b ok",
  },
  {
    id: "g3",
    tool_name: "write_file",
    tool_args: { path: "greenhouse/schedule.yaml" },
    summary: "Wrote 612 bytes: zone 4 watering every 6 hours",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("life talk in the first person", () => {
  it("refers to nothing, order word or shared word or not", () => {
    expect(ids("we currently have two kids and a dog")).toEqual([]);
    expect(ids("my cat sat on the keyboard again")).toEqual([]);
    expect(ids("I ran a half marathon, it took 2 hours")).toEqual([]);
    expect(ids("we went to my parents' place, the children loved it")).toEqual([]);
  });

  it("statements about the session's work still find their record", () => {
    expect(ids("we calibrated the valve for zone 4")[0]).toBe("g2");
    expect(ids("I changed the watering schedule")[0]).toBe("g3");
    expect(ids("so zone 4 is currently dry")[0]).toBe("g1");
  });

  it("a question or a request in the first person is not a statement", () => {
    expect(ids("I need the zone moisture numbers")[0]).toBe("g1");
    expect(ids("my question: how long did the irrigation take?")[0]).toBe("g1");
  });
});
