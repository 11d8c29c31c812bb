// The web UI's Next button follows `next` to the end (real Chromium, a real server on 127.0.0.1):
// each click sends the previous receipt's `next` selector as the query, and the parts shown rebuild
// the content or the full match list. The UI must be built (pnpm build).
import { existsSync } from "node:fs";
import { type FetchPart, followCases, followNext } from "@artifact-refs/tooling/testing/follow-next";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startHarness, TOKEN_A, type Harness } from "./helpers.js";

const CHROMIUM = "/usr/bin/chromium";
const cases = followCases();
let h: Harness;
let browser: Browser;
let page: Page;
const refs = new Map<string, string>();

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run tooling/scripts/ensure-chromium.sh`);
  h = await startHarness({ ui: true });
  for (const c of cases) {
    const stash = await call(
      `${h.url}/api/artifacts?session=sess-a&mime=${encodeURIComponent(c.mime)}&label=${encodeURIComponent(c.name)}`,
      { method: "POST", token: TOKEN_A, headers: { "content-type": "text/plain" }, body: c.content },
    );
    expect(stash.status).toBe(201);
    refs.set(c.name, stash.json.short_ref);
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${h.url}/#token=${TOKEN_A}&session=sess-a`);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe("web UI: the viewer's Next button follows next to the end", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const ref = refs.get(c.name)!;
      const next = page.locator("#sel-next");
      let opened = false;
      const fetch: FetchPart = async (selector) => {
        const answered = page.waitForResponse((r) => r.url().includes(`/api/artifacts/${encodeURIComponent(ref)}?`));
        if (!opened) {
          // The first part: the artifact's Open button (headtail), then the selector form for other modes.
          opened = true;
          await page
            .locator("#artifacts-list tr", { hasText: ref })
            .first()
            .locator("button", { hasText: "Open" })
            .click();
          if (selector.mode !== "headtail") {
            await answered;
            return fetchWithForm(selector, ref);
          }
        } else {
          expect(await next.isDisabled()).toBe(false);
          await next.click();
        }
        return shown(await answered, selector);
      };
      c.check(await followNext(fetch, c.first), c.content);
      expect(await next.isDisabled()).toBe(true);
      await page.keyboard.press("Escape");
    }, 120_000);
  }
});

/** Asks for a first part of another mode through the viewer's selector form. */
async function fetchWithForm(selector: Record<string, unknown>, ref: string) {
  await page.selectOption("#sel-mode", String(selector.mode));
  for (const [key, value] of Object.entries(selector)) {
    if (key !== "mode") await page.fill(`#selector-form input[name=${key}]`, String(value));
  }
  const answered = page.waitForResponse((r) => r.url().includes(`/api/artifacts/${encodeURIComponent(ref)}?`));
  await page.click("#selector-form button[type=submit]");
  return shown(await answered, selector);
}

/** The part the viewer shows for one answer: the query it sent is the selector, the text shown is the receipt's. */
async function shown(response: Awaited<ReturnType<Page["waitForResponse"]>>, selector: Record<string, unknown>) {
  expect(response.status(), await response.text()).toBe(200);
  const query = new URL(response.url()).searchParams;
  for (const [key, value] of Object.entries(selector)) expect(query.get(key)).toBe(String(value));
  const receipt = (await response.json()) as { text: string; next?: { mode: string } & Record<string, unknown> };
  await expect.poll(() => page.locator("#viewer-content").textContent()).toBe(receipt.text);
  await expect.poll(() => page.locator("#sel-next").isDisabled()).toBe(receipt.next === undefined);
  return { text: (await page.locator("#viewer-content").textContent()) ?? "", next: receipt.next };
}
