// Builds data/command-man.jsonl: what a command does, from its man page's NAME line, for the commands of
// sections 1 and 8 shipped by a Debian/Ubuntu system's required, important and standard packages (the tools
// found on most Linux machines: journalctl, sha256sum, free, ss, ...) that data/command-docs.jsonl lacks.
// Run on such a system with man-db installed: node scripts/command-man.mjs
// Output: one command a line, ["<command>", "<NAME line description>"].
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const have = new Set(
  readFileSync(new URL("../data/command-docs.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line)[0]),
);
const run = (cmd, args) => execFileSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20 });
// biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field syntax, not a template
const packages = run("dpkg-query", ["-W", "-f", "${Package} ${Priority}\\n"])
  .split("\n")
  .map((l) => l.split(" "))
  .filter(([, p]) => p === "required" || p === "important" || p === "standard")
  .map(([name]) => name);
const names = new Set();
for (const pkg of packages)
  for (const file of run("dpkg", ["-L", pkg]).split("\n")) {
    const m = /^\/usr\/share\/man\/man[18]\/([a-z0-9][a-z0-9._+-]*)\.[18]\.gz$/.exec(file);
    if (m && !have.has(m[1])) names.add(m[1]);
  }
const out = [];
for (const name of [...names].sort()) {
  let line = "";
  try {
    line = run("whatis", ["-l", "-s", "1,8", name])
      .split("\n")
      .find((l) => l.startsWith(`${name} `) && l.includes(" - "));
  } catch {
    continue; // no NAME line
  }
  const d = line?.split(" - ").slice(1).join(" - ").replace(/\s+/g, " ").trim().slice(0, 120);
  if (d) out.push(JSON.stringify([name, d]));
}
writeFileSync(new URL("../data/command-man.jsonl", import.meta.url), `${out.join("\n")}\n`);
console.log(`${out.length} commands`);
