#!/usr/bin/env node
// The main job (`pnpm demo`, after `turbo run build`): a real round trip through the built
// `aref` CLI on a throwaway store in a temp dir. Stashes this repo's README.md and a generated
// large log, lists the session, fetches within the cap, cats both back and compares the bytes,
// then verifies the store. Prints what it does; exits non-zero on any mismatch.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "apps/cli/dist/bin.js");
if (!existsSync(bin)) {
  console.error(`demo: ${bin} is missing; build first (pnpm demo runs \`turbo run build\` before this script)`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), "aref-demo-"));
const store = join(work, "store");
const session = "demo";
const CAP = 2_000;
let failures = 0;

function aref(args, input) {
  const shown = args.map((a) => (/[\s'"|]/.test(a) ? `'${a}'` : a)).join(" ");
  console.log(`$ aref ${shown}`);
  const r = spawnSync(process.execPath, [bin, ...args, "--store", store], {
    input,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    console.error(`demo: aref ${shown} exited ${r.status}\n${r.stderr.toString()}`);
    process.exit(1);
  }
  return { stdout: r.stdout, stderr: r.stderr.toString() };
}

function check(ok, what) {
  console.log(`  ${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const indent = (text) =>
  text
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");

try {
  // 1. Two artifacts: the README and a large generated build log (~300 KB).
  const readmePath = join(root, "README.md");
  const readme = readFileSync(readmePath);
  const logLines = [];
  for (let i = 1; i <= 4_000; i++) {
    const level = i % 487 === 0 ? "ERROR" : i % 61 === 0 ? "WARN " : "INFO ";
    logLines.push(
      `2026-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z ${level} step ${i}: compiled module-${i % 97}.ts in ${(i * 37) % 900} ms`,
    );
  }
  const log = Buffer.from(`${logLines.join("\n")}\n`);
  const logPath = join(work, "build.log");
  writeFileSync(logPath, log);
  console.log(`demo: throwaway store ${store}\n`);

  const readmeReceipt = JSON.parse(
    aref(["stash", readmePath, "--session", session, "--type", "doc", "--json"]).stdout.toString(),
  );
  check(
    readmeReceipt.artifact_id === sha256(readme),
    `README.md stashed as ${readmeReceipt.short_ref} (${readme.length} bytes, id = its SHA-256)`,
  );
  const logReceipt = JSON.parse(
    aref(
      ["stash", "-", "--session", session, "--type", "log", "--label", "build.log", "--json"],
      log,
    ).stdout.toString(),
  );
  check(
    logReceipt.artifact_id === sha256(log),
    `build.log (stdin) stashed as ${logReceipt.short_ref} (${log.length} bytes)`,
  );
  const again = JSON.parse(aref(["stash", logPath, "--session", session, "--json"]).stdout.toString());
  check(
    again.deduped === true && again.artifact_id === logReceipt.artifact_id,
    "stashing the same bytes again dedupes (stored once)",
  );

  // 2. List the session: what a prompt would carry instead of the content.
  const list = aref(["list", "--session", session]).stdout.toString();
  console.log(indent(list));
  const listed = JSON.parse(aref(["list", "--session", session, "--json"]).stdout.toString());
  check(listed.count === 2, `session ${session} references 2 artifacts`);

  // 3. Bounded fetches: never more than the cap.
  const fetched = aref(["fetch", logReceipt.short_ref, "--max-chars", String(CAP)]);
  const text = fetched.stdout.toString();
  console.log(indent(text.split("\n").slice(0, 4).join("\n")));
  console.log("    …");
  console.log(indent(fetched.stderr));
  check(text.length <= CAP, `fetch printed ${text.length} chars of ${log.length} (cap ${CAP})`);
  const grep = JSON.parse(
    aref(["fetch", logReceipt.short_ref, "--grep", "ERROR", "--max-chars", String(CAP), "--json"]).stdout.toString(),
  );
  check(
    grep.text.length <= CAP && grep.text.includes("ERROR"),
    `fetch --grep ERROR: ${grep.stats?.matches ?? "?"} matches in ${grep.chars} chars`,
  );

  // 4. cat returns the exact bytes.
  const readmeBack = aref(["cat", readmeReceipt.short_ref]).stdout;
  check(Buffer.compare(readmeBack, readme) === 0, `cat ${readmeReceipt.short_ref} returns README.md byte for byte`);
  const logBack = aref(["cat", logReceipt.handle]).stdout;
  check(Buffer.compare(logBack, log) === 0, `cat ${logReceipt.short_ref} returns build.log byte for byte`);

  // 5. The store checks out.
  const verify = JSON.parse(aref(["verify", "--json"]).stdout.toString());
  check(verify.ok === true && verify.blobs_checked === 2, `verify: ${verify.blobs_checked} blobs, no problems`);
  const stats = JSON.parse(aref(["stats", "--json"]).stdout.toString());

  const inPrompt = JSON.stringify(
    listed.items.map((i) => ({ ref: i.short_ref, label: i.label, summary: i.summary })),
  ).length;
  console.log(
    `\nsummary: ${stats.blobs} blobs, ${stats.bytes} bytes stored (${stats.logical_bytes} referenced, dedupe ratio ${stats.dedupe_ratio}); ` +
      `a prompt carries ${inPrompt} chars of refs instead of ${readme.length + log.length} bytes of content, and fetches at most ${CAP} chars at a time.`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (failures > 0) {
  console.error(`\ndemo: ${failures} check(s) failed`);
  process.exit(1);
}
console.log("demo: all checks passed");
