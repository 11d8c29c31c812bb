// The decision step: a message that talks about the session ("won't it", "did you", "the new …", "still")
// is answered by the record that stands out, even when that record holds only one of its words; the same
// words asked as a general question still refer to nothing. Sessions written for these tests (no sentence
// of the reference data sets).
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "read_file",
    tool_args: { path: "greenhouse/zones.toml" },
    summary: "6 zones, drip schedule 05:30 and 19:00, moisture floor 22%",
  },
  {
    id: "k2",
    tool_name: "execute_bash",
    tool_args: { command: "python sensors.py --poll" },
    summary: "zone 4 probe silent for 40 min, others reporting",
    result_type: "error",
  },
  {
    id: "k3",
    tool_name: "execute_bash",
    tool_args: { command: "systemctl restart valve-daemon" },
    summary: "valve-daemon restarted, solenoid bus re-enumerated",
  },
  {
    id: "k4",
    tool_name: "web_search",
    tool_args: { query: "capacitive soil probe calibration" },
    summary: "3 guides on calibrating capacitive probes in dry and wet soil",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("a message about the session answers its clear leader", () => {
  it("'won't it', 'did you', 'the new …', 'still' mark the message as about the session", () => {
    expect(parseQuery("why won't it open the drip line on its own").aboutSession).toBe(true);
    expect(parseQuery("what did you notice about the greenhouse tonight").aboutSession).toBe(true);
    expect(parseQuery("is the new bed layout any better").aboutSession).toBe(true);
    expect(parseQuery("is anything still misbehaving out there").aboutSession).toBe(true);
    // General questions and plain questions without those cues are not.
    expect(parseQuery("in general, why would a solenoid chatter").aboutSession).toBe(false);
    expect(parseQuery("is copper better than brass for fittings").aboutSession).toBe(false);
    // A request to do something new, and a question about history, are not about the session either.
    expect(parseQuery("could you help me sketch a raised bed").aboutSession).toBe(false);
    expect(parseQuery("were summers wetter here a century ago").aboutSession).toBe(false);
  });

  it("one word of a long message is enough when the message talks about the session and one record stands out", () => {
    // Only "solenoid" is in a record (k3): too little of the message for words alone.
    expect(ids("are you sure the solenoid quit clicking and rattling")[0]).toBe("k3");
    expect(ids("why won't it keep the solenoid from clicking and rattling")[0]).toBe("k3");
    expect(ids("is the solenoid clicking and rattling still")[0]).toBe("k3");
  });

  it("the same words without the session cues, or asked in general, still refer to nothing", () => {
    expect(ids("is solenoid clicking and rattling normal for cheap valves")).toEqual([]);
    expect(ids("in general, why does a solenoid keep clicking and rattling?")).toEqual([]);
  });

  it("a message about the session that matches no record stays unanswered", () => {
    expect(ids("did it sort out the clicking and rattling in the pipes")).toEqual([]);
  });
});

describe("a change named as touching or modifying", () => {
  const diffSession: ExecutionLike[] = [
    {
      id: "d1",
      tool_name: "execute_bash",
      tool_args: { command: "hg diff --stat" },
      summary: "9 files changed, 120 insertions(+), 40 deletions(-)",
    },
    {
      id: "d2",
      tool_name: "read_file",
      tool_args: { path: "docs/release-notes.md" },
      summary: "notes for 2.4: faster sync, new export dialog",
    },
    {
      id: "d3",
      tool_name: "web_search",
      tool_args: { query: "mercurial phases explained" },
      summary: "4 results on draft, public and secret phases",
    },
  ];
  const diffIds = (text: string) => resolveReferences(text, diffSession).candidates.map((c) => c.id);

  it("'touched'/'touching' meet a record of what changed", () => {
    expect(diffIds("how many lines did we end up touching overall")[0]).toBe("d1");
    expect(diffIds("which parts of the tree have we touched")[0]).toBe("d1");
    expect(diffIds("is touching the lockfile by hand ever a good idea in general")).toEqual([]);
  });
});

describe("a leader matched only by a generic noun", () => {
  const cellar: ExecutionLike[] = [
    {
      id: "c1",
      tool_name: "read_file",
      tool_args: { path: "cellar/inventory.csv" },
      summary: "214 bottles across 9 racks, 31 flagged past peak",
    },
    {
      id: "c2",
      tool_name: "execute_bash",
      tool_args: { command: "python label_scan.py --batch 7" },
      summary: "read 88 labels, 6 unreadable: smudged ink",
    },
    {
      id: "c3",
      tool_name: "read_file",
      tool_args: { path: "cellar/climate.log" },
      summary: "2,940 entries: humidity 68-74%, one spike to 81% on Tuesday",
    },
  ];
  const cellarIds = (text: string, xs = cellar) => resolveReferences(text, xs).candidates.map((c) => c.id);

  it("answers a message about the session when it is the one record that scores at all", () => {
    // "entries" is a generic noun (weight 0.3): alone it is too little, unless nothing else in the session matches.
    expect(cellarIds("why are there still so many entries piling up in there")[0]).toBe("c3");
    expect(cellarIds("did it keep adding entries overnight")[0]).toBe("c3");
    expect(cellarIds("are entries like that normal for a wine fridge")).toEqual([]);
  });

  it("does not when another record matches the same generic noun", () => {
    const two: ExecutionLike[] = [
      ...cellar,
      {
        id: "c4",
        tool_name: "read_file",
        tool_args: { path: "cellar/guestbook.txt" },
        summary: "40 entries from the tasting",
      },
    ];
    expect(cellarIds("did it keep adding entries overnight", two)).toEqual([]);
  });
});

describe("a leader matched only through a typo or a near word", () => {
  const log: ExecutionLike[] = [
    {
      id: "m1",
      tool_name: "execute_bash",
      tool_args: { command: "grep -c timeout access.log" },
      summary: "1 match, on the right edge of the window at 03:10",
    },
    {
      id: "m2",
      tool_name: "read_file",
      tool_args: { path: "notes/oncall.md" },
      summary: "rota: Ana mornings, Ben evenings",
    },
  ];
  const logIds = (text: string) => resolveReferences(text, log).candidates.map((c) => c.id);

  it("does not answer small talk that only looks like the session ('win' ~ 'window', 'game' ~ 'match', 'night' ~ 'right')", () => {
    expect(logIds("did they win the game?")).toEqual([]);
    expect(logIds("did you sleep well last night?")).toEqual([]);
  });

  it("the record's own words still answer", () => {
    expect(logIds("did you get the match count?")[0]).toBe("m1");
  });
});

describe("'for now' is no order word", () => {
  it("'that's all for now' refers to nothing; '… now?' still asks for the latest", () => {
    expect(ids("thanks, that's all for now")).toEqual([]);
    expect(ids("good enough for now.")).toEqual([]);
    expect(ids("what does the sensor poll say now?")[0]).toBe("k2");
  });
});

describe("a pointer at a thing in view marks a message as about the session", () => {
  it("'in there' and 'the … thing/stuff' answer the clear leader", () => {
    expect(ids("does the solenoid thing ever come back by itself if the power flickers?")[0]).toBe("k3");
    expect(ids("anything in there about drip timing on rainy weekends?")[0]).toBe("k1");
    expect(ids("is the calibration stuff any good for clay?")[0]).toBe("k4");
  });
  it("'a … thing' and 'there is' point at nothing", () => {
    expect(ids("is there a solenoid thing that works without power?")).toEqual([]);
    expect(parseQuery("is there a solenoid thing that works without power?").aboutSession).toBe(false);
  });
});
