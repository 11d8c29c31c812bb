#!/usr/bin/env node
// Runs every package's vitest suite through turbo, then prints one closing line
// "N passed, N failed, N skipped" with the totals over all packages (CI reads that line).
// Extra arguments are passed to turbo (e.g. --filter=@artifact-refs/store).
//
// Before the tests it ensures Chromium for the browser tests (tooling/scripts/ensure-chromium.sh:
// installs Debian's chromium with apt when root; otherwise it says what to install and the browser
// tests fail). The only tests that may skip are those whose ../shared/data set is absent outside CI
// (tooling/testing/shared-data.ts marks their titles): one line each names the data set and where it
// goes. Any other skipped or todo test counts as a failure.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const dirs = ["packages", "apps"].flatMap((group) => {
  const base = join(root, group);
  return existsSync(base) ? readdirSync(base).map((name) => join(base, name)) : [];
});
const reportOf = (dir) => join(dir, "test-output", "vitest-report.json");
for (const dir of dirs) rmSync(reportOf(dir), { force: true });

const chromium = spawnSync("bash", [join(root, "tooling/scripts/ensure-chromium.sh")], { cwd: root, stdio: "inherit" });
if (chromium.status !== 0) console.error("run-tests: Chromium is not available; the browser tests will fail");

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };
const args = ["exec", "turbo", "run", "typecheck", "test", "--continue", "--concurrency=2", ...process.argv.slice(2)];
const run = spawnSync("pnpm", args, { cwd: root, stdio: "inherit", env });

let passed = 0;
let failed = 0;
const missing = [];
const dataSkips = [];
const otherSkips = [];
const SKIP_MARK = /\[skipped: needs \.\.\/shared\/data\/(.+?) at (.+?)\]/;
for (const dir of dirs) {
  const file = reportOf(dir);
  if (!existsSync(join(dir, "package.json"))) continue;
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (!pkg.scripts?.test) continue;
  if (!existsSync(file)) {
    missing.push(pkg.name);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  for (const suite of report.testResults ?? []) {
    // a failed suite's skipped tests are counted by the suite failure below
    for (const test of suite.status === "failed" ? [] : (suite.assertionResults ?? [])) {
      if (!["skipped", "pending", "todo", "disabled"].includes(test.status)) continue;
      const name = [...(test.ancestorTitles ?? []), test.title].join(" > ");
      const mark = SKIP_MARK.exec(name);
      if (mark)
        dataSkips.push({
          pkg: pkg.name,
          name: name.replace(SKIP_MARK, "").replace(/\s+>/g, " >").trim(),
          set: mark[1],
          where: mark[2],
        });
      else otherSkips.push(`${pkg.name}: ${name}`);
    }
  }
  // A suite that failed outside its tests (it did not load, a hook threw and its tests were
  // skipped) counts as one failure: no failing assertion shows it otherwise.
  for (const suite of report.testResults ?? []) {
    const assertions = suite.assertionResults ?? [];
    if (suite.status === "failed" && !assertions.some((a) => a.status === "failed")) failed += 1;
  }
}
const filtered = process.argv.slice(2).some((a) => a.startsWith("--filter"));
if (!filtered && missing.length > 0) {
  console.error(`no test report from: ${missing.join(", ")} (their suites did not run)`);
  failed += missing.length;
}
for (const s of dataSkips)
  console.log(`skipped (no ../shared/data/${s.set}; it goes at ${s.where}): ${s.pkg}: ${s.name}`);
for (const name of otherSkips) console.error(`skipped without absent shared data (counted as failed): ${name}`);
failed += otherSkips.length;
console.log("");
console.log(`${passed} passed, ${failed} failed, ${dataSkips.length} skipped`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
