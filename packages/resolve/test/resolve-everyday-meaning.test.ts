// Round 8: what a record is about, in the everyday words a person asks with. Each case is a session written for
// this test (a library's catalogue, a weather station, a print shop ...), never a sentence of an eval set.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const first = (text: string, session: ExecutionLike[]) => resolveReferences(text, session).candidates[0]?.id;

const library: ExecutionLike[] = [
  {
    id: "l1",
    tool_name: "read_file",
    tool_args: { path: "catalogue/branches.txt" },
    summary: "4 branches: north, harbour, station, old town; opening hours of each listed in one file",
  },
  {
    id: "l2",
    tool_name: "sql_query",
    tool_args: { query: "SELECT loan_id FROM loans WHERE due < now() - interval '60 days' LIMIT 4" },
    summary: "4 rows: loan id 8812, 8840, 9017, 9023",
  },
  {
    id: "l3",
    tool_name: "execute_bash",
    tool_args: { command: "wc -l catalogue/members.csv" },
    summary: "18,204 lines",
  },
];

describe("a two-letter word also holds its other number form", () => {
  it("meets a record's 'id' from 'ids'", () => {
    expect(first("what were the ids that came back?", library)).toBe("l2");
  });
  it("makes no plural of a stopword ('of' → 'ofs')", async () => {
    const { indexExecution } = await import("../src/resolution/executions.js");
    const x = indexExecution(library[0]!, 0);
    expect(x.tokens.has("branches")).toBe(true);
    expect([...x.tokens.keys()].filter((w) => ["ofs", "ins", "iss", "ors"].includes(w))).toEqual([]);
  });
});

const render: ExecutionLike[] = [
  {
    id: "r1",
    tool_name: "execute_bash",
    tool_args: { command: "ffmpeg -hide_banner -hwaccels" },
    summary: "Hardware acceleration methods: vdpau cuda vaapi qsv",
  },
  {
    id: "r2",
    tool_name: "read_file",
    tool_args: { path: "render/settings.ini" },
    summary: "threads = 8; codec h264; preset slow; 31 lines",
  },
  {
    id: "r3",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh renders/" },
    summary: "212G renders/",
  },
];

describe("a graphics card by its everyday name", () => {
  it("meets 'cuda' from 'gpu'", () => {
    expect(first("did it find a gpu?", render)).toBe("r1");
  });
});

const lint: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "read_file",
    tool_args: { path: "setup.cfg" },
    summary: "[flake8] max-line-length = 100; per-file-ignores: tests/*: E501; 40 lines",
  },
  {
    id: "k2",
    tool_name: "execute_bash",
    tool_args: { command: "ruff check src/" },
    summary: "Found 14 errors: 9 F401 imported but unused, 5 E711 comparison to None",
  },
  {
    id: "k3",
    tool_name: "grep",
    tool_args: { pattern: "# noqa", path: "src/" },
    summary: "6 matches: src/loader.py:12, src/loader.py:88, src/cli.py:5, src/db.py:40",
  },
];

describe("silencing a warning is what the tools' flags for it do", () => {
  it("meets 'noqa' from 'silence'", () => {
    expect(first("where do we silence the linter by hand?", lint)).toBe("k3");
  });
});

const containers: ExecutionLike[] = [
  {
    id: "d1",
    tool_name: "execute_bash",
    tool_args: { command: "docker system df" },
    summary: "Images 41 (12.3GB), Containers 6, Local Volumes 9 (3.1GB), Build Cache 2.2GB",
  },
  {
    id: "d2",
    tool_name: "execute_bash",
    tool_args: { command: "docker volume ls -f dangling=true" },
    summary: "4 volumes: pgdata_old, redis_tmp, cache_v1, e2e_scratch",
  },
  {
    id: "d3",
    tool_name: "read_file",
    tool_args: { path: "compose.yaml" },
    summary: "services web, worker, db, redis; volumes pgdata, redisdata; 58 lines",
  },
];

describe("what nothing uses any more", () => {
  it("meets 'dangling' from 'unused'", () => {
    expect(first("what is just sitting there unused?", containers)).toBe("d2");
  });
  it("meets 'dangling' from 'no longer used'", () => {
    expect(first("which of those are no longer used by anything?", containers)).toBe("d2");
  });
});

const shop: ExecutionLike[] = [
  {
    id: "n1",
    tool_name: "execute_bash",
    tool_args: { command: "npm audit --omit=dev" },
    summary: "3 vulnerabilities (1 moderate, 2 high): semver <7.5.2 ReDoS, tough-cookie prototype pollution",
  },
  {
    id: "n2",
    tool_name: "read_file",
    tool_args: { path: "package.json" },
    summary: "name shop-web; 24 dependencies, 31 devDependencies; engines node >=20",
  },
  {
    id: "n3",
    tool_name: "execute_bash",
    tool_args: { command: "npm outdated" },
    summary: "12 packages behind: react 18.2.0 -> 18.3.1, vite 5.0.12 -> 5.4.11",
  },
];

describe("a known weakness by any of its names", () => {
  it("meets 'vulnerabilities' from 'cves'", () => {
    expect(first("which cves did it find?", shop)).toBe("n1");
  });
  it("meets 'vulnerabilities' from 'exploitable'", () => {
    expect(first("is anything we ship known to be exploitable?", shop)).toBe("n1");
  });
});

const bakeryMail: ExecutionLike[] = [
  {
    id: "m1",
    tool_name: "execute_bash",
    tool_args: { command: "dig MX bakery-mail.example +short" },
    summary: "10 mx1.mailhost.example., 20 mx2.mailhost.example.",
  },
  {
    id: "m2",
    tool_name: "read_file",
    tool_args: { path: "/etc/postfix/main.cf" },
    summary: "myhostname = mail.bakery-mail.example; relayhost empty; 710 lines",
  },
  { id: "m3", tool_name: "execute_bash", tool_args: { command: "mailq" }, summary: "Mail queue is empty" },
];

describe("the name system by its everyday names", () => {
  it("meets a dig look-up from 'nameserver'", () => {
    expect(first("so what did the nameserver hand back?", bakeryMail)).toBe("m1");
  });
});

const bench: ExecutionLike[] = [
  {
    id: "b1",
    tool_name: "execute_bash",
    tool_args: { command: "dmesg | grep -i firmware" },
    summary: "iwlwifi 0000:02:00.0: loaded firmware version 77.2df8986f.0; pci bus 0000:02 ready",
  },
  {
    id: "b2",
    tool_name: "execute_bash",
    tool_args: { command: "lspci -nn" },
    summary:
      "00:02.0 VGA compatible controller [0300]: Intel UHD 620; 02:00.0 Network controller [0280]: Intel Wi-Fi 6 AX200",
  },
  {
    id: "b3",
    tool_name: "read_file",
    tool_args: { path: "/etc/modprobe.d/blacklist.conf" },
    summary: "blacklist nouveau; blacklist pcspkr; 12 lines",
  },
];

describe("a command named ls + a thing lists that thing", () => {
  it("meets lspci from 'the pci listing'", () => {
    expect(first("what did the pci listing show?", bench)).toBe("b2");
  });
});

const bikes: ExecutionLike[] = [
  {
    id: "f1",
    tool_name: "read_file",
    tool_args: { path: "shop/frame-a.md" },
    summary: "frame A: carbon, light, 7.1 kg; 2 sizes in stock",
  },
  {
    id: "f2",
    tool_name: "read_file",
    tool_args: { path: "shop/frame-b.md" },
    summary: "frame B: steel, 10.4 kg; 5 sizes in stock",
  },
  {
    id: "f3",
    tool_name: "read_file",
    tool_args: { path: "shop/wheels.md" },
    summary: "wheelset: 28 spokes, 1,640 g the pair",
  },
];

describe("a word's family beyond its stem: comparatives and -y adjectives", () => {
  it("meets 'light' from 'lighter'", () => {
    expect(first("which frame was the lighter one?", bikes)).toBe("f1");
  });
  it("grades adjectives, not agent nouns", async () => {
    const { wordFamily } = await import("../src/resolution/near-words.js");
    expect(wordFamily("darkest")).toContain("dark");
    expect(wordFamily("sharper")).toEqual(expect.arrayContaining(["sharp", "sharpest"]));
    expect(wordFamily("sharper")).not.toContain("sharpe");
    expect(wordFamily("fat")).toContain("fatty");
    // An agent noun is no comparative: "worker" has a plural, so "work" does not grade.
    expect(wordFamily("work")).not.toContain("worker");
    expect(wordFamily("print")).not.toContain("printer");
  });
});

const club: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "read_file",
    tool_args: { path: "club/members.csv" },
    summary: "64 members; 51 paid the yearly fee",
  },
  {
    id: "g2",
    tool_name: "sql_query",
    tool_args: { query: "select category, sum(amount) from ledger where amount < 0 group by 1" },
    summary: "5 rows: pitch hire -2,400.00; balls -310.50; kit -1,120.00; travel -860.00 (total expenses -4,690.50)",
  },
  {
    id: "g3",
    tool_name: "read_file",
    tool_args: { path: "club/fixtures.md" },
    summary: "14 fixtures, 6 home; season starts 6 September",
  },
];

describe("money going out by its everyday name", () => {
  it("meets 'expenses' from 'spending'", () => {
    expect(first("where did the spending go?", club)).toBe("g2");
  });
});

const heating: ExecutionLike[] = [
  {
    id: "h1",
    tool_name: "execute_bash",
    tool_args: { command: "systemctl status thermostat-bridge" },
    summary: "activating (auto-restart), restart counter is at 212; exit code 1 after 0.4s each cycle",
  },
  {
    id: "h2",
    tool_name: "read_file",
    tool_args: { path: "/etc/thermostat/bridge.yaml" },
    summary: "mqtt host 192.168.4.2, topic home/heating, poll every 30 s",
  },
  {
    id: "h3",
    tool_name: "execute_bash",
    tool_args: { command: "mosquitto_sub -t home/heating -C 3" },
    summary: "3 messages: setpoint 20.5, current 19.8, valve 40%",
  },
];

describe("going round without end", () => {
  it("meets 'cycle' from 'round and round'", () => {
    expect(first("is it just going round and round?", heating)).toBe("h1");
  });
});

const trip: ExecutionLike[] = [
  {
    id: "t1",
    tool_name: "read_file",
    tool_args: { path: "trip/itinerary.md" },
    summary: "Lisbon 3 nights, Porto 2 nights; train on day 4",
  },
  {
    id: "t2",
    tool_name: "sql_query",
    tool_args: { query: "select item, amount from bookings order by amount desc" },
    summary: "4 rows: hotel Porto 412.00; hotel Lisbon 388.50; train 64.20; tram passes 32.00",
  },
  {
    id: "t3",
    tool_name: "read_file",
    tool_args: { path: "trip/packing.md" },
    summary: "22 items; adapters, sunscreen, rain jacket",
  },
];

describe("money is an amount", () => {
  it("meets 'amount' from 'money'", () => {
    expect(first("which bit took most of the money?", trip)).toBe("t2");
  });
});

const infra: ExecutionLike[] = [
  {
    id: "v1",
    tool_name: "execute_bash",
    tool_args: { command: "terraform state list" },
    summary: "14 resources: aws_instance.web[0..2], aws_lb.main, aws_s3_bucket.assets",
  },
  {
    id: "v2",
    tool_name: "execute_bash",
    tool_args: { command: "terraform destroy -target=aws_instance.web -auto-approve" },
    summary: "Destroy complete! Resources: 3 destroyed.",
  },
  {
    id: "v3",
    tool_name: "read_file",
    tool_args: { path: "infra/main.tf" },
    summary: "provider aws eu-west-1; module vpc; 3 web instances t3.small",
  },
];

describe("destroying things on purpose", () => {
  it("meets 'destroy' from 'nuked'", () => {
    expect(first("so what got nuked in the end?", infra)).toBe("v2");
  });
});
