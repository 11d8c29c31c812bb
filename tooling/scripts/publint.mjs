#!/usr/bin/env node
// Lints the packaging of every publishable package (packages/*, not private) with publint: the
// `exports`, `types` and `files` fields, and that each file they name is in the packed package.
// Needs the built dist/ (run after `pnpm build` or the test run, which builds): a missing dist/ is
// reported as such. Warnings and errors fail; suggestions are printed only.
//
//   node tooling/scripts/publint.mjs
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const root = resolve(import.meta.dirname, "../..");
let failures = 0;
let checked = 0;
for (const dir of readdirSync(join(root, "packages")).sort()) {
  const pkgDir = join(root, "packages", dir);
  const manifestPath = join(pkgDir, "package.json");
  if (!existsSync(manifestPath)) continue;
  const pkg = JSON.parse(readFileSync(manifestPath, "utf8"));
  if (pkg.private) continue;
  if (!existsSync(join(pkgDir, "dist"))) {
    console.error(`publint: ${pkg.name}: no dist/ (build it first: pnpm build)`);
    failures += 1;
    continue;
  }
  checked += 1;
  const { messages } = await publint({ pkgDir, level: "suggestion", strict: false, pack: "pnpm" });
  for (const message of messages) {
    const text = formatMessage(message, pkg, { color: false }) ?? message.code;
    const failing = message.type === "error" || message.type === "warning";
    if (failing) failures += 1;
    (failing ? console.error : console.log)(`publint: ${pkg.name}: ${message.type}: ${text}`);
  }
}
console.log(`publint: ${checked} packages checked, ${failures} problems`);
process.exit(failures === 0 ? 0 : 1);
