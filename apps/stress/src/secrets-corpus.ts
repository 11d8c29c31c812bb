/** What the generators use of the suites' seeded PRNG (`rng` of @artifact-refs/tooling/testing/rng). */
export interface Rng {
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
}

/**
 * Fake but valid-format secrets of every kind the built-in redactor knows, embedded in
 * realistic tool outputs. Values are random (never a real credential) and never look like
 * a placeholder ("changeme", "test…", "xxxxxx"), which the redactor deliberately keeps.
 */
export interface SecretCase {
  kind: string;
  /** Substrings that must not survive redaction. */
  secrets: string[];
  text: string;
  context: string;
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;

const chars = (r: Rng, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[r.int(alphabet.length)]).join("");
/** Random token with at least one upper, one lower and one digit (never placeholder-like). */
function mixed(r: Rng, alphabet: string, n: number): string {
  const body = chars(r, alphabet, n - 3);
  const extra = [UPPER[r.int(26)], LOWER[r.int(26)], DIGITS[r.int(10)]];
  const at = r.int(body.length + 1);
  return `${extra[0]}${body.slice(0, at)}${extra[1]}${extra[2]}${body.slice(at)}`.slice(0, n);
}
const b64url = (s: string) => Buffer.from(s).toString("base64url");

type Gen = (r: Rng) => { secret: string; secrets?: string[]; name: string };

export const GENERATORS: Record<string, Gen> = {
  aws_access_key: (r) => ({
    secret: r.pick(["AKIA", "ASIA", "AROA", "AIDA"]) + chars(r, UPPER + DIGITS, 16),
    name: "AWS_ACCESS_KEY_ID",
  }),
  aws_secret_key: (r) => ({ secret: mixed(r, `${ALNUM}/+`, 40), name: "aws_secret_access_key" }),
  github_token: (r) =>
    r.int(3) === 0
      ? { secret: `github_pat_${mixed(r, ALNUM, 22)}_${mixed(r, ALNUM, 59)}`, name: "GITHUB_TOKEN" }
      : { secret: `${r.pick(["ghp", "gho", "ghu", "ghs", "ghr"])}_${mixed(r, ALNUM, 36)}`, name: "GH_TOKEN" },
  gitlab_token: (r) => ({
    secret: `${r.pick(["glpat", "gldt", "glrt"])}-${mixed(r, `${ALNUM}_-`, 20)}`,
    name: "GITLAB_TOKEN",
  }),
  anthropic_key: (r) => ({ secret: `sk-ant-api03-${mixed(r, `${ALNUM}_-`, 93)}AA`, name: "ANTHROPIC_API_KEY" }),
  openai_key: (r) => ({
    secret: `sk-${r.pick(["", "proj-", "svcacct-"])}${mixed(r, `${ALNUM}_-`, 48)}`,
    name: "OPENAI_API_KEY",
  }),
  slack_token: (r) => ({
    secret: `xox${r.pick(["b", "p", "a", "r", "s"])}-${chars(r, DIGITS, 12)}-${chars(r, DIGITS, 13)}-${mixed(r, ALNUM, 24)}`,
    name: "SLACK_BOT_TOKEN",
  }),
  slack_webhook: (r) => ({
    secret: `https://hooks.slack.com/services/T${chars(r, UPPER + DIGITS, 8)}/B${chars(r, UPPER + DIGITS, 10)}/${mixed(r, ALNUM, 24)}`,
    name: "SLACK_WEBHOOK_URL",
  }),
  jwt: (r) => {
    const header = b64url(JSON.stringify({ alg: r.pick(["HS256", "RS256"]), typ: "JWT" }));
    const payload = b64url(
      JSON.stringify({
        sub: chars(r, DIGITS, 10),
        name: `user ${chars(r, LOWER, 6)}`,
        iat: 1_700_000_000 + r.int(1e7),
      }),
    );
    return { secret: `${header}.${payload}.${mixed(r, `${ALNUM}_-`, 43)}`, name: "SESSION_JWT" };
  },
  url_password: (r) => {
    const password = mixed(r, `${ALNUM}!*_-`, 10 + r.int(14));
    const url = `${r.pick(["postgres", "mysql", "redis", "amqp", "https", "mongodb+srv"])}://${r.pick(["app", "admin", "deploy"])}:${password}@${r.pick(["db.internal", "10.0.3.7:5432", "cache.example.net"])}/${r.pick(["main", "0", "app"])}`;
    return { secret: url, secrets: [password], name: "DATABASE_URL" };
  },
  secret_assignment: (r) => ({
    secret: mixed(r, `${ALNUM}_`, 14 + r.int(20)),
    name: r.pick([
      "DB_PASSWORD",
      "password",
      "client_secret",
      "API_KEY",
      "auth_token",
      "SECRET",
      "passphrase",
      "private_key",
    ]),
  }),
  private_key: (r) => {
    const type = r.pick(["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED ", "DSA "]);
    const lines = Array.from({ length: 4 + r.int(20) }, () => mixed(r, `${ALNUM}+/`, 64));
    const pem = `-----BEGIN ${type}PRIVATE KEY-----\n${lines.join("\n")}\n${mixed(r, `${ALNUM}+/`, 20)}==\n-----END ${type}PRIVATE KEY-----`;
    return { secret: pem, secrets: lines, name: "key" };
  },
};

export const SECRET_KINDS = Object.keys(GENERATORS);

/** Realistic surroundings: env dumps, config files, logs, JSON, shell sessions, tracebacks. */
const CONTEXTS: Record<string, (name: string, secret: string, r: Rng) => string> = {
  env: (n, s) =>
    `$ env | sort\nHOME=/home/dev\nLANG=C.UTF-8\n${n}=${s}\nPATH=/usr/local/bin:/usr/bin:/bin\nPWD=/srv/app\nSHLVL=1\n`,
  dotenv: (n, s) => `# .env (do not commit)\nNODE_ENV=production\nPORT=8080\n${n}="${s}"\nLOG_LEVEL=info\n`,
  yaml: (n, s) =>
    `services:\n  api:\n    image: registry.local/api:1.4.2\n    environment:\n      ${n.toLowerCase()}: '${s}'\n      retries: 3\n`,
  json: (n, s) =>
    `${JSON.stringify({ service: "billing", region: "eu-west-1", credentials: { [n.toLowerCase()]: s }, timeout_ms: 3000 }, null, 2)}\n`,
  log: (n, s, r) =>
    `2026-11-22T10:${String(r.int(60)).padStart(2, "0")}:01.123Z DEBUG http client configured\n2026-11-22T10:00:02.456Z DEBUG using ${n}=${s} for upstream\n2026-11-22T10:00:02.789Z INFO request ok status=200 ms=41\n`,
  shell: (n, s) => `$ export ${n}=${s}\n$ ./deploy.sh --env prod\nDeploying build 4f2a9c1 to prod... done (12.3 s)\n`,
  traceback: (n, s) =>
    `Traceback (most recent call last):\n  File "/srv/app/client.py", line 42, in connect\n    conn = Client(${n.toLowerCase()}='${s}', timeout=5)\nConnectionError: [Errno 111] Connection refused\n`,
};

/** Contexts a kind fits in (raw values need no name; PEM keys and URLs stand alone). */
function contextFor(kind: string, name: string, secret: string, r: Rng): { context: string; text: string } {
  if (kind === "private_key") {
    const context = r.pick(["cat", "json", "log"]);
    if (context === "cat")
      return {
        context,
        text: `$ cat ~/.ssh/id_deploy\n${secret}\n$ ls -la ~/.ssh\n-rw------- 1 dev dev 2602 Nov 22 id_deploy\n`,
      };
    if (context === "json")
      return {
        context,
        text: `${JSON.stringify({ type: "service_account", project_id: "demo-123", private_key: `${secret}\n`, client_email: "svc@demo-123.iam.example.com" }, null, 2)}\n`,
      };
    return {
      context,
      text: `2026-11-22T10:00:01Z WARN loaded key material:\n${secret}\n2026-11-22T10:00:01Z INFO tls ready\n`,
    };
  }
  if (kind === "url_password") {
    const context = r.pick(["env", "git", "log", "yaml"]);
    if (context === "git")
      return {
        context,
        text: `$ git remote -v\norigin\t${secret.replace(/^[a-z+]+:/, "https:")} (fetch)\norigin\t${secret.replace(/^[a-z+]+:/, "https:")} (push)\n`,
      };
    return { context, text: CONTEXTS[context]!("DATABASE_URL", secret, r) };
  }
  const context = r.pick(Object.keys(CONTEXTS));
  return { context, text: CONTEXTS[context]!(name, secret, r) };
}

export function secretCase(kind: string, r: Rng): SecretCase {
  const generated = GENERATORS[kind]!(r);
  const { context, text } = contextFor(kind, generated.name, generated.secret, r);
  return { kind, secrets: generated.secrets ?? [generated.secret], text, context };
}
