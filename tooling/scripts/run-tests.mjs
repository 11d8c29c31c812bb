#!/usr/bin/env node
// Runs every package's vitest suite through turbo, then prints one closing line
// "N passed, N failed" with the totals over all packages (CI reads that line).
// Extra arguments are passed to turbo (e.g. --filter=@artifact-refs/store).
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

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };
const args = ["exec", "turbo", "run", "typecheck", "test", "--continue", "--concurrency=2", ...process.argv.slice(2)];
const run = spawnSync("pnpm", args, { cwd: root, stdio: "inherit", env });

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
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
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
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
console.log("");
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
