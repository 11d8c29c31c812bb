import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { readTranscript } from "@artifact-refs/context";
import { DEFAULT_REQUESTS, ScriptedProvider, TEST_COMMAND, runDemo } from "@artifact-refs/demo-agent";

const repo = resolve(import.meta.dirname, "../../..");
/** The floor the offline demo must beat: at least this share of naive input tokens saved. */
const SAVINGS_FLOOR_PCT = 60;

describe("offline demo (scripted policy, real tools, real fs store)", () => {
  let summary: Awaited<ReturnType<typeof runDemo>>;
  const out = mkdtempSync(join(tmpdir(), "aref-demo-test-"));
  const store = mkdtempSync(join(tmpdir(), "aref-demo-store-"));

  beforeAll(async () => {
    summary = await runDemo({
      provider: new ScriptedProvider(),
      store,
      workspace: repo,
      outDir: out,
      requests: DEFAULT_REQUESTS,
      allowedCommands: [TEST_COMMAND],
    });
  }, 240_000);

  it("keeps every call within its budget", () => {
    expect(summary.calls.length).toBeGreaterThanOrEqual(DEFAULT_REQUESTS.length * 2);
    for (const call of summary.calls) {
      expect(call.budgetOk, `call ${call.call}`).toBe(true);
      expect(call.refsTokens, `call ${call.call}`).toBeLessThanOrEqual(summary.maxPromptTokens);
    }
  });

  it("fetches every externalized output back byte-exact", () => {
    expect(summary.rehydrated).toBeGreaterThanOrEqual(4);
    expect(summary.rehydrationMismatches).toBe(0);
  });

  it(`saves at least ${SAVINGS_FLOOR_PCT}% of the naive transcript's input tokens`, () => {
    expect(summary.naiveTotal).toBeGreaterThan(summary.refsTotal);
    expect(summary.savedPct).toBeGreaterThanOrEqual(SAVINGS_FLOOR_PCT);
  });

  it("resolves follow-ups to the artifacts they mean and answers from bounded fetches", () => {
    const byText = new Map(summary.requests.map((r) => [r.text, r]));
    const readme = byText.get("Load README.md and tell me what this project is.")!;
    const storeReadme = byText.get("Load packages/store/README.md too.")!;
    const refOf = (answer: string) => /stored as (art:[0-9a-f]{12,})/.exec(answer)?.[1];
    const testRun = byText.get(DEFAULT_REQUESTS[2]!)!;
    expect(byText.get("summarize what I just loaded")!.referenced).toEqual([refOf(storeReadme.answer)]);
    expect(byText.get("what did the test run say?")!.referenced).toEqual([refOf(testRun.answer)]);
    expect(byText.get("what did the test run say?")!.answer).toMatch(/Tests\s+\d+ passed/);
    expect(new Set(byText.get("compare the two READMEs")!.referenced)).toEqual(
      new Set([refOf(readme.answer), refOf(storeReadme.answer)]),
    );
    expect(byText.get("compare the two READMEs")!.answer).toMatch(/^Comparison/);
  });

  it("names the scripted policy as scripted, never as an LLM", () => {
    expect(summary.provider).toMatch(/scripted policy .*not an LLM/);
  });

  it("writes a transcript aref analyze can read, metrics and an HTML report", async () => {
    expect(existsSync(summary.reportPath)).toBe(true);
    const html = readFileSync(summary.reportPath, "utf8");
    expect(html).toContain("<svg");
    expect(html).toContain(summary.session);
    const transcript = await readTranscript(summary.transcriptPath);
    expect(transcript.entries.some((e) => e.details?.artifactRef)).toBe(true);
    const metrics = readFileSync(summary.metricsPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; budget_ok: boolean });
    expect(metrics.length).toBe(summary.calls.length);
    expect(metrics.every((m) => m.type === "prompt_metrics" && m.budget_ok)).toBe(true);
  });

  it("opens in real Chromium with its chart, table and answers, and no network request", async () => {
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
      const external: string[] = [];
      page.on("request", (req) => {
        if (!req.url().startsWith("file:")) external.push(req.url());
      });
      await page.goto(pathToFileURL(summary.reportPath).href);
      expect(await page.title()).toContain(summary.session);
      expect(await page.locator("#chart svg rect").count()).toBeGreaterThanOrEqual(summary.calls.length * 2);
      expect(await page.locator("tbody tr").count()).toBe(summary.calls.length);
      expect(await page.locator("li p.q").count()).toBe(DEFAULT_REQUESTS.length);
      await expect(
        page
          .getByText(`${summary.savedPct.toFixed(1)}%`)
          .first()
          .isVisible(),
      ).resolves.toBe(true);
      const shots = join(import.meta.dirname, "..", "test-output");
      mkdirSync(shots, { recursive: true });
      const shot = join(shots, "demo-report.png");
      await page.screenshot({ path: shot, fullPage: true });
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      expect(external).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
