// "not the first X, the one after Y": the negation sets aside a position among the records X names, not every
// record holding the word X. "not the X, the Z" (no order word) still sets X aside. Session written for this test.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "b1",
    tool_name: "execute_bash",
    tool_args: { command: "hivectl weigh --hive north" },
    summary: "weigh: north hive 38.2 kg, frames 8 of 10 drawn",
  },
  {
    id: "b2",
    tool_name: "read_file",
    tool_args: { path: "apiary/feeding.md" },
    summary: "feeding plan: 2:1 syrup in autumn, fondant over winter",
  },
  {
    id: "b3",
    tool_name: "write_file",
    tool_args: { path: "apiary/feeding.md" },
    summary: "Wrote 402 bytes: switched north hive to fondant, syrup stopped",
  },
  {
    id: "b4",
    tool_name: "execute_bash",
    tool_args: { command: "hivectl inspect --hive north" },
    summary: "inspection: queen seen, brood on 5 frames, stores low",
  },
  {
    id: "b5",
    tool_name: "execute_bash",
    tool_args: { command: "hivectl weigh --hive north" },
    summary: "weigh: north hive 41.0 kg, frames 9 of 10 drawn",
  },
];
const first = (text: string) => resolveReferences(text, session).candidates[0]?.id;

describe("a negated position keeps its noun as the kind", () => {
  it("answers the later record of the same kind", () => {
    expect(first("not the first weigh, the one after the feeding change - how many frames?")).toBe("b5");
    expect(first("not the earliest weigh but the one after the fondant switch, were the frames drawn?")).toBe("b5");
  });

  it("still sets a noun aside when no order word comes with it", () => {
    expect(first("not the weigh, the inspection - how many frames?")).toBe("b4");
  });
});
