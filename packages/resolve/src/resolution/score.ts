import { FIELD_WEIGHT, type Field, type IndexedExecution } from "./executions.js";
import type { ToolClass } from "./lexicon.js";
import type { ParsedQuery, QueryTerm } from "./query.js";
import { isTypo, stem } from "./tokens.js";

export interface Scored {
  x: IndexedExecution;
  total: number;
  text: number;
  tool: number;
  outcome: number;
  /** A word of the message matched a name of the execution (path, URL, args, label). */
  named: boolean;
  /** A content word of the message is a whole name of the execution (a path segment, a file's stem, a host, a table). */
  strong: boolean;
  /** Share of the message's content words (weighted) that matched this execution. */
  coverage: number;
  reasons: string[];
}

const EXT_SYNONYMS: Record<string, string> = { yml: "yaml", htm: "html", jpeg: "jpg", mkd: "md", markdown: "md", tsx: "ts", jsx: "js", mjs: "js", cjs: "js" };
const ext = (e: string) => EXT_SYNONYMS[e] ?? e;

interface TermMatch {
  score: number;
  field: Field;
  how: string;
  /** The execution's word that matched (two message words matching one word count once). */
  token: string;
}

/** Per query: IDF of each word and, for each word, the session's words that are a typo of it. */
export interface ScoreContext {
  idf: Map<string, number>;
  typos: Map<string, string[]>;
}

function matchTerm(t: QueryTerm, x: IndexedExecution, typos?: Map<string, string[]>): TermMatch | undefined {
  let best: TermMatch | undefined;
  const consider = (field: Field | undefined, quality: number, how: string, token: string) => {
    if (!field) return;
    const score = FIELD_WEIGHT[field] * quality;
    if (!best || score > best.score) best = { score, field, how, token };
  };
  // A word that is a whole name (a file's stem, a path segment, a host, a table) fits best.
  const whole = x.segments.has(t.word) || x.segments.has(t.stem) ? 1.15 : 1;
  consider(x.tokens.get(t.word), whole, `"${t.word}"`, t.word);
  consider(x.stems.get(t.stem), 0.9, `"${t.word}"`, t.stem);
  if (t.word.length >= 5 && !best) {
    const candidates = typos?.get(t.word);
    if (candidates) {
      for (const tok of candidates) consider(x.tokens.get(tok), 0.75, `"${t.word}" ~ "${tok}"`, stem(tok));
    } else {
      for (const [tok, field] of x.tokens) if (isTypo(t.word, tok)) consider(field, 0.75, `"${t.word}" ~ "${tok}"`, stem(tok));
    }
  }
  if (!best || best.score < FIELD_WEIGHT.base * 0.55) {
    for (const r of t.related) {
      consider(x.tokens.get(r) ?? x.stems.get(stem(r)), 0.55, `"${t.word}" ~ "${r}"`, stem(r));
    }
  }
  return best;
}

/** Scores of an explicit name ("package.json", "src/app.ts", a URL) against an execution. */
function matchName(name: string, x: IndexedExecution): number {
  const n = name.toLowerCase().replace(/^\.\//, "").replace(/\/+$/, "");
  if (x.locations.some((loc) => loc === n || loc.endsWith(`/${n}`) || (n.includes("/") && loc.endsWith(n)))) return 4;
  const base = n.split(/[\\/]/).pop() ?? n;
  const [bStem, ...bExt] = base.split(".");
  let best = 0;
  for (const b of x.basenames) {
    if (b === base) best = Math.max(best, 3.5);
    const [s, ...e] = b.split(".");
    const sameExt = bExt.length === 0 || (e.length > 0 && ext(e.at(-1)!) === ext(bExt.at(-1)!));
    if (s === bStem && sameExt) best = Math.max(best, 3.2);
    else if (sameExt && bStem && s && isTypo(bStem, s)) best = Math.max(best, 3);
    else if (s === bStem) best = Math.max(best, 2);
  }
  return best;
}

export function scoreContext(query: ParsedQuery, xs: IndexedExecution[]): ScoreContext {
  const vocab = new Set<string>();
  for (const x of xs) for (const tok of x.tokens.keys()) vocab.add(tok);
  const typos = new Map<string, string[]>();
  for (const t of query.terms) {
    if (t.word.length < 5) continue;
    const found: string[] = [];
    for (const tok of vocab) if (isTypo(t.word, tok)) found.push(tok);
    typos.set(t.word, found);
  }
  return { idf: idfTable(query, xs, typos), typos };
}

export function idfTable(query: ParsedQuery, xs: IndexedExecution[], typos?: Map<string, string[]>): Map<string, number> {
  const n = xs.length;
  const idf = new Map<string, number>();
  for (const t of query.terms) {
    // Document frequency of the word itself; related words only when the word never occurs.
    let df = xs.filter((x) => x.tokens.has(t.word) || x.stems.has(t.stem)).length;
    if (df === 0) df = xs.filter((x) => matchTerm(t, x, typos) !== undefined).length;
    idf.set(t.word, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return idf;
}

export function scoreExecution(query: ParsedQuery, x: IndexedExecution, context: ScoreContext): Scored {
  const { idf, typos } = context;
  const reasons: string[] = [];
  let text = 0;
  let named = false;
  let matchedWeight = 0;
  let totalWeight = 0;
  const matchedFields: string[] = [];
  const usedTokens = new Set<string>();
  for (const t of query.terms) {
    totalWeight += t.weight;
    const m = matchTerm(t, x, typos);
    if (!m) continue;
    if (usedTokens.has(m.token)) continue;
    usedTokens.add(m.token);
    matchedWeight += t.weight;
    text += t.weight * (idf.get(t.word) ?? 1) * m.score;
    if (FIELD_WEIGHT[m.field] >= 2 && t.weight >= 1) named = true;
    matchedFields.push(`${m.how} in ${fieldName(m.field)}`);
  }
  if (matchedFields.length) reasons.push(`words: ${matchedFields.slice(0, 6).join(", ")}`);

  for (const name of query.names) {
    const s = matchName(name, x);
    if (s > 0) {
      text += s;
      named = true;
      reasons.push(`name: "${name}" matches ${x.locations[0] ?? x.target}`);
    }
  }

  // Phrases: two adjacent words of the message adjacent in a field too ("rate limit").
  let phrase = 0;
  const seq = query.sequence;
  for (let i = 0; i + 1 < seq.length; i++) {
    const a = seq[i]!;
    const b = seq[i + 1]!;
    if (a.length < 3 || b.length < 3) continue;
    if (!query.terms.some((t) => t.word.replace(/s$/, "") === a) || !query.terms.some((t) => t.word.replace(/s$/, "") === b)) continue;
    for (const { field, words } of x.sequences) {
      let hit = false;
      for (let j = 0; j + 1 < words.length; j++) if (words[j] === a && words[j + 1] === b) hit = true;
      if (hit) {
        const wa = query.terms.find((t) => t.word.replace(/s$/, "") === a)!;
        const wb = query.terms.find((t) => t.word.replace(/s$/, "") === b)!;
        phrase = Math.max(phrase, ((idf.get(wa.word) ?? 1) + (idf.get(wb.word) ?? 1)) * FIELD_WEIGHT[field] * Math.min(wa.weight, wb.weight));
        break;
      }
    }
  }
  if (phrase > 0) reasons.push("phrase match");
  text += phrase;

  // Tool kind.
  let tool = 0;
  let toolWhy = "";
  for (const [cls, h] of query.hints) {
    if (cls === "file" || cls === "data") continue;
    const m = x.classes.get(cls as ToolClass) ?? 0;
    if (h.weight * m > tool) {
      tool = h.weight * m;
      toolWhy = `tool: ${x.tool} is ${h.what}`;
    }
  }
  const fileHint = query.hints.get("file");
  if (fileHint && (x.classes.has("read") || x.classes.has("write"))) {
    tool += fileHint.weight * Math.max(x.classes.get("read") ?? 0, x.classes.get("write") ?? 0);
    toolWhy ||= `tool: ${x.tool} acts on a file`;
  }
  const dataHint = query.hints.get("data");
  if (dataHint && (x.classes.has("sql") || (x.classes.has("read") && x.extensions.some((e) => /^(csv|tsv|json|jsonl|parquet|xlsx?)$/.test(e))))) {
    tool += dataHint.weight;
    toolWhy ||= `tool: ${x.tool} returns data`;
  }
  if (toolWhy) reasons.push(toolWhy);

  let outcome = 0;
  if (query.wantsError && x.isError) {
    outcome = 3;
    reasons.push(`outcome: ${x.source.result_type}`);
  }
  for (const code of query.statusCodes) {
    if (x.statusCodes.includes(code)) {
      outcome += 1;
      reasons.push(`status ${code}`);
    }
  }

  return {
    x,
    total: text + tool + outcome,
    text,
    tool,
    outcome,
    named,
    strong: query.terms.some((t) => t.weight >= 1 && (x.segments.has(t.word) || x.segments.has(t.stem))) || query.names.some((n) => matchName(n, x) >= 3),
    coverage: totalWeight > 0 ? matchedWeight / totalWeight : 0,
    reasons,
  };
}

function fieldName(f: Field): string {
  return f === "base" ? "name" : f === "path" ? "path" : f === "args" ? "arguments" : f === "label" ? "label" : "summary";
}
