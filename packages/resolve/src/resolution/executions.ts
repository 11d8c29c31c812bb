import { amountsIn } from "./number-forms.js";
import { isStopword, stem, words } from "./tokens.js";
import { type ToolClass, normalizeToolName, toolClasses } from "./lexicon.js";
import { describeCommand } from "./command-docs.js";
import { wordFamily } from "./near-words.js";

/**
 * The execution shape the resolver and recall work on: the reference data set's format
 * (id, tool_name, tool_args, label, summary, result_type) and the docs/ARCHITECTURE.md §executions records
 * (execution_id, result_summary, timestamp) both fit.
 */
export interface ExecutionLike {
  id?: string;
  execution_id?: string;
  tool_name: string;
  tool_args?: Record<string, unknown>;
  label?: string;
  artifact_title?: string;
  summary?: string;
  result_summary?: string;
  result_type?: string;
  size_bytes?: number;
  result_size?: number;
  timestamp?: string;
  /**
   * The result was stashed in the artifact store (the docs/ARCHITECTURE.md §executions `result_ref`, or `artifact_ref`, or
   * `stashed: true`): "what I just stashed/saved" may mean it. A direct stash (CLI, API, MCP) is a
   * record with `tool_name: "stash"`.
   */
  result_ref?: string;
  artifact_ref?: string;
  stashed?: boolean;
  /** Position in the session; the array order is used when absent. */
  order?: number;
  is_referenceable?: boolean;
}

/** The weight of a word found only in what the command does in general (its CLI spec's description). */
export const ABOUT_WEIGHT = 0.5;

/** Where a matched word was found; the weight says how much it names the execution. */
export type Field = "base" | "path" | "args" | "label" | "query" | "summary" | "about";
/**
 * A web search's query holds the searcher's own topic words: it names the search less than a path or arguments do.
 * "about": what the command run does and reports in general (src/resolution/command-docs.ts), not what this run said.
 */
export const FIELD_WEIGHT: Record<Field, number> = {
  base: 3,
  path: 2,
  args: 2,
  label: 2,
  query: 1.5,
  summary: 1,
  about: ABOUT_WEIGHT,
};

export interface IndexedExecution {
  id: string;
  index: number;
  source: ExecutionLike;
  tool: string;
  classes: Map<ToolClass, number>;
  /** What was acted on: a path, URL, query, command; same key = the same thing done again. */
  target: string;
  /** "file:<path>" for reads and writes of one file (reads stand for the file's content). */
  group: string;
  isError: boolean;
  statusCodes: string[];
  /** token (lowercase) → best field it appears in */
  tokens: Map<string, Field>;
  /** stems → best field */
  stems: Map<string, Field>;
  /** Word sequences of each field, for phrase matches. */
  sequences: Array<{ field: Field; words: string[] }>;
  /** Full basenames ("package.json") and extensions of the paths and URLs. */
  basenames: string[];
  extensions: string[];
  /** Lowercased paths and URLs, for explicit path matches. */
  locations: string[];
  /** Whole names: path segments, basenames and their stems, host labels, SQL tables. */
  segments: Set<string>;
}

const PATH_KEYS = [
  "path",
  "file",
  "file_path",
  "filepath",
  "filename",
  "dir",
  "directory",
  "cwd",
  "target",
  "source",
  "dest",
  "destination",
];
const URL_KEYS = ["url", "uri", "href", "endpoint", "link"];
const QUERY_KEYS = ["query", "q", "sql", "statement", "search", "pattern", "regex", "term"];
const COMMAND_KEYS = ["command", "cmd", "script", "code"];

export function executionId(e: ExecutionLike, index: number): string {
  return e.id ?? e.execution_id ?? `#${index + 1}`;
}

export function indexExecution(e: ExecutionLike, index: number): IndexedExecution {
  const args = e.tool_args ?? {};
  const tool = normalizeToolName(e.tool_name);
  const classes = toolClasses(e.tool_name, args);
  if (e.stashed === true || typeof e.result_ref === "string" || typeof e.artifact_ref === "string")
    classes.set("stash", Math.max(classes.get("stash") ?? 0, 0.9));
  const tokens = new Map<string, Field>();
  const stems = new Map<string, Field>();
  const sequences: IndexedExecution["sequences"] = [];
  const basenames: string[] = [];
  const extensions: string[] = [];
  const locations: string[] = [];
  const segmentSet = new Set<string>();
  const segment = (v: string) => {
    const l = v.toLowerCase();
    if (!l) return;
    segmentSet.add(l);
    segmentSet.add(l.split(".")[0]!);
  };
  const add = (word: string, field: Field) => {
    const w = word.toLowerCase();
    if (!w) return;
    if (!tokens.has(w) || FIELD_WEIGHT[field] > FIELD_WEIGHT[tokens.get(w)!]) tokens.set(w, field);
    const s = stem(w);
    if (!stems.has(s) || FIELD_WEIGHT[field] > FIELD_WEIGHT[stems.get(s)!]) stems.set(s, field);
  };
  const addText = (text: string, field: Field) => {
    for (const w of words(text)) {
      add(w, field);
      // The stemmer leaves words of up to 3 letters whole: a two-letter word also holds its plural and a
      // two-letter word's plural its singular ("id" ~ "ids", "vms" ~ "vm", "dbs" ~ "db").
      if (/^\p{Ll}{2}$/u.test(w) && !isStopword(w)) add(`${w}s`, field);
      else if (/^\p{Ll}{2}s$/u.test(w) && !/(?:ss|us|is)$/.test(w) && !isStopword(w)) add(w.slice(0, -1), field);
      // The family forms a stemmer does not join: "fat" ~ "fatty", "cheap" ~ "cheaper", "cheapest".
      for (const f of wordFamily(w)) add(f, field);
    }
    // Capitals then a short lowercase part with a version number: "IPv4" → ip, v4; "TLSv1" → tls, v1.
    for (const m of text.matchAll(/(?<![\p{L}\p{N}])(\p{Lu}{2,})(\p{Ll}{1,2}\d+)(?![\p{L}\p{N}])/gu))
      add(m[1]!, field), add(m[2]!, field);
    // A hyphenated compound is also one word ("--dry-run" → dryrun, "e-mail" → email, "log-in" → login).
    for (const c of text.match(/(?<![\p{L}\p{N}])\p{L}+(?:-\p{L}+)+(?![\p{L}\p{N}])/gu) ?? [])
      add(c.replace(/-/g, ""), field);
    // An abbreviation's plural is written with a lowercase s ("MBs", "PRs", "IDs"): each form also holds the other.
    for (const a of text.match(/(?<![\p{L}\p{N}])[A-Z]{2,5}(?:s|'s)?(?![\p{L}\p{N}])/gu) ?? [])
      add(/s$/.test(a) ? a.replace(/'?s$/, "") : `${a}s`, field);
    // An amount written with separators or a suffix also holds its plain digits ("10,000" → 10000, "1.5M" → 1500000).
    if (/\d[,.]?\d*\s?[kKmM,]/.test(text)) for (const n of amountsIn(text)) add(n, field);
    sequences.push({
      field,
      words: (text.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase().replace(/s$/, "")),
    });
  };
  const addPath = (p: string) => {
    const clean = p.trim();
    if (!clean) return;
    locations.push(clean.toLowerCase());
    const segments = clean.split(/[\\/]+/).filter(Boolean);
    const base = segments.pop() ?? clean;
    basenames.push(base.toLowerCase());
    segment(base);
    for (const seg of segments) segment(seg);
    for (const m of base.toLowerCase().match(/\.([a-z0-9]+)/g) ?? []) extensions.push(m.slice(1));
    addText(base, "base");
    for (const seg of segments) addText(seg, "path");
  };
  const addUrl = (u: string) => {
    locations.push(u.toLowerCase());
    let url: URL | undefined;
    try {
      url = new URL(u);
    } catch {
      url = undefined;
    }
    if (!url) return addPath(u);
    for (const part of url.hostname.split("."))
      if (part !== "www" && part !== "com" && part !== "org") addText(part, "base"), segment(part);
    const segs = url.pathname.split("/").filter(Boolean);
    const last = segs.pop();
    for (const seg of segs) addText(decodeSafe(seg), "path"), segment(decodeSafe(seg));
    if (last) {
      segment(decodeSafe(last));
      basenames.push(decodeSafe(last).toLowerCase());
      for (const m of last.toLowerCase().match(/\.([a-z0-9]+)$/g) ?? []) extensions.push(m.slice(1));
      addText(decodeSafe(last), "base");
    }
    for (const [k, v] of url.searchParams) addText(`${k} ${v}`, "args");
  };

  let target = "";
  const about: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== "string") {
      if (value !== null && value !== undefined && typeof value !== "object") addText(String(value), "args");
      else if (value !== null && typeof value === "object") addText(JSON.stringify(value).slice(0, 2_000), "args");
      continue;
    }
    const k = key.toLowerCase();
    if (URL_KEYS.includes(k) || /^https?:\/\//.test(value)) {
      addUrl(value);
      target ||= value;
    } else if (PATH_KEYS.includes(k)) {
      addPath(value);
      target ||= value;
    } else if (COMMAND_KEYS.includes(k)) {
      addCommand(value, addText, addPath, addUrl);
      about.push(describeCommand(value));
      target ||= value;
    } else if (QUERY_KEYS.includes(k)) {
      addText(value, classes.has("search") && !classes.has("sql") ? "query" : "args");
      for (const table of sqlTables(value)) addText(table, "base"), segment(table);
      target = target ? `${value} @ ${target}` : value;
    } else addText(value, "args");
  }
  // A label that repeats a web search's query ("search: …") is that query.
  if (e.label) addText(e.label, classes.has("search") && !classes.has("sql") ? "query" : "label");
  if (e.artifact_title) addText(e.artifact_title, "label");
  const summary = e.summary ?? e.result_summary ?? "";
  addText(summary, "summary");
  // A count of 0 in a result is what "zero" asks about ("0 requests sent", "accesses ops 0").
  if (/(?<![\d.,:/-])0(?![\d.,:/%-])/.test(summary)) add("zero", "summary");
  // A width × height ("1920x1080", "8192 x 8192") is a size in pixels: what "dimensions"/"resolution" ask about.
  if (/(?<![\w.])\d{2,5}\s?[x×]\s?\d{2,5}(?![\w.])/.test(summary))
    for (const w of ["dimensions", "resolution", "pixels"]) add(w, "summary");
  // Last: a word of the description counts only where the record's own fields do not hold it.
  for (const text of about) if (text) addText(text, "about");

  const isFile = classes.has("read") || classes.has("write");
  const normTarget = target.trim().replace(/^\.\//, "").replace(/\/+$/, "").replace(/\s+/g, " ").toLowerCase();
  return {
    id: executionId(e, index),
    index,
    source: e,
    tool,
    classes,
    target: `${tool}:${normTarget}`,
    group: isFile && normTarget ? `file:${normTarget}` : `${tool}:${normTarget}`,
    isError: /^(error|failed|failure)$/i.test(e.result_type ?? ""),
    statusCodes: [...summary.matchAll(/\b(?:HTTP\/?[\d.]*\s*|status(?: code)?[:=\s]+|code[:=\s]+)([1-5]\d\d)\b/gi)].map(
      (m) => m[1]!,
    ),
    tokens,
    stems,
    sequences,
    basenames,
    extensions,
    locations,
    segments: segmentSet,
  };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function addCommand(
  command: string,
  addText: (t: string, f: Field) => void,
  addPath: (p: string) => void,
  addUrl: (u: string) => void,
): void {
  // "ls" + a thing lists that thing (lsusb, lspci, lsblk, lscpu): the record also holds the thing's name.
  for (const m of command.matchAll(/(?:^|[|;&]\s*|\bsudo\s+)ls([a-z]{3,})(?=\s|$)/g)) addText(m[1]!, "args");
  for (const part of command.split(/\s+/)) {
    if (/^https?:\/\//.test(part)) addUrl(part.replace(/^['"]|['"]$/g, ""));
    else if (/[\\/]/.test(part) || /\.[a-z0-9]{1,5}$/i.test(part)) addPath(part.replace(/^['"]|['"]$/g, ""));
    else addText(part, "args");
  }
}

/** Table names after FROM, JOIN, INTO, UPDATE, TABLE, and in table_name = 'x'. */
export function sqlTables(sql: string): string[] {
  const out = new Set<string>();
  for (const m of sql.matchAll(/\b(?:from|join|into|update|table)\s+([A-Za-z_][\w.]*)/gi)) out.add(m[1]!.toLowerCase());
  for (const m of sql.matchAll(/table_name\s*=\s*'([^']+)'/gi)) out.add(m[1]!.toLowerCase());
  out.delete("information_schema.columns");
  return [...out];
}
