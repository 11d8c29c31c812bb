#!/usr/bin/env node
// The full stress run: the same test files as the CI run, at full size (AREF_STRESS=full),
// then one summary line per suite and the machine it ran on. Extra arguments go to vitest
// (a file name runs one suite: `pnpm stress crash`). AREF_STRESS_SEED=<n> replays a run.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem, type, release } from "node:os";
import { join } from "node:path";

const here = join(import.meta.dirname, "..");
const summary = join(here, "test-output", "stress-summary.jsonl");
rmSync(summary, { force: true });
const started = Date.now();
const suites = process.argv.slice(2).filter((a) => a !== "fresh-clone");
const run =
  suites.length === 0 && process.argv.length > 2
    ? { status: 0 }
    : spawnSync("pnpm", ["exec", "vitest", "run", ...suites], {
        cwd: here,
        stdio: "inherit",
        env: { ...process.env, AREF_STRESS: "full", AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
      });
// With no suite named (or `fresh-clone` named), the fresh-clone test follows: a clone without
// ../shared, `pnpm install --frozen-lockfile` and `pnpm test` there (fresh-clone/, its own config).
const args = process.argv.slice(2);
const fresh =
  args.length === 0 || args.includes("fresh-clone")
    ? spawnSync("pnpm", ["exec", "vitest", "run", "--config", "vitest.fresh-clone.config.ts"], {
        cwd: here,
        stdio: "inherit",
        env: { ...process.env, AREF_STRESS: "full" },
      })
    : { status: 0 };
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${type()} ${release()}, Node ${process.version}`;
const lines = existsSync(summary)
  ? readFileSync(summary, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l.mode === "full")
  : []; // a CI run on the same checkout may append short lines
console.log("\n== stress summary (full run) ==");
for (const l of lines) console.log(l.line);
console.log(`machine: ${machine}; ${minutes} min; vitest exit ${run.status}, fresh clone exit ${fresh.status}`);
writeFileSync(
  join(here, "test-output", "stress-report.md"),
  [
    `Full run, ${new Date().toISOString()}, ${minutes} min, vitest exit ${run.status}`,
    `Machine: ${machine}`,
    "",
    ...lines.map((l) => `- ${l.line}`),
    "",
  ].join("\n"),
);
process.exit(run.status === 0 && fresh.status === 0 ? 0 : 1);
