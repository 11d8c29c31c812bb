// `aref analyze`'s human output and chart, on the built binary (dist/bin.js) with generated
// transcripts: the default output fits 100 columns whatever the terminal, --wide prints every
// column, and the chart is the shared bar-chart renderer's (a label per file, a series per policy).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AnalyzeReportSchema, POLICY_NAMES } from "@artifact-refs/analyze";
import { bigLog } from "@artifact-refs/tooling/testing/big-log";
import { displayColumns, WIDE_NAMES, widestLine } from "@artifact-refs/tooling/testing/display-columns";
import { DOMParser } from "@xmldom/xmldom";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, spawnCli, tempDir } from "./helpers.js";

const chars = (line: string) => Array.from(line).length;

function transcript(reads: number, size: number): string {
  const messages: Array<Record<string, string>> = [
    { role: "system", content: "You are an agent." },
    { role: "user", content: "Find the failing request in the logs." },
  ];
  for (let i = 0; i < reads; i++) {
    messages.push({ role: "assistant", content: `cat app-${i}.log` });
    messages.push({ role: "tool", content: size ? bigLog(size + 1_000 * i) : `ok ${i}`, tool_name: "bash" });
  }
  messages.push({ role: "assistant", content: "The failing request is 17." });
  return `${messages.map((m) => JSON.stringify(m)).join("\n")}\n`;
}

const FILES = Array.from(
  { length: 12 },
  (_, i) => `swe-benchmark__long-agent-trajectory-name__instance-${String(1000 + i * 37)}.jsonl`,
);
let dir: string;

beforeAll(() => {
  expect(existsSync(BIN)).toBe(true);
  dir = join(tempDir("aref-analyze-report-"), "runs");
  mkdirSync(dir);
  for (const [i, name] of FILES.entries())
    writeFileSync(join(dir, name), i % 4 === 3 ? transcript(1, 0) : transcript(2 + (i % 2), 10_000 + 800 * i));
});

describe("aref analyze on the built binary: output width", () => {
  it("prints every default line within 100 columns, piped and with a narrow COLUMNS", async () => {
    const cwd = tempDir();
    const r = await spawnCli(["analyze", dir, "--chart", "policies.svg"], { cwd, env: { COLUMNS: "40" } });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(Math.max(...lines.map(chars))).toBeLessThanOrEqual(100);
    const header = lines.findIndex((l) => l.startsWith("transcript (.jsonl)"));
    expect(lines[header]).toMatch(/ calls +naive +window +append +deepag +claude +a\.clear +swe5 +viol$/);
    const rows = lines.slice(header + 1, header + 1 + FILES.length + 1);
    expect(rows.at(-1)).toMatch(/^total \(12 files\) +\d+ /);
    expect(new Set(rows.map((l) => l.split(/ {2,}/)[0])).size).toBe(FILES.length + 1);
    expect(new Set([lines[header]!, ...rows].map(chars)).size).toBe(1); // right-aligned numbers line up
    expect(r.out).toContain("Worst file per strategy");
    expect(r.out).toMatch(/chart: policies\.svg\n$/);
  });

  it("CJK and emoji file names: every default line within 100 display columns, the table lined up", async () => {
    const wide = join(tempDir("aref-analyze-wide-"), "runs");
    mkdirSync(wide);
    for (const [i, name] of WIDE_NAMES.entries())
      writeFileSync(join(wide, name), transcript(1 + (i % 2), 9_000 + 700 * i));
    const r = await spawnCli(["analyze", wide, "--turns"]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(100);
    const lines = r.out.split("\n");
    const header = lines.findIndex((l) => l.startsWith("transcript (.jsonl)"));
    const table = lines.slice(header, header + 1 + WIDE_NAMES.length + 1);
    expect(table.at(-1)).toMatch(/^total \(7 files\) /);
    expect(new Set(table.map(displayColumns)).size).toBe(1);
    expect(new Set(table.map((l) => l.split(/ {2,}/)[0])).size).toBe(table.length);
    for (const name of WIDE_NAMES) expect(r.out).toContain(`\n${name}: per call\n`);
  });

  it("one transcript: the per-call table fits too", async () => {
    const r = await spawnCli(["analyze", join(dir, FILES[0]!)]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/: per call\n\ncall +msg +naive +refs +window +append +n\.pfx/);
    expect(Math.max(...r.out.split("\n").map(chars))).toBeLessThanOrEqual(100);
  });

  it("--wide prints every column (markdown), --json keeps every field", async () => {
    const wide = await spawnCli(["analyze", dir, "--wide", "--turns"]);
    expect(wide.code).toBe(0);
    const header = wide.out.split("\n").find((l) => l.startsWith("| transcript "))!;
    const columns = ["calls", "naive tokens", "floor", "refs", "window tokens / cost", "append tokens / cost"];
    for (const column of [...columns, ...POLICY_NAMES, "budget violations", "rehydration mismatches"])
      expect(header).toContain(` ${column} |`);
    expect(wide.out).toContain(`| ${FILES[0]} `);
    expect(wide.out).toContain("| window prefix |");
    expect(Math.max(...wide.out.split("\n").map(chars))).toBeGreaterThan(100);
    const json = await spawnCli(["analyze", dir, "--json"]);
    const report = AnalyzeReportSchema.parse(JSON.parse(json.out));
    expect(report.files.map((f) => f.file)).toEqual(FILES);
    expect(Object.keys(report.files[0]!.policies).sort()).toEqual([...POLICY_NAMES].sort());
  });

  it("--help documents --wide and the chart", async () => {
    const r = await spawnCli(["analyze", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--wide +print every column/);
    expect(r.out).toMatch(/--chart <file> +write an SVG chart: per transcript, each policy/);
    expect(r.out).toContain("$ aref analyze ../shared/data/trajectories --wide");
  });
});

describe("aref analyze --chart on the built binary", () => {
  it("writes well-formed SVG: two panels, each a label per file and one bar series per policy", async () => {
    const cwd = tempDir();
    const r = await spawnCli(["analyze", dir, "--chart", "c.svg", "--quiet"], { cwd });
    expect(r.code).toBe(0);
    const svg = readFileSync(join(cwd, "c.svg"), "utf8");
    const errors: string[] = [];
    const doc = new DOMParser({ onError: (level, msg) => void errors.push(`${level}: ${msg}`) }).parseFromString(
      svg,
      "image/svg+xml",
    );
    expect(errors).toEqual([]);
    const panels = Array.from(doc.documentElement!.getElementsByTagName("svg"));
    expect(panels).toHaveLength(2);
    for (const panel of panels) {
      const labels = Array.from(panel.getElementsByTagName("text")).filter(
        (t) => t.getAttribute("class") === "group-label",
      );
      expect(labels.map((l) => l.getElementsByTagName("title")[0]?.textContent ?? l.textContent)).toEqual([
        ...FILES,
        "total (12 files)",
      ]);
      const legend = Array.from(panel.getElementsByTagName("g")).map((g) => g.textContent);
      expect(legend).toEqual(["window (artifact-refs)", "append (artifact-refs)", ...POLICY_NAMES]);
      const series = new Set(
        Array.from(panel.getElementsByTagName("rect"))
          .filter((b) => b.getAttribute("class") === "bar")
          .map((b) => b.getAttribute("data-series")),
      );
      expect(series.size).toBe(2 + POLICY_NAMES.length);
    }
  });
});
