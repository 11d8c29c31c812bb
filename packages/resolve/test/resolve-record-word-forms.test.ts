// What a record's own text implies, in the forms a person writes: an abbreviation's plural ("GBs" for "GB").
// A hyphenated compound is also one word ("sign-ups" for "signups"). Sessions written for this test.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const first = (text: string, session: ExecutionLike[]) => resolveReferences(text, session).candidates[0]?.id;

const photos: ExecutionLike[] = [
  {
    id: "p1",
    tool_name: "execute_bash",
    tool_args: { command: "exiftool -csv camera/2026-06/ > meta.csv" },
    summary: "412 image files read; 3 without a capture date",
  },
  {
    id: "p2",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh camera/*" },
    summary: "camera/2026-05 18 GB, camera/2026-06 31 GB, camera/2026-07 9 GB",
  },
  {
    id: "p3",
    tool_name: "read_file",
    tool_args: { path: "albums/summer.txt" },
    summary: "album list: 64 photos picked for the print book",
  },
];

const warehouse: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "sql_query",
    tool_args: { query: "SELECT relname, n_live_tup FROM pg_stat_user_tables ORDER BY 2 DESC" },
    summary: "row counts: events 91,204,113; sessions 4,880,120; users 310,554",
  },
  {
    id: "w2",
    tool_name: "sql_query",
    tool_args: {
      query: "SELECT relname, pg_total_relation_size(relid) FROM pg_statio_user_tables ORDER BY 2 DESC LIMIT 3",
    },
    summary: "largest relations: events 48 GB, sessions 6.1 GB, audit_log 2.3 GB",
  },
  {
    id: "w3",
    tool_name: "read_file",
    tool_args: { path: "ops/retention.md" },
    summary: "retention policy: events kept 13 months, sessions 90 days",
  },
];

describe("an abbreviation's plural and singular name the same thing", () => {
  it("meets 'GB' from 'GBs'", () => {
    expect(first("how many GBs per month are we at?", photos)).toBe("p2");
  });
});

describe("what takes the most of something is its largest part", () => {
  it("meets 'largest' from 'hogging'", () => {
    expect(first("so what is hogging everything in there?", warehouse)).toBe("w2");
  });
});

const kiosk: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "read_file",
    tool_args: { path: "kiosk/settings.json" },
    summary: "screen timeout 120 s, idle page /welcome, printer queue kiosk-1",
  },
  {
    id: "k2",
    tool_name: "execute_bash",
    tool_args: { command: "tail -n 50 /var/log/kiosk/app.log" },
    summary: "10:02 printer job sent; 10:04 FATAL: cannot allocate framebuffer, shutting down",
  },
  {
    id: "k3",
    tool_name: "execute_bash",
    tool_args: { command: "supervisorctl status kiosk" },
    summary: "kiosk RUNNING pid 2204, uptime 0:00:41; 23 restarts today, last one exited with status 1",
  },
];

const [settings, appLog, supervisor] = kiosk as [ExecutionLike, ExecutionLike, ExecutionLike];
const printer: ExecutionLike = {
  id: "k4",
  tool_name: "execute_bash",
  tool_args: { command: "lpstat -o kiosk-1" },
  summary: "queue kiosk-1 empty, printer idle since 10:02",
};

describe("a crash said in everyday words", () => {
  it("meets 'exited' from 'keeps falling over'", () => {
    expect(first("how often has it been falling over?", [settings, supervisor, printer])).toBe("k3");
  });

  it("meets 'FATAL' from 'dies'", () => {
    expect(first("so what is the reason it dies?", [settings, appLog, printer])).toBe("k2");
  });
});

const garage: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "read_file",
    tool_args: { path: "inventory/shelves.csv" },
    summary: "212 items on 9 shelves; paint tins 14, tiles 3 boxes",
  },
  {
    id: "g2",
    tool_name: "execute_bash",
    tool_args: { command: "inventory prune --older-than 5y" },
    summary: "31 items removed: paint tins 11, old cables 20; 181 left",
  },
  {
    id: "g3",
    tool_name: "execute_bash",
    tool_args: { command: "inventory count --shelf 4" },
    summary: "shelf 4: 26 items, tiles 3 boxes, drill bits 1 case",
  },
];

describe("removal said in everyday words", () => {
  it("meets 'removed' from 'get rid of' and 'thrown away'", () => {
    expect(first("how many items did we get rid of?", garage)).toBe("g2");
    expect(first("what got thrown away?", garage)).toBe("g2");
  });
});

const thesis: ExecutionLike[] = [
  {
    id: "t1",
    tool_name: "execute_bash",
    tool_args: { command: "rsync -a ~/thesis/ /media/usb/thesis/" },
    summary: "sent 412 MB, 1,904 files, speedup 1.00",
  },
  {
    id: "t2",
    tool_name: "execute_bash",
    tool_args: { command: "cd /media/usb/thesis && md5sum -c ~/thesis.md5" },
    summary: "1,904 files: OK, 0 mismatched",
  },
  {
    id: "t3",
    tool_name: "read_file",
    tool_args: { path: "thesis/chapters/03-methods.tex" },
    summary: "Methods chapter: 14 pages, 3 figures, 2 tables",
  },
];

describe("what a checksum answers", () => {
  it("meets a checksum run from 'identical' and 'corrupted'", () => {
    expect(first("is the stick really identical?", thesis)).toBe("t2");
    expect(first("was anything corrupted on the stick?", thesis)).toBe("t2");
  });
});

const shop: ExecutionLike[] = [
  {
    id: "n1",
    tool_name: "sql_query",
    tool_args: { query: "SELECT count(*) FROM visits WHERE day >= current_date - 7" },
    summary: "18,204 visits this week",
  },
  {
    id: "n2",
    tool_name: "execute_bash",
    tool_args: { command: "analytics funnel --week 47" },
    summary: "412 sign-ups, 96 check-outs, 31 refunds",
  },
];

describe("a hyphenated compound is also one word", () => {
  it("meets 'sign-ups' from 'signups'", () => {
    expect(first("how many signups this week?", shop)).toBe("n2");
  });
});

const photosync: ExecutionLike[] = [
  {
    id: "d1",
    tool_name: "execute_bash",
    tool_args: { command: "rsync -a --delete --dry-run ~/Pictures/ /nas/pictures/" },
    summary: "deleting 37 files, sending 1,208 files",
  },
  {
    id: "d2",
    tool_name: "execute_bash",
    tool_args: { command: "rsync -a ~/Pictures/ /nas/pictures/" },
    summary: "sent 1,208 files, 9.1 GB, speedup 1.02",
  },
];

describe("what a dry-run flag means", () => {
  it("meets a --dry-run record from 'without actually' and 'simulate'", () => {
    expect(first("what would it do without actually doing it?", photosync)).toBe("d1");
    expect(first("the run that was not for real, how many files?", photosync)).toBe("d1");
    expect(first("and the simulated one?", photosync)).toBe("d1");
  });
});

const printshop: ExecutionLike[] = [
  {
    id: "q1",
    tool_name: "execute_bash",
    tool_args: { command: "printq stats --today" },
    summary: "jobs today: 88 printed, 6 pending, 2 cancelled",
  },
  {
    id: "q2",
    tool_name: "read_file",
    tool_args: { path: "shop/prices.txt" },
    summary: "A4 colour 0.40, A3 colour 0.90, binding 3.50",
  },
];

describe("what a state means", () => {
  it("meets 'pending' from 'still waiting'", () => {
    expect(first("how many are still waiting?", printshop)).toBe("q1");
  });
});

const helpdesk: ExecutionLike[] = [
  {
    id: "h1",
    tool_name: "execute_bash",
    tool_args: { command: "desk queue --team billing" },
    summary: "billing queue: 14 open tickets, oldest 3 days",
  },
  {
    id: "h2",
    tool_name: "execute_bash",
    tool_args: { command: "desk queue --team shipping" },
    summary: "shipping queue: 0 open tickets",
  },
];

describe("what a count of 0 means", () => {
  it("meets a count of 0 from 'zero'", () => {
    expect(first("where were there zero tickets?", helpdesk)).toBe("h2");
  });
});

const crate: ExecutionLike[] = [
  {
    id: "c1",
    tool_name: "execute_bash",
    tool_args: { command: "cargo build --release" },
    summary: "Finished release profile in 38.2s",
  },
  {
    id: "c2",
    tool_name: "execute_bash",
    tool_args: { command: "cargo bench --bench parse" },
    summary: "benchmark parse_large: 412 ns/iter (+/- 9)",
  },
];

describe("speed said in everyday words", () => {
  it("meets a benchmark from 'how fast'", () => {
    expect(first("so how fast was it?", crate)).toBe("c2");
  });
});

const site: ExecutionLike[] = [
  {
    id: "i1",
    tool_name: "execute_bash",
    tool_args: { command: "ls -la assets/" },
    summary: "14 files, 3.2 MB total",
  },
  {
    id: "i2",
    tool_name: "execute_bash",
    tool_args: { command: "identify assets/banner.png" },
    summary: "PNG 1600x400 8-bit sRGB 212KB",
  },
];

describe("what a width x height means", () => {
  it("meets '1600x400' from 'dimensions' and 'resolution'", () => {
    expect(first("what were the dimensions?", site)).toBe("i2");
    expect(first("which resolution did it have?", site)).toBe("i2");
  });
});

const blog: ExecutionLike[] = [
  {
    id: "b1",
    tool_name: "read_file",
    tool_args: { path: "posts/2026-10-hiking.md" },
    summary: "post draft: 1,240 words, 3 headings",
  },
  {
    id: "b2",
    tool_name: "execute_bash",
    tool_args: { command: "ls static/uploads/2026/10" },
    summary: "ridge.jpg, lake.jpeg, map.webp",
  },
];

describe("a picture is a file of an image format", () => {
  it("meets jpg/webp files from 'photos'", () => {
    expect(first("how many photos are there?", blog)).toBe("b2");
  });
});

const lan: ExecutionLike[] = [
  {
    id: "l1",
    tool_name: "execute_bash",
    tool_args: { command: "nmap -sV 192.168.1.20" },
    summary: "22/tcp open ssh OpenSSH 9.6; 631/tcp open ipp CUPS 2.4",
  },
  {
    id: "l2",
    tool_name: "fetch_url",
    tool_args: { url: "https://myip.example/json" },
    summary: "client seen over IPv6: 2001:db8::7, ISP Example Net",
  },
];

describe("a version-numbered name splits into its parts", () => {
  it("meets 'IPv6' from 'v6'", () => {
    expect(first("and the v6 one, what was it?", lan)).toBe("l2");
  });
});
