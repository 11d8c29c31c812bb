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

  it("quotes what it fetched: the test run's counts and failing tests, the READMEs' sections compared", () => {
    const byText = new Map(summary.requests.map((r) => [r.text, r]));
    // The summary quotes the loaded README's title and its first sentence.
    expect(byText.get("summarize what I just loaded")!.answer).toMatch(/# @artifact-refs\/store \| "[A-Z][^"]{20,}"/);
    const testAnswer = byText.get("what did the test run say?")!.answer;
    expect(testAnswer).toMatch(/Tests \d+ passed/);
    expect(testAnswer).toMatch(/no failing test|failing: "/);
    const compare = byText.get("compare the two READMEs")!.answer;
    const headings = (path: string) =>
      readFileSync(join(repo, path), "utf8")
        .split("\n")
        .filter((l) => /^#{1,3} /.test(l))
        .map((l) => l.replace(/^#+\s+/, "").trim());
    // The first sections of each README are quoted by name, then what they share and what only one has.
    for (const title of [...headings("README.md").slice(0, 3), ...headings("packages/store/README.md").slice(0, 3)])
      expect(compare).toContain(`"${title}"`);
    expect(compare).toMatch(/^in both: /m);
    expect(compare).toMatch(/^only in README\.md: /m);
    expect(compare).toMatch(/^only in packages\/store\/README\.md: /m);
  });

  it("the generated report opens every art: ref it mentions in place, with the stored content", () => {
    const html = readFileSync(summary.reportPath, "utf8");
    const answers = summary.requests.map((r) => r.answer).join("\n");
    const refs = [...new Set(answers.match(/art:[0-9a-f]{12,64}/g) ?? [])];
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) expect(html, ref).toContain(`<details class="art" data-ref="${ref}">`);
    // A ref opened in place shows what the store holds for it: the README's first heading, the test run's count line.
    expect(html).toContain(readFileSync(join(repo, "README.md"), "utf8").split("\n")[0]!);
    expect(html).toMatch(/<span class="content">[^<]*Test Files/);
    // Bounded: no artifact body is longer than the report's cap.
    for (const body of html.match(/<span class="content">[^<]*<\/span>/g) ?? [])
      expect(body.length).toBeLessThanOrEqual(5 * 4_000);
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
      // An art: ref in an answer opens its stored content in place.
      const art = page.locator("li .answer details.art").first();
      expect(await art.locator(".content").isVisible()).toBe(false);
      await art.locator("summary").click();
      expect(await art.locator(".content").isVisible()).toBe(true);
      expect((await art.locator(".content").textContent())!.length).toBeGreaterThan(20);
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
