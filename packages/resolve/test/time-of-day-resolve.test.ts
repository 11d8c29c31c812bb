// A time of day in a message picks the record that ran then, through resolveReferences. Sessions and messages written
// for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/internal.js";

// A greenhouse controller session on one evening (UTC), a few minutes apart.
const t = (hm: string, date = "2026-03-14", zone = "Z") => `${date}T${hm}:00${zone}`;
const session: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "execute_bash",
    tool_args: { command: "vcgencmd measure_temp" },
    summary: "temp=48.3'C",
    timestamp: t("17:52"),
  },
  {
    id: "g2",
    tool_name: "http_get",
    tool_args: { url: "http://vent.lan/state" },
    summary: "vent 18 % open",
    timestamp: t("17:58"),
  },
  {
    id: "g3",
    tool_name: "read_file",
    tool_args: { path: "pump.yaml" },
    summary: "pump schedule: 06:00, 18:00, 18:40",
    timestamp: t("18:05"),
  },
  {
    id: "g4",
    tool_name: "list_files",
    tool_args: { path: "/var/log/greenhouse" },
    summary: "9 log files, newest sensors.log",
    timestamp: t("18:41"),
  },
  {
    id: "g5",
    tool_name: "execute_bash",
    tool_args: { command: "tail -n 40 sensors.log" },
    summary: "humidity 81 %, soil 34 %",
    timestamp: t("18:47"),
  },
  {
    id: "g6",
    tool_name: "http_get",
    tool_args: { url: "http://vent.lan/open?to=40" },
    summary: "vent moving to 40 %",
    timestamp: t("19:12"),
  },
  {
    id: "g7",
    tool_name: "execute_bash",
    tool_args: { command: "systemctl status pump" },
    summary: "pump active (running) since 19:20",
    timestamp: t("19:20"),
  },
  {
    id: "g8",
    tool_name: "write_file",
    tool_args: { path: "pump.yaml" },
    summary: "Wrote 212 bytes: evening run moved to 20:15",
    timestamp: t("19:33"),
  },
];
const top = (text: string, executions = session, options = {}) =>
  resolveReferences(text, executions, options).candidates[0]?.id;

describe("a time of day in a message", () => {
  it("picks the record that ran then, not one whose text holds the numbers", () => {
    expect(top("what did you run around 18:40?")).toBe("g4");
    expect(top("what came back at 19:12")).toBe("g6");
    expect(top("the thing at 7:20, what did it say?")).toBe("g7");
    expect(top("what did the call at 7.12 return")).toBe("g6");
    expect(top("and at 5:52pm?")).toBe("g1");
  });

  it("reads parts of an hour and named hours", () => {
    expect(top("what did you check at ten to six?")).toBe("g1");
    expect(top("the one at quarter past seven, what was it")).toBe("g6");
    // 7 pm: g6 (19:12) is nearer than g7 (19:20); g8 (19:33) lies beyond an hour's window.
    expect(top("what came out at 7 pm")).toBe("g6");
  });

  it("gives the time it ran and the time asked as the reason", () => {
    const r = resolveReferences("the thing you ran around 18:40, what came out of it?", session);
    expect(r.candidates[0]?.reasons).toContain('time: ran at 18:41 (asked "around 18:40")');
  });

  it("keeps to the tool the message names with the time", () => {
    // A command ran nearer 18:45 (g5, 18:47), but the listing is asked for.
    expect(top("the listing at around 18:45")).toBe("g4");
    expect(top("the command at around 18:45")).toBe("g5");
  });

  it("answers nothing when no record ran near the time", () => {
    // g3's text holds "06:00", but nothing ran near 06:00 (the leading zero makes it no 18:00).
    expect(resolveReferences("what came back at 06:00?", session).candidates).toEqual([]);
  });

  it("answers nothing by the time without timestamps (never a guess)", () => {
    const bare = session.map(({ timestamp: _, ...e }) => e);
    expect(resolveReferences("what came back at 18:40?", bare).candidates).toEqual([]);
    // Its words still decide ("the listing"), with no time as a reason; with timestamps the time is the reason.
    const listing = resolveReferences("the listing at 18:41", bare).candidates[0];
    expect(listing?.id).toBe("g4");
    expect(listing?.reasons.some((r) => r.startsWith("time:"))).toBe(false);
    expect(resolveReferences("the listing at 18:41", session).candidates[0]?.reasons).toContain(
      'time: ran at 18:41 (asked "at 18:41")',
    );
  });

  it("reads a timestamp's clock in its own offset", () => {
    const shifted = session.map((e) => ({ ...e, timestamp: e.timestamp!.replace("Z", "+05:30") }));
    expect(top("what did you run around 18:40?", shifted)).toBe("g4");
  });

  it("takes the later of two records equally near", () => {
    // 18:44 lies 3 minutes from g4 (18:41) and from g5 (18:47).
    expect(top("what did you get at 18:44?")).toBe("g5");
  });

  it("flags records that ran in the same minute", () => {
    const twins: ExecutionLike[] = [
      ...session,
      {
        id: "g9",
        tool_name: "execute_bash",
        tool_args: { command: "uptime" },
        summary: "up 12 days",
        timestamp: "2026-03-14T19:40:05Z",
      },
      {
        id: "g10",
        tool_name: "execute_bash",
        tool_args: { command: "free -m" },
        summary: "Mem: 3790 total",
        timestamp: "2026-03-14T19:40:50Z",
      },
    ];
    const r = resolveReferences("what did you run at 19:40?", twins);
    expect(r.ambiguous).toBe(true);
    expect(r.candidates.map((c) => c.id).sort()).toEqual(["g10", "g9"]);
    // A word of one of them tells them apart.
    expect(top("the memory check at 19:40", twins)).toBe("g10");
  });

  it("takes the most recent occurrence of the time in a session across midnight", () => {
    const night: ExecutionLike[] = [
      {
        id: "n1",
        tool_name: "execute_bash",
        tool_args: { command: "df -h" },
        summary: "/ 71 %",
        timestamp: t("00:10", "2026-03-14"),
      },
      {
        id: "n2",
        tool_name: "execute_bash",
        tool_args: { command: "du -sh /srv" },
        summary: "41G /srv",
        timestamp: t("23:55", "2026-03-14"),
      },
      {
        id: "n3",
        tool_name: "execute_bash",
        tool_args: { command: "df -h" },
        summary: "/ 73 %",
        timestamp: t("00:11", "2026-03-15"),
      },
      {
        id: "n4",
        tool_name: "execute_bash",
        tool_args: { command: "ls /srv" },
        summary: "4 entries",
        timestamp: t("00:25", "2026-03-15"),
      },
    ];
    expect(top("what did you run at 00:10?", night)).toBe("n3");
    expect(top("what ran around midnight?", night)).toBe("n2");
  });

  it("still reads numbers that are no time as content", () => {
    const versions: ExecutionLike[] = [
      {
        id: "v1",
        tool_name: "execute_bash",
        tool_args: { command: "node -v" },
        summary: "v18.20.4",
        timestamp: t("18:20"),
      },
      {
        id: "v2",
        tool_name: "read_file",
        tool_args: { path: ".nvmrc" },
        summary: "pinned node 18.20 for the build",
        timestamp: t("18:27"),
      },
    ];
    // A version pinned "at" a number is no time (v1 ran at 18:20); the same number after "run at" is.
    expect(top("the node pinned at 18.20", versions)).toBe("v2");
    expect(top("what did you run at 18.20", versions)).toBe("v1");
  });

  it("gives a sensible answer on bad input, never a crash or an invented id", () => {
    const ids = new Set(session.map((e) => e.id));
    const odd: ExecutionLike[] = [
      { ...session[0]!, timestamp: "soon" },
      { ...session[1]!, timestamp: "2026-03-14T29:61:00Z" },
      { ...session[2]!, timestamp: "2099-01-01T18:40:00Z" },
      ...session.slice(3),
    ];
    for (const text of ["what did you run at 25:99?", "what did you run at 18:40?", "and at 99:99", "at 7:61?"])
      for (const r of [resolveReferences(text, odd), resolveReferences(text, session)])
        for (const c of r.candidates) expect(ids.has(c.id), `${text}: ${c.id}`).toBe(true);
    // No time of day at all: nothing picked by it.
    for (const text of ["and at 99:99", "at 7:61?"]) expect(resolveReferences(text, session).candidates).toEqual([]);
    // A record stamped after `now` is no run at that time once `now` is given.
    const now = new Date("2026-03-14T19:40:00Z");
    expect(top("what did you run at 18:40?", odd, { now })).toBe("g4");
  });
});
