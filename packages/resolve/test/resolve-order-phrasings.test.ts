// Order and time said in many ways over one made-up session (a robot fleet): an order word over any noun,
// "before last", "two checks ago", an order within a before/after event, "X vs Y" of two positions, and the
// calendar day ("yesterday's"). Sessions and wordings written for these tests, not taken from any set.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const at = (day: number, hour: number) =>
  `2026-03-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00Z`;
const fleet: ExecutionLike[] = [
  {
    id: "e1",
    tool_name: "execute_bash",
    tool_args: { command: "fleetctl status --all" },
    summary: "12 robots online, 3 charging, battery avg 71%",
    timestamp: at(9, 8),
  },
  {
    id: "e2",
    tool_name: "read_file",
    tool_args: { path: "config/fleet.yaml" },
    summary: "max_speed: 1.5, charge_threshold: 20",
    timestamp: at(9, 9),
  },
  {
    id: "e3",
    tool_name: "execute_bash",
    tool_args: { command: "fleetctl status --all" },
    summary: "11 robots online, 4 charging, battery avg 64%",
    timestamp: at(9, 10),
  },
  {
    id: "e4",
    tool_name: "write_file",
    tool_args: { path: "config/fleet.yaml" },
    summary: "Wrote 420 bytes: charge_threshold 30",
    timestamp: at(10, 8),
  },
  {
    id: "e5",
    tool_name: "execute_bash",
    tool_args: { command: "systemctl restart fleet-controller" },
    summary: "fleet-controller restarted",
    timestamp: at(10, 9),
  },
  {
    id: "e6",
    tool_name: "execute_bash",
    tool_args: { command: "fleetctl status --all" },
    summary: "12 robots online, 2 charging, battery avg 80%",
    timestamp: at(10, 10),
  },
  {
    id: "e7",
    tool_name: "execute_bash",
    tool_args: { command: "fleetctl ping --all-hosts" },
    summary: "14/15 hosts ok, dock-7 timeout",
    timestamp: at(10, 11),
  },
  {
    id: "e8",
    tool_name: "execute_bash",
    tool_args: { command: "fleetctl ping --all-hosts" },
    summary: "15/15 hosts ok",
    timestamp: at(10, 12),
  },
  {
    id: "e9",
    tool_name: "execute_bash",
    tool_args: { command: "fleetctl status --all" },
    summary: "13 robots online, 1 charging, battery avg 85%",
    timestamp: at(10, 13),
  },
];
const ids = (text: string, n = 1, xs = fleet) =>
  resolveReferences(text, xs)
    .candidates.slice(0, n)
    .map((c) => c.id);

describe("an order word over a noun of any kind", () => {
  it("'the first X, …' and 'the first X - …' order the records the words name", () => {
    expect(ids("the first fleet status, before all the config changes - how many robots were online?")).toEqual(["e1"]);
    expect(ids("the first status - battery?")).toEqual(["e1"]);
  });

  it("keeps a position inside a content out ('the first line of')", () => {
    const r = resolveReferences("what's on the first line of the fleet config", fleet);
    expect(r.candidates[0]?.reasons.join(" ")).not.toMatch(/order: first/);
  });
});

describe("counted back from the latest", () => {
  it("'before last' without 'the', and 'two checks ago'", () => {
    expect(ids("the status check before last")).toEqual(["e6"]);
    expect(ids("the ping before last")).toEqual(["e7"]);
    expect(ids("the status two checks ago")).toEqual(["e6"]);
    expect(ids("the status from a couple of steps back")).toEqual(["e6"]);
  });

  it("a span of time after 'before last' is no position ('before last week')", () => {
    const r = resolveReferences("the status before last week", fleet);
    expect(r.candidates[0]?.reasons.join(" ") ?? "").not.toMatch(/before last/);
  });
});

describe("an order within a before/after event", () => {
  it("'the very first …, before the restart' is the earliest on that side, not the nearest", () => {
    expect(ids("the very first status, before the restart")).toEqual(["e1"]);
    expect(ids("the status right before the restart")).toEqual(["e3"]);
  });
});

describe("'X vs Y' of two positions", () => {
  it("a side that names only a position takes the other side's words", () => {
    expect(ids("battery from the very start vs now", 2).sort()).toEqual(["e1", "e9"]);
    expect(ids("first status vs latest status", 2).sort()).toEqual(["e1", "e9"]);
    expect(ids("the initial status vs the current one", 2).sort()).toEqual(["e1", "e9"]);
  });

  it("a bare 'after' takes the other side's event", () => {
    expect(ids("the status before the restart vs after", 2).sort()).toEqual(["e3", "e6"]);
  });

  it("a general comparison with no position stays general", () => {
    expect(ids("rust vs go for a robot controller")).toEqual([]);
  });
});

describe("the calendar day", () => {
  it("'yesterday's' and 'today's' pick by the timestamps' day", () => {
    expect(ids("yesterday's status")).toEqual(["e3"]);
    expect(ids("yesterday's status vs today's", 2).sort()).toEqual(["e3", "e9"]);
  });

  it("without timestamps the day picks no position: the words decide", () => {
    const bare = fleet.map(({ timestamp: _t, ...e }) => e);
    const r = resolveReferences("yesterday's status", bare);
    expect(r.candidates[0]?.reasons.join(" ")).not.toMatch(/time:/);
  });

  it("a day said of life, not of a record, refers to nothing", () => {
    expect(ids("what should I cook for today's dinner?")).toEqual([]);
  });
});

describe("an order phrase that names no kind counts the whole session", () => {
  it("'the second to last thing you ran, …' is any tool call, not only commands", () => {
    const xs: ExecutionLike[] = [
      ...fleet.slice(0, 3),
      { id: "q1", tool_name: "sql_query", tool_args: { query: "SELECT count(*) FROM docks" }, summary: "1 row: 15" },
      {
        id: "q2",
        tool_name: "execute_bash",
        tool_args: { command: "fleetctl ping --all-hosts" },
        summary: "15/15 hosts ok",
      },
    ];
    expect(ids("btw the second to last thing you ran, did it work?", 1, xs)).toEqual(["q1"]);
  });

  it("'at the very start, …' as a clause of its own is the session's first record", () => {
    const xs: ExecutionLike[] = [
      { id: "s1", tool_name: "execute_bash", tool_args: { command: "loadgen --rps 500" }, summary: "p99 41 ms" },
      ...fleet.slice(0, 3),
    ];
    expect(ids("and at the very start, what was the status number?", 1, xs)).toEqual(["s1"]);
    // Not a clause of its own: the first of what the words name.
    expect(ids("the robots online in the status at the very start", 1, xs)).toEqual(["e1"]);
  });
});

describe("order words written otherwise", () => {
  it("prior to / preceding / following, and an event said with a gerund", () => {
    expect(ids("the status check prior to the restart")).toEqual(["e3"]);
    expect(ids("the status check preceding the restart")).toEqual(["e3"]);
    expect(ids("the status check following the restart")).toEqual(["e6"]);
    expect(ids("the status just after restarting the controller")).toEqual(["e6"]);
  });

  it("last but one, one-before-last, the prior X, the time before", () => {
    expect(ids("the last-but-one status")).toEqual(["e6"]);
    expect(ids("the one-before-last status")).toEqual(["e6"]);
    expect(ids("the prior ping")).toEqual(["e7"]);
    expect(ids("what did the status say the time before")).toEqual(["e6"]);
  });

  it("'our original', 'before we touched anything', 'the first and the last'", () => {
    expect(ids("our original status check")).toEqual(["e1"]);
    expect(ids("the status before we touched anything")).toEqual(["e1"]);
    expect(ids("the first and the last status", 2).sort()).toEqual(["e1", "e9"]);
  });
});

describe("the n-th time of one thing done again", () => {
  it("counts the records of the tool most of the matches are, not a read that shares a word", () => {
    const xs: ExecutionLike[] = [
      { id: "r1", tool_name: "read_file", tool_args: { path: "mirrors/targets.txt" }, summary: "9 mirror targets" },
      {
        id: "r2",
        tool_name: "execute_bash",
        tool_args: { command: "for t in $(cat mirrors/targets.txt); do rsync -a pkgs/ $t; done" },
        summary: "7/9 targets synced",
      },
      { id: "r3", tool_name: "write_file", tool_args: { path: "mirrors/rsync.conf" }, summary: "timeout 60" },
      {
        id: "r4",
        tool_name: "execute_bash",
        tool_args: { command: "for t in $(cat mirrors/targets.txt); do rsync -a pkgs/ $t; done" },
        summary: "9/9 targets synced",
      },
    ];
    expect(ids("the second time you synced all mirror targets, how many worked?", 1, xs)).toEqual(["r4"]);
  });
});

describe("counts, events and comparisons said at more length", () => {
  it("'two status checks back', '3 status checks ago'", () => {
    expect(ids("two status checks back")).toEqual(["e6"]);
    expect(ids("3 status checks ago")).toEqual(["e3"]);
  });

  it("'before you restarted anything' is before the restart; 'before we touched anything' the start", () => {
    expect(ids("what did the status show before you restarted anything")).toEqual(["e3"]);
    expect(ids("what did the status show before we touched anything")).toEqual(["e1"]);
  });

  it("'what changed between the first X and the last one'", () => {
    expect(ids("what changed between the first status and the last one", 2).sort()).toEqual(["e1", "e9"]);
  });
});

describe("the event's own words", () => {
  it("an order inside the event picks which record stands for it", () => {
    expect(ids("the ping right after the first status check")).toEqual(["e7"]);
  });

  it("'your …' and a dotted name inside the event", () => {
    expect(ids("the status check right after your fleet.yaml write")).toEqual(["e6"]);
    expect(ids("the status check right after you wrote fleet.yaml")).toEqual(["e6"]);
  });
});

describe("the outcome asked with an order", () => {
  const runs: ExecutionLike[] = [
    {
      id: "t1",
      tool_name: "run_tests",
      tool_args: { command: "pytest -q" },
      summary: "40 passed, 2 failed",
      result_type: "error",
    },
    { id: "t2", tool_name: "edit_file", tool_args: { path: "etl/join.py" }, summary: "drop duplicates" },
    { id: "t3", tool_name: "run_tests", tool_args: { command: "pytest -q" }, summary: "42 passed" },
    { id: "t4", tool_name: "edit_file", tool_args: { path: "etl/join.py" }, summary: "validate one_to_one" },
    {
      id: "t5",
      tool_name: "run_tests",
      tool_args: { command: "pytest -q" },
      summary: "41 passed, 1 failed",
      result_type: "error",
    },
  ];
  it("'the last run that passed' is the latest that did not fail", () => {
    expect(ids("the last run that passed", 1, runs)).toEqual(["t3"]);
    expect(ids("the most recent green test run", 1, runs)).toEqual(["t3"]);
  });

  it("'the run before last' with no other word is a command or a test run, not an edit", () => {
    expect(ids("the run before last", 1, runs)).toEqual(["t3"]);
    expect(ids("the previous run", 1, runs)).toEqual(["t3"]);
  });

  it("'the earliest failure' is the first record that failed", () => {
    expect(ids("the earliest failure", 1, runs)).toEqual(["t1"]);
  });
});

describe("the older and the newer of two", () => {
  it("'the older of the two pings', 'the newer one'", () => {
    expect(ids("the older of the two pings")).toEqual(["e7"]);
    expect(ids("the newer ping")).toEqual(["e8"]);
    expect(ids("the later of the two pings")).toEqual(["e8"]);
  });

  it("'the first search vs the second': a bare ordinal takes the other side's kind, a tool word too", () => {
    expect(ids("the first ping vs the second", 2).sort()).toEqual(["e7", "e8"]);
    const xs: ExecutionLike[] = [
      { id: "w1", tool_name: "web_search", tool_args: { query: "tide tables brest" }, summary: "7 results" },
      { id: "w2", tool_name: "fetch_url", tool_args: { url: "https://tides.example/brest" }, summary: "high 06:12" },
      { id: "w3", tool_name: "web_search", tool_args: { query: "tide coefficient meaning" }, summary: "5 results" },
    ];
    expect(ids("the first search vs the second", 2, xs).sort()).toEqual(["w1", "w3"]);
  });
});

describe("clock phrases said otherwise", () => {
  it("'3 hours back', 'a couple hours ago' go by the timestamps", () => {
    // The latest record ran at 13:00 on the 10th; status checks at 10:00 (e6) and 13:00 (e9).
    expect(resolveReferences("the status from 3 hours back", fleet).candidates[0]?.reasons.join(" ")).toMatch(/time:/);
    expect(ids("the status from 3 hours back")).toEqual(["e6"]);
    expect(ids("the status from a couple hours ago")).toEqual(["e6"]);
  });
});
