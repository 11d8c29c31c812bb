import { isTap, summaryCounts } from "./test-output.js";
import type { PreviewKind } from "./types.js";

const CODE_EXT = new Set([
  "ts",
  "tsx",
  "js",
  "jsx",
  "mjs",
  "cjs",
  "py",
  "go",
  "rs",
  "java",
  "kt",
  "c",
  "h",
  "cc",
  "cpp",
  "hpp",
  "cs",
  "rb",
  "php",
  "swift",
  "scala",
  "sh",
  "bash",
  "lua",
  "dart",
  "vue",
  "svelte",
]);
const TEXT_EXT = new Set([
  "md",
  "txt",
  "rst",
  "adoc",
  "yaml",
  "yml",
  "toml",
  "ini",
  "conf",
  "cfg",
  "env",
  "xml",
  "sql",
]);

export function extensionOf(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const base = label.split(/[?#]/)[0]!.split(/[\\/]/).pop() ?? "";
  const m = /\.([A-Za-z0-9]+)$/.exec(base);
  if (!m) return undefined;
  const ext = m[1]!.toLowerCase();
  // error.log.1 and access.log.2.gz style rotations
  return ext;
}

const TEST_RE = [
  /^\s*(Tests?|Test Files)\s*:?\s+.*\b(passed|failed)\b/im, // vitest, jest
  /^=+ .*\b(passed|failed|error)\b.* in [\d.]+s\s*=+$/im, // pytest
  /^\s*\d+ (passing|failing)\b/im, // mocha
  /^(--- (FAIL|PASS):|ok\s+\S+\s+[\d.]+s|FAIL\s+\S+\s+[\d.]+s)/m, // go test
  /^\s*(PASS|FAIL)\s+\S+\.(test|spec)\.[jt]sx?/m, // jest file lines
  /^test result: (ok|FAILED)\. \d+ passed/m, // cargo test
];

/**
 * A runner's output: one of TEST_RE or a summary line of counts (not "step 12 failed") in the
 * tail together with a test word, or TAP, or go test's "=== RUN" / "--- FAIL:" lines.
 */
function looksLikeTestRun(text: string, label: string): boolean {
  const tail = text.slice(-8_192);
  const tap = isTap(text);
  const shape =
    tap || TEST_RE.some((re) => re.test(tail)) || tail.split("\n").some((line) => summaryCounts(line) !== undefined);
  if (!shape) return false;
  return (
    tap ||
    /\b(test|tests|spec|pytest|vitest|jest|passed|failed|passing|failing)\b/i.test(tail + label) ||
    /^(--- (FAIL|PASS):|=== RUN)/m.test(text)
  );
}

const LOG_LINE =
  /^(\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d|\d{4}\/\d\d\/\d\d \d\d:|\[?(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\]?[\s:]|.{0,40}?\[?\b(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b\]?[\s:])/;

const CODE_LINE =
  /^\s*(import\s|export\s|from\s+\S+\s+import|def\s+\w+|class\s+\w+|function\s+\w+|func\s+\w+|fn\s+\w+|pub\s+|package\s+\w+|#include\s|const\s+\w+\s*=|let\s+\w+|interface\s+\w+|type\s+\w+\s*=|struct\s+\w+|impl\s|public\s+|private\s+|return\b|if\s*\(|for\s*\()/;

/** Picks the preview kind from the MIME type, then the label's extension, then the content. */
export function detectKind(text: string, mime?: string, label?: string): PreviewKind {
  if (text.trim().length === 0) return "empty";
  const m = (mime ?? "").toLowerCase();
  const ext = extensionOf(label);
  const l = (label ?? "").toLowerCase();
  const head = text.slice(0, 4_096);
  const trimmed = head.trimStart();

  if (m.includes("json") || ext === "json" || ext === "jsonl" || ext === "ndjson" || ext === "geojson") {
    if (isJson(text) || isJsonLines(text)) return "json";
  }
  if (m.includes("html") || ext === "html" || ext === "htm") return "html";
  if (m.includes("csv") || m.includes("tab-separated") || ext === "csv" || ext === "tsv") return "csv";
  if (looksLikeTestRun(text, l)) {
    if (!ext || !CODE_EXT.has(ext)) return "test";
  }
  if (ext === "log" || /\.log(\.\d+)?(\.gz)?$/.test(l) || m === "text/x-log") return "log";
  if (ext && CODE_EXT.has(ext)) return "code";
  if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && (isJson(text) || isJsonLines(text))) return "json";
  if (/^<(!doctype html|html|head|body)\b/i.test(trimmed)) return "html";
  if (ext && TEXT_EXT.has(ext)) return "text";

  const lines = head
    .split("\n")
    .slice(0, 60)
    .filter((x) => x.trim().length > 0);
  if (lines.length >= 3) {
    const logLike = lines.filter((x) => LOG_LINE.test(x)).length;
    if (logLike / lines.length >= 0.5) return "log";
    const codeLike = lines.filter((x) => CODE_LINE.test(x)).length;
    if (codeLike / lines.length >= 0.25 && /[{}();:]/.test(head)) return "code";
    if (looksCsv(lines)) return "csv";
  }
  return "text";
}

export function isJson(text: string): boolean {
  const t = text.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

export function isJsonLines(text: string): boolean {
  const lines = text.split("\n").filter((x) => x.trim().length > 0);
  if (lines.length < 2) return false;
  return lines.slice(0, 50).every((x) => {
    const t = x.trim();
    if (!t.startsWith("{") && !t.startsWith("[")) return false;
    try {
      JSON.parse(t);
      return true;
    } catch {
      return false;
    }
  });
}

export function detectDelimiter(lines: string[]): string | undefined {
  let best: string | undefined;
  let bestScore = 0;
  for (const d of [",", "\t", ";", "|"]) {
    const counts = lines.slice(0, 20).map((x) => splitCsvLine(x, d).length);
    const first = counts[0] ?? 0;
    if (first < 2) continue;
    const same = counts.filter((c) => c === first).length / counts.length;
    if (same >= 0.8 && first * same > bestScore) {
      best = d;
      bestScore = first * same;
    }
  }
  return best;
}

function looksCsv(lines: string[]): boolean {
  return detectDelimiter(lines) !== undefined && !lines.some((x) => x.length > 2_000);
}

/** Splits one CSV line, honouring double quotes ("a,b" and "" escapes). */
export function splitCsvLine(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else quoted = false;
      } else cur += c;
    } else if (c === '"' && cur.length === 0) quoted = true;
    else if (c === delimiter) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur.replace(/\r$/, ""));
  return out;
}
