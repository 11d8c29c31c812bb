/**
 * The package's own redaction rules: secrets found by their *context* (headers, assignments,
 * command-line flags, URLs, PEM blocks, JWTs) and prefixed token formats that secretlint's
 * recommended preset does not cover. Provider tokens it does cover come from the preset
 * (redaction-secretlint.ts).
 *
 * Every pattern is linear: a literal or a start-of-token guard first, then bounded runs of
 * one character class (checked by the ReDoS checker in the tests). `keywords` (lower case)
 * are a prefilter: a rule runs only on text that contains one of them. `entropy` is the
 * minimum Shannon entropy (bits per character) of the secret for generic assignments.
 */
export interface BuiltinRule {
  kind: string;
  description: string;
  pattern: string;
  flags?: string;
  keywords: readonly string[];
  entropy?: number;
  /** For assignments: a case-insensitive pattern the captured `name` group must match. */
  name?: string;
}

/** A token-like secret may only start where the previous char cannot continue it. */
const START = "(?<![A-Za-z0-9_-])";
/** …and end where the next char cannot continue it. */
const END = "(?![A-Za-z0-9_-])";
/** A whole name (identifier, dotted path, env var), matched as one run; its wording is checked apart (`name`). */
const NAME = "(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{1,64})";
/** A quoted value, or a bare one up to whitespace or a delimiter (not a call or an index: `getpass()`). */
const VALUE = `"[^"\\s]{1,256}"|'[^'\\s]{1,256}'|[^\\s"'\`<>{}$,;()\\[\\]\\\\]{1,256}(?![^\\s"'\`<>{}$,;)\\]\\\\])`;

export const CONTEXT_RULES: readonly BuiltinRule[] = [
  {
    kind: "private_key",
    description: "PEM private key blocks (RSA, EC, OpenSSH, PGP, PKCS#8), also when the END line is missing",
    pattern:
      "-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----(?:[\\s\\S]{0,20000}?-----END (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\\s:-]{0,20000})",
    keywords: ["private key"],
  },
  {
    kind: "jwt",
    description: "JSON Web Tokens",
    pattern: `${START}eyJ[A-Za-z0-9_-]{8,8192}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{8,8192}`,
    keywords: ["eyj"],
  },
  {
    kind: "auth_header",
    description: "credentials in an Authorization / Proxy-Authorization header (Bearer, Basic, Token, Digest, or bare)",
    pattern:
      "(?<pre>(?<![A-Za-z0-9_-])(?:proxy-)?authorization[\"']?\\s{0,5}[:=]\\s{0,5}[\"']?(?:(?:bearer|basic|token|digest|bot|apikey|sso-key)\\s{1,5})?)(?<secret>[A-Za-z0-9._~+/=:-]{6,4096})(?![A-Za-z0-9._~+/=:-])",
    flags: "i",
    keywords: ["authorization"],
  },
  {
    kind: "auth_header",
    description: "a Bearer or Basic credential outside a header line (curl -H, HTTP client code)",
    pattern:
      "(?<pre>(?<![A-Za-z0-9_-])(?:Bearer|Basic)\\s{1,5})(?<secret>(?=[A-Za-z0-9._~+/-]{0,40}[0-9]|[A-Za-z0-9._~+/-]{1,40}[A-Z])[A-Za-z0-9._~+/-]{12,4096}={0,2})(?![A-Za-z0-9._~+/=-])",
    keywords: ["bearer", "basic"],
    entropy: 3,
  },
  {
    kind: "secret_assignment",
    description:
      "passwords assigned to a name ending in password/passwd/passphrase (env, config, code): any value that is not a placeholder, letters only included",
    pattern: `(?<pre>${NAME}["']?\\s{0,5}(?:=|:|=>)\\s{0,5})(?<secret>${VALUE})`,
    name: "(?:password|passwd|passphrase)$",
    keywords: ["password", "passwd", "passphrase"],
  },
  {
    kind: "secret_assignment",
    description:
      "secrets assigned to secret/token/api-key names: a value of 8+ characters with an entropy of 3 bits per character or more",
    pattern: `(?<pre>${NAME}["']?\\s{0,5}(?:=|:|=>)\\s{0,5})(?<secret>"[^"\\s]{8,512}"|'[^'\\s]{8,512}'|[A-Za-z0-9_+/=.~-]{8,512}(?![^\\s"'\`<>{}$,;()\\[\\]]))`,
    name: "(?:secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)[a-z0-9_]{0,10}$",
    keywords: ["secret", "token", "key", "credential"],
    entropy: 3,
  },
  {
    kind: "cli_password",
    description: "passwords given as long command-line flags: --password value, --password=value, --db-password …",
    pattern: `(?<pre>(?<![A-Za-z0-9_-])--[a-z0-9-]{0,30}(?:password|passwd|passphrase|secret)(?:=|\\s{1,5}))(?<secret>"[^"\\n]{1,256}"|'[^'\\n]{1,256}'|[^\\s"'$<>{}(|&;-][^\\s"'<>{}|&;]{0,255})`,
    flags: "i",
    keywords: ["--"],
  },
  {
    kind: "cli_password",
    description: "passwords attached to the -p flag of mysql/mariadb clients (-pVALUE)",
    pattern:
      "(?<pre>(?<![A-Za-z0-9_-])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)(?:\\s{1,5}(?!-p)[^\\s|;&]{1,100}){0,10}\\s{1,5}-p)(?<secret>[^\\s\"'$<>{}|&;-][^\\s\"'<>{}|&;]{0,255})",
    keywords: ["mysql", "mariadb"],
  },
  {
    kind: "cli_password",
    description: "passwords given as the value of sshpass -p and redis-cli -a",
    pattern:
      "(?<pre>(?<![A-Za-z0-9_-])(?:sshpass\\s{1,5}-p|redis-cli(?:\\s{1,5}(?!-a)[^\\s|;&]{1,100}){0,10}\\s{1,5}-a)\\s{1,5})(?<secret>[^\\s\"'$<>{}|&;-][^\\s\"'<>{}|&;]{0,255})",
    keywords: ["sshpass", "redis-cli"],
  },
  {
    kind: "url_password",
    description: "passwords in URLs of any scheme (scheme://user:password@host)",
    pattern:
      "(?<pre>(?<![A-Za-z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\\s:/@\"'<>]{1,256}:)(?<secret>[^\\s@/\"'<>]{1,256})(?<post>@)",
    keywords: ["://"],
  },
  {
    kind: "azure_storage_key",
    description: "Azure storage account keys in connection strings",
    pattern: "(?<pre>AccountKey=)(?<secret>[A-Za-z0-9+/]{86}==)",
    keywords: ["accountkey="],
  },
];

/** Prefixed token formats: `prefix` + a run of `body` characters, guarded on both sides. */
interface PrefixedFormat {
  kind: string;
  description: string;
  prefix: string;
  body: string;
  /** Case-insensitive prefix. */
  i?: boolean;
}

const PREFIXED: readonly PrefixedFormat[] = [
  {
    kind: "aws_access_key",
    description:
      "AWS access key ids (the preset skips AWS's documentation example; a key in a transcript is redacted whatever it is)",
    prefix: "(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)",
    body: "[0-9A-Z]{16}",
  },
  { kind: "google_api_key", description: "Google API keys", prefix: "AIza", body: "[0-9A-Za-z_-]{35}" },
  {
    kind: "google_oauth_secret",
    description: "Google OAuth client secrets",
    prefix: "GOCSPX-",
    body: "[0-9A-Za-z_-]{28}",
  },
  {
    kind: "google_oauth_token",
    description: "Google OAuth access tokens",
    prefix: "ya29\\.",
    body: "[0-9A-Za-z_-]{20,1024}",
  },
  {
    kind: "openai_key",
    description: "OpenAI API keys (sk-…, sk-proj-…) with upper, lower and digits",
    prefix:
      "sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]{0,255}[0-9])(?=[A-Za-z0-9_-]{0,255}[A-Z])(?=[A-Za-z0-9_-]{0,255}[a-z])",
    body: "[A-Za-z0-9_-]{32,255}",
  },
  {
    kind: "anthropic_key",
    description: "Anthropic API keys",
    prefix: "sk-ant-(?:api|admin|sid)\\d{2}-",
    body: "[A-Za-z0-9_-]{20,255}",
  },
  { kind: "github_token", description: "GitHub tokens", prefix: "gh[pousr]_", body: "[A-Za-z0-9]{36,255}" },
  {
    kind: "github_token",
    description: "GitHub fine-grained tokens",
    prefix: "github_pat_",
    body: "[A-Za-z0-9_]{22,255}",
  },
  {
    kind: "gitlab_token",
    description: "GitLab tokens",
    prefix: "gl(?:pat|dt|rt|ptt|ft|cbt|soat|agent|oas|imt)-",
    body: "[A-Za-z0-9_-]{20,255}",
  },
  { kind: "slack_token", description: "Slack tokens", prefix: "xox[abposre]-", body: "[A-Za-z0-9-]{10,255}" },
  { kind: "slack_token", description: "Slack app tokens", prefix: "xapp-\\d-", body: "[A-Za-z0-9-]{10,255}" },
  {
    kind: "stripe_key",
    description: "Stripe secret and restricted keys",
    prefix: "(?:sk|rk)_(?:live|test)_",
    body: "[A-Za-z0-9]{16,255}",
  },
  {
    kind: "stripe_webhook_secret",
    description: "Stripe webhook signing secrets",
    prefix: "whsec_",
    body: "[A-Za-z0-9+/=]{24,128}",
  },
  { kind: "twilio_api_key", description: "Twilio API key SIDs", prefix: "SK", body: "[0-9a-f]{32}" },
  { kind: "mailgun_key", description: "Mailgun API keys", prefix: "key-", body: "[0-9a-z]{32}" },
  { kind: "mailchimp_key", description: "Mailchimp API keys", prefix: "", body: "[0-9a-f]{32}-us[0-9]{1,2}" },
  { kind: "digitalocean_token", description: "DigitalOcean tokens", prefix: "do[opr]_v1_", body: "[a-f0-9]{64}" },
  {
    kind: "telegram_bot_token",
    description: "Telegram bot tokens",
    prefix: "[0-9]{8,10}:AA",
    body: "[A-Za-z0-9_-]{33}",
  },
  {
    kind: "pypi_token",
    description: "PyPI upload tokens",
    prefix: "pypi-AgEIcHlwaS5vcmc",
    body: "[A-Za-z0-9_-]{50,1000}",
  },
  { kind: "rubygems_key", description: "RubyGems API keys", prefix: "rubygems_", body: "[a-f0-9]{48}" },
  { kind: "postman_key", description: "Postman API keys", prefix: "PMAK-", body: "[a-f0-9]{24}-[a-f0-9]{34}" },
  {
    kind: "doppler_token",
    description: "Doppler tokens",
    prefix: "dp\\.(?:pt|st|sa|ct|scim|audit)\\.",
    body: "[A-Za-z0-9]{40,44}",
  },
  { kind: "pulumi_token", description: "Pulumi access tokens", prefix: "pul-", body: "[a-f0-9]{40}" },
  {
    kind: "age_secret_key",
    description: "age secret keys",
    prefix: "AGE-SECRET-KEY-1",
    body: "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
  },
  {
    kind: "sentry_token",
    description: "Sentry auth tokens",
    prefix: "sntr(?:ys|yu)_",
    body: "[A-Za-z0-9+/=_]{40,400}",
  },
  {
    kind: "square_token",
    description: "Square access tokens and OAuth secrets",
    prefix: "sq0(?:atp|csp)-",
    body: "[0-9A-Za-z_-]{22,43}",
  },
  { kind: "alibaba_access_key", description: "Alibaba Cloud AccessKey ids", prefix: "LTAI", body: "[A-Za-z0-9]{20}" },
  {
    kind: "planetscale_token",
    description: "PlanetScale tokens and passwords",
    prefix: "pscale_(?:tkn|pw|oauth)_",
    body: "[A-Za-z0-9_.-]{32,64}",
  },
  { kind: "newrelic_key", description: "New Relic user API keys", prefix: "NRAK-", body: "[A-Z0-9]{27}" },
  { kind: "flyio_token", description: "Fly.io access tokens", prefix: "fo1_", body: "[A-Za-z0-9_-]{43}" },
  { kind: "xai_key", description: "xAI API keys", prefix: "xai-", body: "[A-Za-z0-9]{80}" },
  { kind: "shippo_token", description: "Shippo API tokens", prefix: "shippo_(?:live|test)_", body: "[a-f0-9]{40}" },
  {
    kind: "mapbox_token",
    description: "Mapbox secret tokens",
    prefix: "sk\\.eyJ",
    body: "[A-Za-z0-9_-]{50,400}\\.[A-Za-z0-9_-]{20,100}",
  },
  {
    kind: "supabase_token",
    description: "Supabase access tokens and secret keys",
    prefix: "(?:sbp_|sb_secret_)",
    body: "[A-Za-z0-9_-]{31,64}",
  },
  { kind: "perplexity_key", description: "Perplexity API keys", prefix: "pplx-", body: "[A-Za-z0-9]{48}" },
  { kind: "replicate_token", description: "Replicate API tokens", prefix: "r8_", body: "[A-Za-z0-9]{37}" },
  {
    kind: "airtable_token",
    description: "Airtable personal access tokens",
    prefix: "pat",
    body: "[A-Za-z0-9]{14}\\.[a-f0-9]{64}",
  },
  {
    kind: "buildkite_token",
    description: "Buildkite agent/user tokens",
    prefix: "bk(?:ua|agent)_",
    body: "[a-f0-9]{40}",
  },
  { kind: "render_key", description: "Render API keys", prefix: "rnd_", body: "[A-Za-z0-9]{32}" },
  {
    kind: "terraform_token",
    description: "Terraform Cloud / HCP API tokens",
    prefix: "[a-z0-9]{14}\\.atlasv1\\.",
    body: "[A-Za-z0-9_=-]{60,70}",
  },
  {
    kind: "discord_webhook",
    description: "Discord webhook URLs",
    prefix: "https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/[0-9]{5,30}/",
    body: "[A-Za-z0-9_-]{60,80}",
  },
  { kind: "heroku_key", description: "Heroku platform API keys", prefix: "HRKU-", body: "[A-Za-z0-9_-]{60}" },
];

/** Keywords of a prefixed format: its literal lead, lower-cased (empty = always run). */
function leadKeyword(format: PrefixedFormat): string[] {
  const lead = /^(?:[A-Za-z_-]|\\\.)+/.exec(format.prefix)?.[0]?.replace(/\\\./g, ".") ?? "";
  return lead.length >= 2 ? [lead.toLowerCase()] : [];
}

export const PREFIXED_RULES: readonly BuiltinRule[] = PREFIXED.map((f) => ({
  kind: f.kind,
  description: f.description,
  pattern: `${START}${f.prefix}${f.body}${END}`,
  ...(f.i ? { flags: "i" } : {}),
  keywords: leadKeyword(f),
}));
