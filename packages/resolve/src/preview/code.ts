import { clip, fmtInt } from "../text.js";
import { extensionOf } from "./detect.js";
import type { RawPreview } from "./types.js";

interface SymbolRule {
  re: RegExp;
  kind: string;
}

// Group 1 is the symbol's name. Indentation is kept to show nesting (methods under classes).
const RULES: Record<string, SymbolRule[]> = {
  js: [
    { re: /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/, kind: "class" },
    { re: /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/, kind: "function" },
    { re: /^\s*(?:export\s+)?interface\s+([A-Za-z_$][\w$]*)/, kind: "interface" },
    { re: /^\s*(?:export\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<[^=]*>)?\s*=/, kind: "type" },
    { re: /^\s*(?:export\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)/, kind: "enum" },
    {
      re: /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=>/,
      kind: "function",
    },
    { re: /^\s*(?:export\s+)(?:const|let|var)\s+([A-Za-z_$][\w$]*)/, kind: "const" },
    {
      re: /^\s+(?:public\s+|private\s+|protected\s+|static\s+|readonly\s+|async\s+|override\s+)*(?!if\b|for\b|while\b|switch\b|catch\b|return\b|function\b)([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$/,
      kind: "method",
    },
    { re: /^\s*(?:router|app)\.(get|post|put|patch|delete)\(\s*['"`]([^'"`]+)/, kind: "route" },
  ],
  py: [
    { re: /^\s*class\s+([A-Za-z_]\w*)/, kind: "class" },
    { re: /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, kind: "def" },
  ],
  go: [
    { re: /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/, kind: "func" },
    { re: /^type\s+([A-Za-z_]\w*)\s+(struct|interface)/, kind: "type" },
  ],
  rs: [
    { re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)/, kind: "fn" },
    { re: /^\s*(?:pub(?:\([^)]*\))?\s+)?(struct|enum|trait)\s+([A-Za-z_]\w*)/, kind: "type" },
    { re: /^\s*impl(?:<[^>]*>)?\s+([A-Za-z_][\w:<>, ]*)/, kind: "impl" },
  ],
  java: [
    {
      re: /^\s*(?:public|private|protected)?\s*(?:abstract\s+|final\s+|static\s+)*(?:class|interface|enum|record)\s+([A-Za-z_]\w*)/,
      kind: "class",
    },
    {
      re: /^\s+(?:public|private|protected)\s+(?:static\s+|final\s+|abstract\s+|synchronized\s+)*[\w<>[\],\s]+\s+([A-Za-z_]\w*)\s*\(/,
      kind: "method",
    },
  ],
  rb: [
    { re: /^\s*(?:class|module)\s+([A-Z]\w*(?:::\w+)*)/, kind: "class" },
    { re: /^\s*def\s+(?:self\.)?([a-z_]\w*[?!=]?)/, kind: "def" },
  ],
  c: [
    {
      re: /^(?:static\s+|inline\s+|extern\s+)*[A-Za-z_][\w\s*]*?\b([A-Za-z_]\w*)\s*\([^;]*\)\s*\{?\s*$/,
      kind: "function",
    },
    { re: /^\s*(?:typedef\s+)?(struct|class|enum)\s+([A-Za-z_]\w*)/, kind: "type" },
  ],
  sh: [{ re: /^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{/, kind: "function" }],
};

const FAMILY: Record<string, { rules: string; language: string }> = {
  ts: { rules: "js", language: "TypeScript" },
  tsx: { rules: "js", language: "TypeScript (TSX)" },
  js: { rules: "js", language: "JavaScript" },
  jsx: { rules: "js", language: "JavaScript (JSX)" },
  mjs: { rules: "js", language: "JavaScript" },
  cjs: { rules: "js", language: "JavaScript" },
  vue: { rules: "js", language: "Vue" },
  svelte: { rules: "js", language: "Svelte" },
  py: { rules: "py", language: "Python" },
  go: { rules: "go", language: "Go" },
  rs: { rules: "rs", language: "Rust" },
  java: { rules: "java", language: "Java" },
  kt: { rules: "java", language: "Kotlin" },
  scala: { rules: "java", language: "Scala" },
  cs: { rules: "java", language: "C#" },
  rb: { rules: "rb", language: "Ruby" },
  c: { rules: "c", language: "C" },
  h: { rules: "c", language: "C header" },
  cc: { rules: "c", language: "C++" },
  cpp: { rules: "c", language: "C++" },
  hpp: { rules: "c", language: "C++ header" },
  sh: { rules: "sh", language: "Shell" },
  bash: { rules: "sh", language: "Shell" },
};

function guessFamily(text: string): { rules: string; language: string } {
  if (/^\s*(def |class \w+.*:\s*$|import \w+\s*$|from \S+ import )/m.test(text))
    return { rules: "py", language: "Python" };
  if (/^package \w+\s*$/m.test(text) && /^func /m.test(text)) return { rules: "go", language: "Go" };
  if (/^\s*(pub )?fn \w+/m.test(text)) return { rules: "rs", language: "Rust" };
  if (/:\s*(string|number|boolean)\b|^\s*(export )?(interface|type) \w+/m.test(text))
    return { rules: "js", language: "TypeScript" };
  return { rules: "js", language: "JavaScript" };
}

export interface CodeSymbol {
  line: number;
  kind: string;
  name: string;
  depth: number;
}

export function outlineSymbols(text: string, label?: string): { language: string; symbols: CodeSymbol[] } {
  const ext = extensionOf(label);
  const family = (ext && FAMILY[ext]) || guessFamily(text.slice(0, 8_192));
  const rules = RULES[family.rules]!;
  const symbols: CodeSymbol[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && symbols.length < 400; i++) {
    const line = lines[i]!;
    if (line.length > 400) continue;
    for (const rule of rules) {
      const m = rule.re.exec(line);
      if (!m) continue;
      // Rules with two groups (kind keyword + name, or verb + route) put the name last.
      const name = rule.kind === "route" ? `${m[1]!.toUpperCase()} ${m[2]}` : (m[2] ?? m[1])!;
      const kind = rule.kind === "type" && m[2] ? m[1]! : rule.kind;
      const depth = Math.floor((/^\s*/.exec(line)?.[0].replace(/\t/g, "  ").length ?? 0) / 2);
      symbols.push({ line: i + 1, kind, name, depth: Math.min(depth, 4) });
      break;
    }
  }
  return { language: family.language, symbols };
}

/** Source code: an outline of its symbols (classes, functions, methods, types) with line numbers. */
export function previewCode(text: string, maxChars: number, label?: string): RawPreview {
  const { language, symbols } = outlineSymbols(text, label);
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const top = symbols.filter((s) => s.depth === 0);
  const named = (top.length ? top : symbols).slice(0, 12).map((s) => `${s.kind} ${s.name}`);
  const imports = (text.match(/^\s*(import\s|from\s+\S+\s+import\s|#include\s|use\s+\w|require\()/gm) ?? []).length;
  const summary = `${language} source, ${fmtInt(lines)} lines, ${fmtInt(symbols.length)} symbols${named.length ? `: ${named.join(", ")}${symbols.length > named.length ? ", …" : ""}` : ""}`;
  const outline = symbols.map((s) => `${String(s.line).padStart(5)}  ${"  ".repeat(s.depth)}${s.kind} ${s.name}`);
  const head = text.split("\n").slice(0, 8).join("\n");
  const preview = symbols.length ? `outline:\n${outline.join("\n")}` : `head:\n${head}`;
  return {
    summary,
    preview: clip(preview, maxChars),
    stats: { lines, symbols: symbols.length, imports, chars: text.length },
  };
}
