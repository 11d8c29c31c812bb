import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { createServer as createHttpServer } from "node:http";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAiCompatibleProvider } from "../src/index.js";
import { TOKEN_A, TOKEN_B, startHarness, type Harness } from "./helpers.js";

/**
 * The web UI in real Chromium (Debian's package, driven by playwright-core): the docs/ARCHITECTURE.md §executions
 * flow end to end against a real server on 127.0.0.1. The UI must be built (pnpm build).
 */
const CHROMIUM = "/usr/bin/chromium";
const OUT = join(import.meta.dirname, "..", "test-output");
let h: Harness;
let browser: Browser;
let page: Page;
const requests: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run tooling/scripts/ensure-chromium.sh`);
  h = await startHarness({ ui: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  await mkdir(OUT, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe("web UI (Chromium)", () => {
  it("runs the §executions flow: tool form, timeline, chat reference, full result with grep, chart", async () => {
    await page.goto(`${h.url}/#token=${TOKEN_A}&session=sess-a`);
    await page.locator("#tool-select option[value=read_file]").waitFor({ state: "attached" });
    expect(await page.locator("#status").textContent()).toContain("session sess-a");

    // 1. Submit the read-file form.
    await page.selectOption("#tool-select", "read_file");
    await page.fill("#arg-path", "README.md");
    await page.click("#run-tool");
    await expect.poll(() => page.locator("#result-content").textContent()).toContain("# My Project");
    expect(await page.locator("#result-summary").textContent()).toContain("Loaded README.md");

    // 2. The timeline shows the execution (title, time ago, summary, View full result).
    const card = page.locator("#timeline .execution-card").first();
    await expect.poll(() => card.textContent()).toContain("Read File");
    expect(await card.textContent()).toContain("just now");
    expect(await card.textContent()).toContain("Loaded README.md");

    // 3. A batch: list_files and grep at once.
    await page.selectOption("#tool-select", "list_files");
    await page.fill("#arg-path", "src");
    await page.click("#add-batch");
    await page.selectOption("#tool-select", "grep");
    await page.fill("#arg-pattern", "TODO");
    await page.click("#add-batch");
    expect(await page.locator("#batch-count").textContent()).toBe("2");
    await page.click("#run-batch");
    await expect.poll(() => page.locator("#timeline .execution-card").count()).toBe(3);

    // 4. Read config.json last, then ask about "what I just loaded" with the keyboard.
    await page.selectOption("#tool-select", "read_file");
    await page.fill("#arg-path", "config.json");
    await page.press("#arg-path", "Enter");
    await expect.poll(() => page.locator("#timeline .execution-card").count()).toBe(4);
    await page.focus("#chat-input");
    await page.keyboard.type("summarize what I just loaded");
    await page.keyboard.press("Enter");
    const assistant = page.locator("#messages .msg.assistant").last();
    await assistant.waitFor();
    expect(await assistant.locator(".referenced").textContent()).toBe("REFReferenced: Read File (config.json)");
    expect(await assistant.locator(".context pre").textContent()).toContain('"port": 8080');

    // 5. The chart shows the turn's prompt tokens against the budget.
    await expect.poll(() => page.locator("#chart svg rect.bar").count()).toBe(1);
    expect(await page.locator("#chart svg .budget-label").textContent()).toContain("budget 8,000");
    const tokens = Number(
      (await assistant.locator(".context summary").textContent())!.match(/\((\d+) prompt tokens\)/)![1],
    );
    expect(await page.locator("#chart svg text.value").textContent()).toBe(tokens.toLocaleString("en-US"));

    // 6. Open a full result and run a grep through bounded fetch.
    await page
      .locator("#timeline .execution-card", { hasText: "README.md" })
      .first()
      .getByRole("button", { name: "View full result" })
      .click();
    const dialog = page.locator("#viewer");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect.poll(() => page.locator("#viewer-content").textContent()).toContain("# My Project");
    await page.selectOption("#sel-mode", "grep");
    await expect.poll(() => page.locator("#selector-form input[name=head]").isVisible()).toBe(false);
    await page.fill("#selector-form input[name=pattern]", "TODO");
    await page.click("#selector-form button[type=submit]");
    // The headtail view above also contains "TODO list": wait for the grep answer itself (it replaces the view).
    await expect.poll(() => page.locator("#viewer-content").textContent()).not.toContain("# My Project");
    expect(await page.locator("#viewer-content").textContent()).toContain("TODO list");
    expect(await page.locator("#viewer-info").textContent()).toMatch(/of \d+ chars/);
    await page.screenshot({ path: join(OUT, "ui-full-result.png") });
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);

    // 7. Sessions list shows the session; the whole page as a screenshot.
    expect(await page.locator("#sessions-list").textContent()).toContain("sess-a");
    await page.screenshot({ path: join(OUT, "ui.png"), fullPage: true });

    // No external network requests, no console errors (CSP violations included).
    expect(requests.filter((u) => !u.startsWith(h.url) && !u.startsWith("data:"))).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("shows the model's answer with the referenced indicator when a provider is configured", async () => {
    // A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol.
    const fake = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            choices: [
              {
                message: {
                  role: "assistant",
                  content: "The README describes a sample project about artifact references.",
                },
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
    const withModel = await startHarness({
      ui: true,
      provider: openAiCompatibleProvider({
        baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}/v1`,
        model: "fake",
      }),
    });
    const p2 = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      await p2.goto(`${withModel.url}/#token=${TOKEN_B}&session=sess-b`);
      await p2.locator("#tool-select option[value=read_file]").waitFor({ state: "attached" });
      await p2.fill("#arg-path", "README.md");
      await p2.click("#run-tool");
      await p2.locator("#timeline .execution-card").first().waitFor();
      await p2.fill("#chat-input", "summarize what I just loaded");
      await p2.press("#chat-input", "Enter");
      const answer = p2.locator("#messages .msg.assistant").last();
      await answer.waitFor();
      expect(await answer.locator(".message-content").textContent()).toBe(
        "The README describes a sample project about artifact references.",
      );
      expect(await answer.locator(".referenced").textContent()).toContain("Read File (README.md)");
      expect(await answer.locator(".context").getAttribute("open")).toBeNull(); // the context stays folded under an answer
      await p2.screenshot({ path: join(OUT, "ui-with-model.png") });
    } finally {
      await p2.close();
      await withModel.close();
      await new Promise((r) => fake.close(r));
    }
  });
});
