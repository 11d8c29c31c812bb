import { ArefError } from "@artifact-refs/schema";
import { z } from "zod";

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
  /^(?:\[REDACTED:|\*{3,}|x{6,}$|<[^>]*>$|\$\{|(?:password|passw0rd|changeme|secret|example|dummy|placeholder|redacted|undefined|your[_-]?[a-z_-]+|test[a-z0-9_-]*)$)/i;

/** The built-in rules, in the order they are applied (specific before generic). */
/**
 * Start-of-token guard: a token-like secret may only start where the previous char cannot
 * continue it. Besides avoiding matches inside longer words, it keeps every rule linear:
 * a long run of token chars is scanned from its start only, never from each position in it.
 */
const START = "(?<![A-Za-z0-9_-])";

/** The built-in rules, in the order they are applied (specific before generic). Every quantifier is bounded or anchored, so scanning is linear in the text length. */
export const BUILTIN_REDACTION_RULES: readonly RedactionRule[] = [
  {
    kind: "private_key",
    description: "PEM private key blocks (RSA, EC, OpenSSH, PGP, PKCS#8), also when the END line is missing",
    pattern:
      "-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----(?:[\\s\\S]{0,20000}?-----END (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\\s:-]{0,20000})",
  },
  {
    kind: "aws_access_key",
    description: "AWS access key ids (AKIA/ASIA/…)",
    pattern: `${START}(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}(?![0-9A-Za-z])`,
  },
  {
    kind: "aws_secret_key",
    description: "AWS secret access keys in an assignment",
    pattern:
      "(?<pre>aws_?secret_?(?:access_?)?key[\"']?\\s{0,10}[:=]\\s{0,10}[\"']?)(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
    flags: "i",
  },
  {
    kind: "github_token",
    description: "GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)",
    pattern: `${START}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])`,
  },
  {
    kind: "gitlab_token",
    description: "GitLab tokens (glpat-, gldt-, glrt-, …)",
    pattern: `${START}gl(?:pat|dt|rt|ptt|ft|cbt|soat|agent)-[A-Za-z0-9_-]{20,255}`,
  },
  {
    kind: "anthropic_key",
    description: "Anthropic API keys",
    pattern: `${START}sk-ant-(?:api|admin|sid)\\d{2}-[A-Za-z0-9_-]{20,255}`,
  },
  {
    kind: "openai_key",
    description: "OpenAI API keys (sk-…, sk-proj-…)",
    pattern: `${START}sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]{0,255}[0-9])(?=[A-Za-z0-9_-]{0,255}[A-Z])(?=[A-Za-z0-9_-]{0,255}[a-z])[A-Za-z0-9_-]{32,255}`,
  },
  {
    kind: "slack_token",
    description: "Slack tokens (xoxb-, xoxp-, …) and app tokens",
    pattern: `${START}(?:xox[abposre]-[A-Za-z0-9-]{10,255}|xapp-\\d-[A-Za-z0-9-]{10,255})`,
  },
  {
    kind: "slack_webhook",
    description: "Slack incoming webhook URLs",
    pattern: "https://hooks\\.slack\\.com/(?:services|workflows)/[A-Za-z0-9_/-]{20,255}",
  },
  {
    kind: "jwt",
    description: "JSON Web Tokens",
    pattern: `${START}eyJ[A-Za-z0-9_-]{8,8192}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{8,8192}`,
  },
  {
    kind: "url_password",
    description: "passwords in URLs (scheme://user:password@host)",
    pattern:
      "(?<pre>(?<![A-Za-z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\\s:/@\"'<>]{1,256}:)(?<secret>[^\\s@/\"'<>]{1,256})(?<post>@)",
  },
  {
    kind: "secret_assignment",
    description:
      "generic assignments to password/secret/token/api_key names: a quoted value of 8+ chars, or an unquoted one of 12+ chars with letters and digits",
    pattern:
      "(?<pre>(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key)[A-Za-z0-9_]{0,20}[\"']?\\s{0,10}(?:=|:|=>)\\s{0,10})(?<secret>\"[^\"\\s$<>{}]{8,512}\"|'[^'\\s$<>{}]{8,512}'|(?=[A-Za-z0-9_+/=.-]{0,512}[0-9])(?=[A-Za-z0-9_+/=.-]{0,512}[A-Za-z])[A-Za-z0-9_+/=-]{12,512}(?![A-Za-z0-9_+/=.(-]))",
    flags: "i",
  },
];

interface CompiledRule {
  kind: string;
  re: RegExp;
}

export interface RedactorOptions {
  /** Extra rules, applied after the built-in ones. */
  rules?: readonly RedactionRule[];
  /** Built-in kinds to switch off. */
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
  const { kind, pattern, flags } = parsed.data;
  let re: RegExp;
  try {
    if (pattern instanceof RegExp) {
      re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
    } else {
      re = new RegExp(pattern, `g${flags ?? ""}`);
    }
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
  return { kind, re };
}

/**
 * Replaces secrets with `[REDACTED:<kind>]` before anything is stored. Text without a
 * match is returned unchanged (the same string, byte-identical).
 */
export class Redactor {
  readonly #rules: CompiledRule[];

  constructor(options: RedactorOptions = {}) {
    const disabled = new Set(options.disable ?? []);
    const builtins = options.builtins === false ? [] : BUILTIN_REDACTION_RULES.filter((r) => !disabled.has(r.kind));
    this.#rules = [
      ...builtins.map((r, i) => compile(r, i, "built-in")),
      ...(options.rules ?? []).map((r, i) => compile(r, i, "user")),
    ];
  }

  /** Kinds this redactor replaces, in application order. */
  get kinds(): string[] {
    return [...new Set(this.#rules.map((r) => r.kind))];
  }

  redact(text: string): RedactionResult {
    let out = text;
    let count = 0;
    const kinds = new Set<string>();
    for (const { kind, re } of this.#rules) {
      re.lastIndex = 0;
      if (!re.test(out)) continue;
      re.lastIndex = 0;
      const marker = redactionMarker(kind);
      out = out.replace(re, (...args: unknown[]) => {
        const match = args[0] as string;
        const last = args[args.length - 1];
        const groups =
          typeof last === "object" && last !== null ? (last as Record<string, string | undefined>) : undefined;
        const secret = groups?.secret;
        if (secret === undefined) {
          if (match.startsWith("[REDACTED:")) return match;
          count++;
          kinds.add(kind);
          return marker;
        }
        const bare = secret.replace(/^["']|["']$/g, "");
        if (PLACEHOLDER_RE.test(bare)) return match;
        const at = groups?.pre !== undefined ? groups.pre.length : match.indexOf(secret);
        count++;
        kinds.add(kind);
        const quote = /^["']/.test(secret) ? secret[0]! : "";
        return `${match.slice(0, at)}${quote}${marker}${quote}${match.slice(at + secret.length)}`;
      });
    }
    return { text: count === 0 ? text : out, kinds: [...kinds].sort(), count };
  }
}

let defaultRedactor: Redactor | undefined;

/** Redacts with the built-in rules only. */
export function redactSecrets(text: string): RedactionResult {
  defaultRedactor ??= new Redactor();
  return defaultRedactor.redact(text);
}
