import { ArefError } from "@artifact-refs/schema";
import { z } from "zod";
import { CONTEXT_RULES, PREFIXED_RULES } from "./redaction-rules.js";
import { createSecretlintScanner, type SecretlintScanner } from "./redaction-secretlint.js";

/**
 * A redaction rule: every match of `pattern` becomes `[REDACTED:<kind>]`. When the
 * pattern has a named group `secret`, only that group is replaced and the text around
 * it (named groups `pre` / `post`, or anything else the match covers) is kept.
 */
export const RedactionRuleSchema = z
  .object({
    kind: z.string().regex(/^[a-z0-9_.-]{1,64}$/, "kind must be 1-64 chars of a-z, 0-9, '_', '.', '-'"),
    pattern: z.union([z.string().min(1), z.instanceof(RegExp)]),
    /** Extra RegExp flags for a string pattern ("g" is always added). */
    flags: z
      .string()
      .regex(/^[imsu]*$/, "flags may only be i, m, s, u")
      .optional(),
    description: z.string().optional(),
    /** Prefilter: the rule runs only on text containing one of these (case-insensitive). */
    keywords: z.array(z.string().min(1)).optional(),
    /** Minimum Shannon entropy (bits per character) of the secret (or of the match). */
    entropy: z.number().min(0).max(8).optional(),
    /** With a named group `name` in the pattern: a case-insensitive regex the name must match. */
    name: z.string().min(1).optional(),
  })
  .strict();
export type RedactionRule = z.input<typeof RedactionRuleSchema>;

export interface RedactionResult {
  /** The redacted text; the very same string when nothing matched. */
  text: string;
  /** Kinds redacted, sorted, each once. */
  kinds: string[];
  /** Number of replacements made. */
  count: number;
}

export const redactionMarker = (kind: string): string => `[REDACTED:${kind}]`;

/** Values that are already placeholders, not secrets. */
const PLACEHOLDER_RE =
  /^(?:\[REDACTED:|\*{3,}|x{6,}$|<[^>]*>$|\$\{|\$[A-Z_]|%[A-Z_]+%$|(?:password|passw0rd|changeme|secret|example|dummy|placeholder|redacted|undefined|null|none|true|false|str|string|bytes|int|bool|optional|any|your[_-]?[a-z_-]+|test[a-z0-9_-]*)$)/i;
/** A dotted identifier (`self.password`, `config.db.secret`): a code reference, not a value. */
const CODE_REFERENCE_RE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const MARKER_RE = /\[REDACTED:[a-z0-9_.-]{1,64}\]/g;

/** The built-in rules, in the order their hits win: provider tokens, then context rules. */
export const BUILTIN_REDACTION_RULES: readonly RedactionRule[] = [...PREFIXED_RULES, ...CONTEXT_RULES].map(
  ({ kind, description, pattern, flags, keywords, entropy, name }) => ({
    kind,
    description,
    pattern,
    ...(flags ? { flags } : {}),
    keywords: [...keywords],
    ...(entropy !== undefined ? { entropy } : {}),
    ...(name !== undefined ? { name } : {}),
  }),
);

/** Kinds the secretlint preset reports (besides the rules above). */
export const SECRETLINT_KINDS: readonly string[] = [
  "aws_access_key",
  "aws_secret_key",
  "gcp_service_account_key",
  "private_key",
  "github_oauth_url",
  "npmrc_auth_token",
  "npm_token",
  "slack_token",
  "slack_webhook",
  "url_password",
  "sendgrid_key",
  "shopify_key",
  "stripe_secret_key_live",
  "stripe_secret_key_test",
  "stripe_restricted_key_live",
  "stripe_restricted_key_test",
  "github_token",
  "gitlab_token",
  "grafana_cloud_api_token",
  "grafana_service_account_token",
  "openai_key",
  "anthropic_key",
  "groq_api_key",
  "huggingface_user_access_token",
  "linear_api_token",
  "notion_integration_token",
  "ops_token",
  "hashicorp_vault_service_token",
  "hashicorp_vault_batch_token",
  "hashicorp_vault_recovery_token",
  "vercel_personal_access_token",
  "vercel_integration_token",
  "vercel_app_access_token",
  "vercel_app_refresh_token",
  "vercel_ai_gateway_api_key",
  "databricks_personal_access_token",
  "docker_personal_access_token",
  "figma_personal_access_token",
  "cloudflare_global_api_key",
  "cloudflare_user_api_token",
  "cloudflare_account_api_token",
  "tailscale_key",
];

/**
 * Every rule pass sees at most one window: `STEP` characters it owns plus `OVERLAP` after
 * them (so a secret of up to `OVERLAP` chars that starts in the owned part is seen whole)
 * and `CONTEXT` before them (so start-of-token guards see the real previous character).
 * The work of a redaction is therefore bounded by (rules × ~1.4 × text length) characters
 * handed to the regex engine, whatever the text.
 */
const STEP = 64 * 1024;
const OVERLAP = 24 * 1024;
const CONTEXT = 256;

interface CompiledRule {
  kind: string;
  re: RegExp;
  keywords: string[];
  entropy: number | undefined;
  name: RegExp | undefined;
  grouped: boolean;
}

interface Hit {
  start: number;
  end: number;
  kind: string;
  order: number;
}

export interface RedactorOptions {
  /** Extra rules, applied after the built-in ones. */
  rules?: readonly RedactionRule[];
  /** Built-in kinds to switch off (also kinds of the secretlint preset). */
  disable?: readonly string[];
  /** False = no built-in rules at all (only `rules`). */
  builtins?: boolean;
}

function compile(rule: RedactionRule, index: number, origin: string): CompiledRule {
  const parsed = RedactionRuleSchema.safeParse(rule);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArefError(
      "CONFIG_INVALID",
      `${origin} redaction rule #${index + 1} is invalid: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
      {
        hint: "a rule is {kind: 'my_kind', pattern: 'regex', flags?: 'i'}",
      },
    );
  }
  const { kind, pattern, flags, keywords, entropy, name } = parsed.data;
  let re: RegExp;
  try {
    const source = pattern instanceof RegExp ? pattern.source : pattern;
    const given = pattern instanceof RegExp ? pattern.flags : (flags ?? "");
    re = new RegExp(source, `${[...new Set(given.replace(/[gyd]/g, ""))].join("")}gd`);
  } catch (error) {
    throw new ArefError(
      "CONFIG_INVALID",
      `redaction rule "${kind}" has an invalid regular expression: ${(error as Error).message}`,
      {
        hint: "fix the pattern (JavaScript RegExp syntax); test it with new RegExp(pattern)",
        details: { kind, pattern: String(pattern) },
      },
    );
  }
  if (re.test("")) {
    throw new ArefError(
      "CONFIG_INVALID",
      `redaction rule "${kind}" matches the empty string, so it would redact everywhere`,
      {
        hint: "make the pattern require at least one character",
        details: { kind, pattern: String(pattern) },
      },
    );
  }
  re.lastIndex = 0;
  return {
    kind,
    re,
    keywords: (keywords ?? []).map((k) => k.toLowerCase()),
    entropy,
    name: name === undefined ? undefined : new RegExp(name, "i"),
    grouped: /\(\?<secret>/.test(re.source),
  };
}

/** Shannon entropy of `s` in bits per character. */
export function shannonEntropy(s: string): number {
  if (s.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The secret span of one match, or undefined when the match is not a secret. */
function secretSpan(rule: CompiledRule, m: RegExpExecArray): [number, number] | undefined {
  const indices = m.indices;
  let [start, end] = indices?.groups?.secret ?? indices?.[0] ?? [m.index, m.index + m[0].length];
  if (rule.grouped) {
    if (indices?.groups?.secret === undefined) return undefined;
    if (rule.name && !rule.name.test(m.groups?.name ?? "")) return undefined;
    const secret = m.groups?.secret ?? "";
    if (/^["']/.test(secret) && secret.length >= 2 && secret.endsWith(secret[0]!)) {
      start++;
      end--;
    }
    const bare = secret.replace(/^["']|["']$/g, "");
    if (bare === "" || PLACEHOLDER_RE.test(bare) || CODE_REFERENCE_RE.test(bare)) return undefined;
    if (rule.entropy !== undefined && shannonEntropy(bare) < rule.entropy) return undefined;
  } else if (rule.entropy !== undefined && shannonEntropy(m[0]) < rule.entropy) {
    return undefined;
  }
  return [start, end];
}

/** Work done by the last redaction, for tests and benchmarks. */
export interface RedactionWork {
  /** Characters handed to regex engines (sum over rule passes and windows). */
  scanned: number;
  /** Rule passes skipped by the keyword prefilter. */
  prefiltered: number;
}

/**
 * Replaces secrets with `[REDACTED:<kind>]` before anything is stored. Text without a
 * match is returned unchanged (the same string, byte-identical).
 *
 * Rules: secretlint's recommended preset (provider tokens), the package's own context and
 * prefixed-token rules (BUILTIN_REDACTION_RULES), then user rules. All hits are collected on
 * the original text; overlapping hits are merged into one marker (the first rule's kind).
 */
export class Redactor {
  readonly #rules: CompiledRule[];
  readonly #secretlint: SecretlintScanner | undefined;
  readonly #disabled: Set<string>;
  /** Work done by the last call of `redact` (characters scanned, passes skipped). */
  lastWork: RedactionWork = { scanned: 0, prefiltered: 0 };

  constructor(options: RedactorOptions = {}) {
    this.#disabled = new Set(options.disable ?? []);
    const builtins =
      options.builtins === false ? [] : BUILTIN_REDACTION_RULES.filter((r) => !this.#disabled.has(r.kind));
    this.#rules = [
      ...builtins.map((r, i) => compile(r, i, "built-in")),
      ...(options.rules ?? []).map((r, i) => compile(r, i, "user")),
    ];
    this.#secretlint = options.builtins === false ? undefined : createSecretlintScanner();
  }

  /** Kinds this redactor replaces. */
  get kinds(): string[] {
    const fromPreset = this.#secretlint ? SECRETLINT_KINDS.filter((k) => !this.#disabled.has(k)) : [];
    return [...new Set([...fromPreset, ...this.#rules.map((r) => r.kind)])];
  }

  redact(text: string): RedactionResult {
    const work: RedactionWork = { scanned: 0, prefiltered: 0 };
    this.lastWork = work;
    const hits: Hit[] = [];
    const windows = windowsOf(text.length);
    if (this.#secretlint) {
      for (const w of windows) {
        const slice = text.slice(w.from, w.to);
        work.scanned += slice.length * this.#secretlint.ruleIds.length;
        for (const hit of this.#secretlint.scan(slice)) {
          const start = hit.start + w.from;
          if (start < w.own || start >= w.ownEnd || this.#disabled.has(hit.kind)) continue;
          hits.push({ start, end: hit.end + w.from, kind: hit.kind, order: 0 });
        }
      }
    }
    const lower = this.#rules.some((r) => r.keywords.length > 0) ? text.toLowerCase() : "";
    this.#rules.forEach((rule, i) => {
      if (rule.keywords.length > 0 && !rule.keywords.some((k) => lower.includes(k))) {
        work.prefiltered++;
        return;
      }
      const { re } = rule;
      for (const w of windows) {
        const slice = w.from === 0 && w.to === text.length ? text : text.slice(w.from, w.to);
        re.lastIndex = w.own - w.from;
        work.scanned += w.to - w.own;
        for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
          if (m[0].length === 0) re.lastIndex++;
          if (m.index + w.from >= w.ownEnd) break;
          const span = secretSpan(rule, m);
          if (span) hits.push({ start: span[0] + w.from, end: span[1] + w.from, kind: rule.kind, order: i + 1 });
        }
      }
      re.lastIndex = 0;
    });
    if (hits.length === 0) return { text, kinds: [], count: 0 };
    return apply(text, hits);
  }
}

interface Window {
  /** Slice handed to the engine: [from, to). */
  from: number;
  to: number;
  /** Hits must start in [own, ownEnd). */
  own: number;
  ownEnd: number;
}

function windowsOf(length: number): Window[] {
  if (length <= STEP + OVERLAP) return [{ from: 0, to: length, own: 0, ownEnd: length }];
  const out: Window[] = [];
  for (let own = 0; own < length; own += STEP) {
    out.push({
      from: Math.max(0, own - CONTEXT),
      to: Math.min(length, own + STEP + OVERLAP),
      own,
      ownEnd: Math.min(length, own + STEP),
    });
  }
  return out;
}

/** Merges overlapping hits (first by position, then by rule order) and writes the markers. */
function apply(text: string, hits: Hit[]): RedactionResult {
  const markers: [number, number][] = [];
  MARKER_RE.lastIndex = 0;
  for (let m = MARKER_RE.exec(text); m !== null; m = MARKER_RE.exec(text))
    markers.push([m.index, m.index + m[0].length]);
  let next = 0;
  /** Hits come sorted by start: the markers that end before one can be passed for good. */
  const insideMarker = (h: Hit) => {
    while (next < markers.length && markers[next]![1] <= h.start) next++;
    return next < markers.length && markers[next]![0] < h.end;
  };
  hits.sort((a, b) => a.start - b.start || a.order - b.order || b.end - a.end);
  const merged: Hit[] = [];
  for (const hit of hits) {
    if (hit.end <= hit.start || insideMarker(hit)) continue;
    const last = merged[merged.length - 1];
    if (last && hit.start < last.end) {
      last.end = Math.max(last.end, hit.end);
      continue;
    }
    merged.push({ ...hit });
  }
  if (merged.length === 0) return { text, kinds: [], count: 0 };
  let out = "";
  let at = 0;
  for (const hit of merged) {
    out += text.slice(at, hit.start) + redactionMarker(hit.kind);
    at = hit.end;
  }
  out += text.slice(at);
  return { text: out, kinds: [...new Set(merged.map((h) => h.kind))].sort(), count: merged.length };
}

let defaultRedactor: Redactor | undefined;

/** Redacts with the built-in rules only. */
export function redactSecrets(text: string): RedactionResult {
  defaultRedactor ??= new Redactor();
  return defaultRedactor.redact(text);
}
