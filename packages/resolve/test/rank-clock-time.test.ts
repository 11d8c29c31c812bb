import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { parseTimeOfDay } from "../src/resolution/clock-words.js";
import { resolveReferencesFullScan } from "./reference/full-scan.js";

const run = (id: string, command: string, summary: string, timestamp: string) => ({
  id,
  tool_name: "execute_bash",
  tool_args: { command },
  label: command,
  summary,
  result_type: "success" as const,
  timestamp,
});

// Four shell commands over an afternoon (UTC); the message gives a time of day on a 12-hour clock.
const session = [
  run("t1", "df -h /srv", "/srv 61% used of 2.0T", "2026-03-02T13:48:10Z"),
  run("t2", "systemctl status minio", "active (running) since 09:02", "2026-03-02T14:05:44Z"),
  run("t3", "du -sh /srv/minio/*", "bucket-a 410G, bucket-b 96G", "2026-03-02T14:06:52Z"),
  run("t4", "journalctl -u minio -n 20", "20 lines, 2 warnings about slow disks", "2026-03-02T14:31:07Z"),
];

describe("a clock time of the day in the message", () => {
  it("reads hours and minutes, with a.m./p.m. or left open", () => {
    expect(parseTimeOfDay("the one at like 2:05")).toEqual({
      minute: 125,
      halfDay: true,
      why: '"2:05"',
      words: ["2", "05"],
    });
    expect(parseTimeOfDay("around 2:05pm?")?.minute).toBe(14 * 60 + 5);
    expect(parseTimeOfDay("at 14:05")?.halfDay).toBe(false);
    expect(parseTimeOfDay("the cut at 00:31:10")).toBeUndefined();
    expect(parseTimeOfDay("from 2:05-2:30")).toBeUndefined();
  });

  it("picks the command that ran in that minute, not the latest one nor its neighbour a minute later", () => {
    const text = "what did the command at about 2:05 show";
    expect(resolveReferences(text, session).candidates[0]?.id).toBe("t2");
    expect(resolveReferencesFullScan(text, session).candidates[0]?.id).toBe("t2");
  });

  it("the clock time alone points at the record that ran then, whatever its tool", () => {
    const withList = [
      ...session.slice(0, 3),
      {
        id: "t5",
        tool_name: "list_files",
        tool_args: { path: "/srv/minio/bucket-b" },
        label: "/srv/minio/bucket-b",
        summary: "14 objects, newest 2026-03-01",
        result_type: "success" as const,
        timestamp: "2026-03-02T14:18:30Z",
      },
      session[3]!,
    ];
    for (const text of ["what did you run at about 2:18?", "whatever u ran around 14:18, what did it show"]) {
      expect(resolveReferences(text, withList).candidates[0]?.id).toBe("t5");
      expect(resolveReferencesFullScan(text, withList).candidates[0]?.id).toBe("t5");
    }
  });
});
