// "that"/"this" before a verb in -s opens a relative clause ("a script that logs ..."): it does not point at a
// record, so a how-would-you question built that way still refers to nothing; "that log" still points.
// Session and wordings written for these tests (a home weather station), not a sentence of any reference set.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "execute_bash",
    tool_args: { command: "journalctl -u weewx --since today" },
    summary: "weewx: station timeout x14, last record 06:10; log rotated at 00:00",
  },
  {
    id: "w2",
    tool_name: "read_file",
    tool_args: { path: "/etc/weewx/weewx.conf" },
    summary: "station_type = Vantage; archive_interval = 300; StdReport every 5 min",
  },
  {
    id: "w3",
    tool_name: "web_search",
    tool_args: { query: "weewx vantage station timeout usb serial" },
    summary: "4 results: weewx wiki 'vantage timeouts', forum 'usb hub power'",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("a relative 'that' is not a pointer", () => {
  it("a how-would-you question refers to nothing", () => {
    expect(ids("how would you set up a watchdog that logs station timeouts to a second disk")).toEqual([]);
  });

  it("a demonstrative still points", () => {
    expect(ids("how would you set up a watchdog that logs station timeouts, given that log?")).not.toEqual([]);
  });
});
