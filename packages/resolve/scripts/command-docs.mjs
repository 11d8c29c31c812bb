// Builds data/command-docs.jsonl: what command-line tools do, from the CLI specs of the npm package
// @withfig/autocomplete (MIT; descriptions of commands, subcommands and options for ~700 tools).
// The package is not a dependency: install it anywhere and pass its folder:
//   npm install @withfig/autocomplete@2.692.3 && node scripts/command-docs.mjs node_modules/@withfig/autocomplete
// Output: one command a line, ["<command>", { "d": description, "s": { "<sub>": { "d", "s"?, "l"? } }, "o": { "<flag>": description } }]
// ("l": the subcommand is the spec of another command, e.g. docker compose → docker-compose)
// (another name of a command: ["<name>", "=<command>"]), two levels of subcommands, the command's own options only, descriptions cut at 120 characters, at most 40 options per command, environment-variable notes left out.
import { readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const from = process.argv[2];
if (!from) {
  console.error("usage: node scripts/command-docs.mjs <path to @withfig/autocomplete>");
  process.exit(2);
}
const build = resolve(from, "build");
const out = new URL("../data/command-docs.jsonl", import.meta.url);

const clean = (d) =>
  typeof d === "string"
    ? d
        .replace(/\[\$[A-Z0-9_]+\]/g, "")
        .replace(/\(default:[^)]*\)/gi, "")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, 120)
    : "";
const names = (n) => (Array.isArray(n) ? n : [n]).filter((x) => typeof x === "string" && x.length > 0);

function node(spec, depth) {
  const o = {};
  const d = clean(spec.description);
  if (d) o.d = d;
  if (Array.isArray(spec.options) && depth === 0) {
    const opts = {};
    for (const opt of spec.options.slice(0, 40)) {
      const od = clean(opt?.description);
      if (!od) continue;
      for (const n of names(opt.name)) opts[n] = od;
    }
    if (Object.keys(opts).length) o.o = opts;
  }
  // A subcommand that is another tool's spec ("docker compose" → docker-compose): read on through that spec.
  if (typeof spec.loadSpec === "string" && !Array.isArray(spec.subcommands)) o.l = spec.loadSpec.toLowerCase();
  if (Array.isArray(spec.subcommands) && depth < 2) {
    const subs = {};
    for (const sub of spec.subcommands) {
      if (!sub || typeof sub !== "object") continue;
      const child = node(sub, depth + 1);
      if (!Object.keys(child).length) continue;
      for (const n of names(sub.name)) subs[n.toLowerCase()] = child;
    }
    if (Object.keys(subs).length) o.s = subs;
  }
  return o;
}

const docs = {};
let failed = 0;
for (const file of readdirSync(build).sort()) {
  if (!file.endsWith(".js") || file === "index.js") continue;
  try {
    const spec = (await import(pathToFileURL(join(build, file)).href)).default;
    if (!spec || typeof spec !== "object" || Array.isArray(spec)) continue;
    const entry = node(spec, 0);
    if (!entry.d && !entry.s) continue;
    const [first, ...aliases] = names(spec.name).filter((n) => !n.startsWith("@"));
    if (!first) continue;
    docs[first.toLowerCase()] = entry;
    // Another name of the same command points at the first: "=<name>".
    for (const n of aliases) docs[n.toLowerCase()] = `=${first.toLowerCase()}`;
  } catch {
    failed++;
  }
}
const text = Object.entries(docs)
  .map((entry) => JSON.stringify(entry))
  .join("\n");
writeFileSync(out, `${text}\n`);
console.log(`${Object.keys(docs).length} commands, ${text.length} bytes, ${failed} specs not loaded`);
