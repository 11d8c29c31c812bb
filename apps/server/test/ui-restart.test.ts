import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/index.js";
import { ADMIN, call, jsonInit, makeWorkspace } from "./helpers.js";

/**
 * Restart is invisible: a server on an fs store records executions, chat turns and metrics, the
 * CLI stashes an artifact into the same store, the server stops; a new one on the same store
 * answers every request as before, and the UI (real Chromium) shows the timeline, the metrics
 * chart, the chat history and the artifact list with the CLI-stashed artifact, whose grep matches
 * the viewer highlights. Screenshots go to test-output/ui-restart.png (after the restart) and ui-restart-viewer.png (grep in the viewer).
 */
const CHROMIUM = "/usr/bin/chromium";
const CLI = fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));
const OUT = join(import.meta.dirname, "..", "test-output");
const SESSION = "restart-demo";
let base: string;
let storeDir: string;
let ws: Awaited<ReturnType<typeof makeWorkspace>>;
let browser: Browser;
let server: RunningServer | undefined;

const start = () =>
  startServer({ store: storeDir, workspace: ws.root, tokens: { admin: ADMIN }, rateLimit: false, ui: true });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run tooling/scripts/ensure-chromium.sh`);
  if (!existsSync(CLI))
    throw new Error(
      `${CLI} is missing: build the CLI first (pnpm exec turbo run build --filter=@artifact-refs/cli...)`,
    );
  base = await mkdtemp(join(tmpdir(), "aref-restart-"));
  storeDir = join(base, "store");
  ws = await makeWorkspace();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  await mkdir(OUT, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ws?.cleanup();
  if (base) await rm(base, { recursive: true, force: true });
});

async function snapshot(url: string) {
  const get = async (path: string) => {
    const res = await call(`${url}${path}`, { token: ADMIN });
    expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
    return res.json;
  };
  return {
    context: await get(`/api/artifacts/context/${SESSION}`),
    executions: (await get(`/api/sessions/${SESSION}/executions`)).executions,
    metrics: (await get(`/api/sessions/${SESSION}/metrics`)).turns,
    chat: (await get(`/api/sessions/${SESSION}/chat`)).turns,
    artifacts: (await get(`/api/sessions/${SESSION}/artifacts`)).items,
    sessions: (await get(`/api/sessions`)).sessions,
  };
}

describe("restart on an fs store", () => {
  it("brings back every record, and the UI shows timeline, chart, chat history and every artifact (a CLI-stashed one too)", async () => {
    server = await start();
    for (const path of ["README.md", "logs/big.log"]) {
      const res = await call(
        `${server.url}/api/artifacts/execute`,
        jsonInit({ session_id: SESSION, tool_name: "read_file", tool_args: { path } }, ADMIN),
      );
      expect(res.status).toBe(200);
    }
    for (const message of ["what is in the readme?", "which entries does the big log have?"]) {
      expect((await call(`${server.url}/api/chat`, jsonInit({ session_id: SESSION, message }, ADMIN))).status).toBe(
        200,
      );
    }
    // The CLI stashes into the same store (another process, while the server runs).
    const notes = join(base, "cli-notes.txt");
    await writeFile(
      notes,
      Array.from({ length: 400 }, (_, i) => (i % 50 === 7 ? `line ${i}: the needle is here` : `line ${i}: hay`)).join(
        "\n",
      ),
    );
    await promisify(execFile)(process.execPath, [
      CLI,
      "stash",
      notes,
      "--store",
      storeDir,
      "--session",
      SESSION,
      "--label",
      "cli-notes.txt",
    ]);
    const before = await snapshot(server.url);
    expect(before.executions).toHaveLength(2);
    expect(before.chat).toHaveLength(2);
    expect(before.metrics).toHaveLength(2);
    expect(before.artifacts.map((a: { label?: string }) => a.label)).toContain("cli-notes.txt");

    await server.close();
    server = await start(); // a new process's view: a new store instance on the same directory
    const after = await snapshot(server.url);
    expect(after).toEqual(before);

    const page = await browser.newPage({ viewport: { width: 1400, height: 1300 } });
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`${server.url}/#token=${ADMIN}&session=${SESSION}`);
    // Timeline, chart, chat history and artifacts are all back.
    await expect.poll(() => page.locator("#timeline .execution-card").count()).toBe(2);
    expect(await page.locator("#timeline").textContent()).toContain("big.log");
    await expect.poll(() => page.locator("#chart .bar").count()).toBe(2);
    await expect.poll(() => page.locator("#messages .msg.user").count()).toBe(2);
    expect(await page.locator("#messages").textContent()).toContain("which entries does the big log have?");
    const rows = page.locator("#artifacts-list tr.artifact-row");
    await expect.poll(() => rows.count()).toBe(before.artifacts.length);
    const cliRow = rows.filter({ hasText: "cli-notes.txt" });
    expect(await cliRow.count()).toBe(1);
    const rowText = await cliRow.textContent();
    expect(rowText).toMatch(/KiB|B/);
    const cliItem = before.artifacts.find((a: { label?: string }) => a.label === "cli-notes.txt");
    expect(await cliRow.locator("td").nth(1).textContent()).toBe(cliItem.type);
    // The hot state column: the readme execution's artifact is in the hot state (the UI says HOT).
    expect(await page.locator("#artifacts-list .badge.hot").count()).toBeGreaterThan(0);

    await page.screenshot({ path: join(OUT, "ui-restart.png"), fullPage: true });

    // The bounded viewer on the CLI-stashed artifact, grep matches highlighted.
    await cliRow.locator("button").click();
    await expect.poll(() => page.locator("#viewer-content").textContent()).toContain("line 0: hay");
    await page.selectOption("#sel-mode", "grep");
    await page.fill("input[name=pattern]", "needle");
    await page.click("#selector-form button[type=submit]");
    await expect.poll(() => page.locator("#viewer-content mark.match").count()).toBe(8);
    expect(await page.locator("#viewer-content mark.match").first().textContent()).toBe("needle");
    expect(await page.locator("#viewer-info").textContent()).toMatch(/art:[0-9a-f]{12}/);
    await page.screenshot({ path: join(OUT, "ui-restart-viewer.png"), fullPage: true });

    expect(consoleErrors).toEqual([]);
    // The token travels in the Authorization header only: never in a URL the page requested.
    expect(requests.filter((u) => u.includes(ADMIN))).toEqual([]);
    await page.close();
  });
});
