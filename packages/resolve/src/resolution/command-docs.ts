// What a command-line tool does and reports, from data/command-docs.jsonl (one command a line): the descriptions of
// ~690 tools' commands, subcommands and options in the CLI specs of @withfig/autocomplete (MIT),
// compiled by scripts/command-docs.mjs, and data/command-man.jsonl: the man page NAME line of ~790 more
// commands of a Linux system's base packages (journalctl, sha256sum, free, ...; scripts/command-man.mjs). "df -h" → "Display free disk space; Human-readable output…",
// "kubectl top pod" → "Display Resource (CPU/Memory/Storage) usage…". A message that names only what a
// result was about ("how full was the disk?") can then meet the command that reports it. The words
// enter a record as its lowest field ("about", src/resolution/executions.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface Doc {
  d?: string;
  s?: Record<string, Doc>;
  o?: Record<string, string>;
  /** This subcommand is another command's spec ("docker compose" → "docker-compose"). */
  l?: string;
}
type Docs = Record<string, Doc | string>;

let docs: Docs | null | undefined;

function load(): Docs | null {
  if (docs !== undefined) return docs;
  docs = null;
  // From src/resolution/ (sources) or dist/ (the build): the data folder sits at the package root.
  for (const rel of ["../../data/", "../data/"]) {
    try {
      const file = fileURLToPath(new URL(`${rel}command-docs.jsonl`, import.meta.url));
      const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
      docs = Object.fromEntries(lines.map((line) => JSON.parse(line) as [string, Doc | string]));
      // Commands the specs lack: their man page's NAME line (data/command-man.jsonl, scripts/command-man.mjs).
      try {
        const man = fileURLToPath(new URL(`${rel}command-man.jsonl`, import.meta.url));
        for (const line of readFileSync(man, "utf8").split("\n").filter(Boolean)) {
          const [name, d] = JSON.parse(line) as [string, string];
          if (!Object.hasOwn(docs, name)) docs[name] = { d };
        }
      } catch {
        // without it only the specs' commands have a description
      }
      break;
    } catch {
      // not here: try the next place; without the data no command has a description
    }
  }
  return docs;
}

/** Words before the command itself: environment assignments and runners that take a command after them. */
const PREFIX = new Set(["sudo", "env", "time", "nohup", "exec", "npx", "bunx", "command", "nice", "timeout"]);

function lookup(all: Docs, name: string): Doc | undefined {
  let d = Object.hasOwn(all, name) ? all[name] : undefined;
  if (typeof d === "string") d = Object.hasOwn(all, d.slice(1)) ? all[d.slice(1)] : undefined;
  return typeof d === "object" && d !== null ? d : undefined;
}

/**
 * What the command line does, in the spec's words: the command's description, its subcommands'
 * (up to two levels) and those of the options it uses. Each segment of a pipeline (`|`, `&&`, `;`)
 * is read. "" for an unknown command or without the data.
 */
export function describeCommand(command: string): string {
  const all = load();
  if (!all || !command) return "";
  const out: string[] = [];
  for (const segment of command.slice(0, 2_000).split(/\|\|?|&&|;/)) {
    const parts = segment.trim().split(/\s+/).filter(Boolean);
    let i = 0;
    while (i < parts.length && (PREFIX.has(parts[i]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(parts[i]!))) i++;
    const name =
      (parts[i] ?? "")
        .replace(/^['"]|['"]$/g, "")
        .split("/")
        .pop()
        ?.toLowerCase() ?? "";
    const doc = name ? lookup(all, name) : undefined;
    if (!doc) continue;
    if (doc.d) out.push(doc.d);
    let at: Doc = doc;
    let depth = 0;
    for (const part of parts.slice(i + 1)) {
      if (part.startsWith("-")) {
        const flag = part.split("=")[0]!;
        const od = doc.o && Object.hasOwn(doc.o, flag) ? doc.o[flag] : undefined;
        if (od) out.push(od);
        continue;
      }
      const sub = depth < 2 && at.s && Object.hasOwn(at.s, part.toLowerCase()) ? at.s[part.toLowerCase()] : undefined;
      if (!sub) continue;
      if (sub.d) out.push(sub.d);
      // A subcommand that is another command's spec reads on through that spec's subcommands.
      at = (sub.l && !sub.s && lookup(all, sub.l)) || sub;
      depth++;
    }
  }
  return [...new Set(out)].join("; ");
}
