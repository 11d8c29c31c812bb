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

/**
 * One generated secret: `secret` (and `secrets`: the parts that must not survive), `name`
 * (the variable it is assigned to in the surrounding text), or a whole `text` of its own
 * for kinds whose context is the format (headers, command lines, PEM files, URLs).
 */
type Gen = (r: Rng) => { secret: string; secrets?: string[]; name: string; text?: string };

const HEX = "0123456789abcdef";
const B64 = `${ALNUM}+/`;
const URLSAFE = `${ALNUM}_-`;
const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
const hex = (r: Rng, n: number) => chars(r, HEX, n);
const digits = (r: Rng, n: number) => `${1 + r.int(9)}${chars(r, DIGITS, n - 1)}`;
/** A password a person picks: letters only (the issue's case), or letters, digits and a sign. */
const password = (r: Rng) =>
  r.int(2) === 0
    ? chars(r, LOWER, 6 + r.int(6)) + chars(r, UPPER, r.int(2))
    : `${chars(r, LOWER, 5 + r.int(5))}${digits(r, 2 + r.int(3))}${r.pick(["!", "#", "%", "*", "_"])}`;
const pem = (r: Rng, type: string) => {
  const lines = Array.from({ length: 4 + r.int(12) }, () => mixed(r, B64, 64));
  return {
    secret: `-----BEGIN ${type}PRIVATE KEY-----\n${lines.join("\n")}\n${mixed(r, B64, 20)}==\n-----END ${type}PRIVATE KEY-----`,
    secrets: lines,
  };
};
const jwtOf = (r: Rng) => {
  const header = b64url(JSON.stringify({ alg: r.pick(["HS256", "RS256"]), typ: "JWT" }));
  const payload = b64url(
    JSON.stringify({ sub: chars(r, DIGITS, 10), name: `user ${chars(r, LOWER, 6)}`, iat: 1_700_000_000 + r.int(1e7) }),
  );
  return `${header}.${payload}.${mixed(r, URLSAFE, 43)}`;
};
const named = (name: string, secret: string) => ({ secret, name });

/**
 * Fake secrets of 80+ formats: provider tokens by their documented shape (prefix, alphabet,
 * length), and secrets found by their context (headers, assignments, command-line flags).
 */
export const GENERATORS: Record<string, Gen> = {
  aws_access_key: (r) =>
    named("AWS_ACCESS_KEY_ID", r.pick(["AKIA", "ASIA", "AROA", "AIDA"]) + chars(r, UPPER + DIGITS, 16)),
  aws_secret_key: (r) => named("aws_secret_access_key", mixed(r, `${ALNUM}/+`, 40)),
  github_pat_classic: (r) => named("GH_TOKEN", `ghp_${mixed(r, ALNUM, 36)}`),
  github_oauth: (r) => named("GITHUB_OAUTH", `gho_${mixed(r, ALNUM, 36)}`),
  github_user_to_server: (r) => named("GH_USER_TOKEN", `ghu_${mixed(r, ALNUM, 36)}`),
  github_app_token: (r) => named("GH_APP_TOKEN", `ghs_${mixed(r, ALNUM, 36)}`),
  github_refresh: (r) => named("GH_REFRESH", `ghr_${mixed(r, ALNUM, 36)}`),
  github_fine_grained: (r) => named("GITHUB_TOKEN", `github_pat_${mixed(r, ALNUM, 22)}_${mixed(r, ALNUM, 59)}`),
  gitlab_pat: (r) => named("GITLAB_TOKEN", `glpat-${mixed(r, URLSAFE, 20)}`),
  gitlab_runner: (r) => named("CI_RUNNER_TOKEN", `glrt-${mixed(r, URLSAFE, 20)}`),
  gitlab_deploy: (r) => named("DEPLOY_TOKEN", `gldt-${mixed(r, URLSAFE, 20)}`),
  slack_bot: (r) => named("SLACK_BOT_TOKEN", `xoxb-${digits(r, 12)}-${digits(r, 13)}-${mixed(r, ALNUM, 24)}`),
  slack_user: (r) => named("SLACK_USER_TOKEN", `xoxp-${digits(r, 12)}-${digits(r, 12)}-${digits(r, 13)}-${hex(r, 32)}`),
  slack_app: (r) => named("SLACK_APP_TOKEN", `xapp-1-A${chars(r, UPPER + DIGITS, 10)}-${digits(r, 13)}-${hex(r, 64)}`),
  slack_webhook: (r) =>
    named(
      "SLACK_WEBHOOK_URL",
      `https://hooks.slack.com/services/T${chars(r, UPPER + DIGITS, 8)}/B${chars(r, UPPER + DIGITS, 10)}/${mixed(r, ALNUM, 24)}`,
    ),
  stripe_live: (r) => named("STRIPE_SECRET_KEY", `sk_live_${mixed(r, ALNUM, 24 + r.int(75))}`),
  stripe_test: (r) => named("STRIPE_KEY", `sk_test_${mixed(r, ALNUM, 24 + r.int(75))}`),
  stripe_restricted: (r) => named("STRIPE_RESTRICTED", `rk_live_${mixed(r, ALNUM, 24 + r.int(75))}`),
  stripe_webhook_secret: (r) => named("STRIPE_WEBHOOK_SECRET", `whsec_${mixed(r, ALNUM, 32)}`),
  google_api_key: (r) => named("GOOGLE_API_KEY", `AIza${mixed(r, URLSAFE, 35)}`),
  google_oauth_secret: (r) => named("GOOGLE_CLIENT_SECRET", `GOCSPX-${mixed(r, URLSAFE, 28)}`),
  google_oauth_token: (r) => named("GOOGLE_ACCESS_TOKEN", `ya29.${mixed(r, URLSAFE, 120)}`),
  openai_project_key: (r) =>
    named("OPENAI_API_KEY", `sk-proj-${mixed(r, URLSAFE, 58)}T3BlbkFJ${mixed(r, URLSAFE, 58)}`),
  openai_legacy_key: (r) => named("OPENAI_API_KEY", `sk-${mixed(r, ALNUM, 48)}`),
  anthropic_key: (r) => named("ANTHROPIC_API_KEY", `sk-ant-api03-${mixed(r, URLSAFE, 93)}AA`),
  groq_key: (r) => named("GROQ_API_KEY", `gsk_${mixed(r, ALNUM, 52)}`),
  huggingface_token: (r) => named("HF_TOKEN", `hf_${mixed(r, UPPER + LOWER, 34).replace(/[0-9]/g, "q")}`),
  npm_token: (r) => named("NPM_TOKEN", `npm_${mixed(r, ALNUM, 36)}`),
  npmrc_auth_token: (r) => {
    const token = mixed(r, ALNUM, 36);
    return {
      secret: token,
      name: "npmrc",
      text: `$ cat ~/.npmrc\nregistry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${token}\n`,
    };
  },
  sendgrid_key: (r) => named("SENDGRID_API_KEY", `SG.${mixed(r, URLSAFE, 22)}.${mixed(r, URLSAFE, 43)}`),
  shopify_token: (r) => named("SHOPIFY_TOKEN", `${r.pick(["shpat", "shpca", "shppa", "shpss"])}_${hex(r, 32)}`),
  twilio_api_key: (r) => named("TWILIO_API_KEY", `SK${hex(r, 32)}`),
  mailgun_key: (r) => named("MAILGUN_API_KEY", `key-${chars(r, LOWER + DIGITS, 32)}`),
  mailchimp_key: (r) => named("MAILCHIMP_KEY", `${hex(r, 32)}-us${1 + r.int(20)}`),
  digitalocean_token: (r) => named("DIGITALOCEAN_TOKEN", `${r.pick(["dop", "doo", "dor"])}_v1_${hex(r, 64)}`),
  telegram_bot_token: (r) => named("TELEGRAM_BOT_TOKEN", `${digits(r, 10)}:AA${mixed(r, URLSAFE, 33)}`),
  pypi_token: (r) => named("PYPI_TOKEN", `pypi-AgEIcHlwaS5vcmc${mixed(r, URLSAFE, 70)}`),
  rubygems_key: (r) => named("GEM_HOST_API_KEY", `rubygems_${hex(r, 48)}`),
  postman_key: (r) => named("POSTMAN_API_KEY", `PMAK-${hex(r, 24)}-${hex(r, 34)}`),
  doppler_token: (r) => named("DOPPLER_TOKEN", `dp.pt.${mixed(r, ALNUM, 43)}`),
  pulumi_token: (r) => named("PULUMI_ACCESS_TOKEN", `pul-${hex(r, 40)}`),
  age_secret_key: (r) => named("SOPS_AGE_KEY", `AGE-SECRET-KEY-1${chars(r, BECH32, 58)}`),
  sentry_token: (r) => named("SENTRY_AUTH_TOKEN", `sntryu_${hex(r, 64)}`),
  square_token: (r) => named("SQUARE_ACCESS_TOKEN", `sq0atp-${mixed(r, URLSAFE, 22)}`),
  alibaba_access_key: (r) => named("ALIBABA_ACCESS_KEY_ID", `LTAI${mixed(r, ALNUM, 20)}`),
  planetscale_token: (r) => named("PLANETSCALE_TOKEN", `pscale_tkn_${mixed(r, URLSAFE, 43)}`),
  newrelic_key: (r) => named("NEW_RELIC_API_KEY", `NRAK-${chars(r, UPPER + DIGITS, 27)}`),
  flyio_token: (r) => named("FLY_API_TOKEN", `fo1_${mixed(r, URLSAFE, 43)}`),
  xai_key: (r) => named("XAI_API_KEY", `xai-${mixed(r, ALNUM, 80)}`),
  linear_key: (r) => named("LINEAR_API_KEY", `lin_api_${mixed(r, ALNUM, 40)}`),
  notion_token: (r) => named("NOTION_TOKEN", `ntn_${chars(r, DIGITS, 11)}${mixed(r, ALNUM, 35)}`),
  vault_token: (r) => named("VAULT_TOKEN", `hvs.${mixed(r, URLSAFE, 95)}`),
  vercel_token: (r) => named("VERCEL_TOKEN", `vcp_${mixed(r, ALNUM, 24)}`),
  databricks_token: (r) => named("DATABRICKS_TOKEN", `dapi${hex(r, 32)}`),
  docker_pat: (r) => named("DOCKER_TOKEN", `dckr_pat_${mixed(r, URLSAFE, 27)}`),
  figma_token: (r) => named("FIGMA_TOKEN", `figd_${mixed(r, URLSAFE, 40)}`),
  grafana_service_account: (r) => named("GRAFANA_TOKEN", `glsa_${mixed(r, ALNUM, 32)}_${hex(r, 8)}`),
  tailscale_key: (r) => named("TS_AUTHKEY", `tskey-auth-k${mixed(r, ALNUM, 10)}-${mixed(r, ALNUM, 30)}`),
  cloudflare_token: (r) => named("CLOUDFLARE_API_TOKEN", `cfut_${mixed(r, ALNUM, 40)}${hex(r, 8)}`),
  airtable_token: (r) => named("AIRTABLE_TOKEN", `pat${mixed(r, ALNUM, 14)}.${hex(r, 64)}`),
  buildkite_token: (r) => named("BUILDKITE_TOKEN", `bkua_${hex(r, 40)}`),
  render_key: (r) => named("RENDER_API_KEY", `rnd_${mixed(r, ALNUM, 32)}`),
  replicate_token: (r) => named("REPLICATE_API_TOKEN", `r8_${mixed(r, ALNUM, 37)}`),
  perplexity_key: (r) => named("PPLX_API_KEY", `pplx-${mixed(r, ALNUM, 48)}`),
  supabase_token: (r) => named("SUPABASE_ACCESS_TOKEN", `sbp_${hex(r, 40)}`),
  mapbox_token: (r) => named("MAPBOX_SECRET", `sk.eyJ${mixed(r, URLSAFE, 60)}.${mixed(r, URLSAFE, 22)}`),
  discord_webhook: (r) =>
    named("DISCORD_WEBHOOK", `https://discord.com/api/webhooks/${digits(r, 18)}/${mixed(r, URLSAFE, 68)}`),
  heroku_key: (r) => named("HEROKU_API_KEY", `HRKU-${mixed(r, URLSAFE, 60)}`),
  terraform_token: (r) => named("TFE_TOKEN", `${chars(r, LOWER + DIGITS, 14)}.atlasv1.${mixed(r, URLSAFE, 67)}`),
  azure_storage_key: (r) => {
    const key = `${mixed(r, B64, 86)}==`;
    return {
      secret: key,
      name: "AZURE_STORAGE_CONNECTION_STRING",
      text: `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=app${chars(r, LOWER, 6)};AccountKey=${key};EndpointSuffix=core.windows.net"\n`,
    };
  },
  private_key_rsa: (r) => ({ ...pem(r, "RSA "), name: "key" }),
  private_key_openssh: (r) => ({ ...pem(r, "OPENSSH "), name: "key" }),
  private_key_pkcs8: (r) => ({ ...pem(r, r.pick(["", "EC ", "ENCRYPTED ", "DSA "])), name: "key" }),
  gcp_service_account: (r) => {
    const key = pem(r, "");
    return {
      ...key,
      name: "key",
      text: `${JSON.stringify({ type: "service_account", project_id: `demo-${digits(r, 6)}`, private_key_id: hex(r, 40), private_key: `${key.secret}\n`, client_email: "svc@demo.iam.example.com" }, null, 2)}\n`,
    };
  },
  jwt: (r) => named("SESSION_JWT", jwtOf(r)),
  url_password: (r) => {
    const pw = mixed(r, `${ALNUM}!*_-`, 10 + r.int(14));
    const url = `${r.pick(["postgres", "mysql", "redis", "amqp", "https", "mongodb+srv"])}://${r.pick(["app", "admin", "deploy"])}:${pw}@${r.pick(["db.internal", "10.0.3.7:5432", "cache.example.net"])}/${r.pick(["main", "0", "app"])}`;
    return { secret: url, secrets: [pw], name: "DATABASE_URL" };
  },
  auth_header_bearer: (r) => {
    const token = r.int(2) === 0 ? jwtOf(r) : mixed(r, URLSAFE, 32 + r.int(32));
    return {
      secret: token,
      name: "auth",
      text: r.pick([
        `$ curl -s -H "Authorization: Bearer ${token}" https://api.example.net/v1/items\n{"items":[]}\n`,
        `> GET /v1/me HTTP/1.1\n> Host: api.example.net\n> Authorization: Bearer ${token}\n> Accept: */*\n`,
        `headers = {"Authorization": "Bearer ${token}", "Accept": "application/json"}\n`,
      ]),
    };
  },
  auth_header_basic: (r) => {
    const credential = Buffer.from(`${chars(r, LOWER, 6)}:${password(r)}`).toString("base64");
    return {
      secret: credential,
      name: "auth",
      text: r.pick([
        `> POST /upload HTTP/1.1\n> Authorization: Basic ${credential}\n> Content-Length: 12\n`,
        `$ curl -H 'Authorization: Basic ${credential}' https://ci.example.net/api/json\n`,
      ]),
    };
  },
  auth_header_token: (r) => {
    const token = hex(r, 40);
    return {
      secret: token,
      name: "auth",
      text: `requests.get(url, headers={"authorization": "token ${token}"})\n`,
    };
  },
  password_env_letters: (r) => {
    const pw = chars(r, LOWER, 6 + r.int(6));
    return {
      secret: pw,
      name: "PASSWORD",
      text: `$ env | grep -i pass\nPASSWORD=${pw}\nPGPASSFILE=/home/dev/.pgpass\n`,
    };
  },
  password_assignment: (r) =>
    named(r.pick(["DB_PASSWORD", "password", "MYSQL_ROOT_PASSWORD", "passphrase"]), password(r)),
  cli_password_long: (r) => {
    const pw = password(r);
    return {
      secret: pw,
      name: "cli",
      text: r.pick([
        `$ pg_dump --host db.internal --username app --password ${pw} main > dump.sql\n`,
        `$ ./admin create-user --name ops --password=${pw}\ncreated user ops\n`,
        `$ docker login registry.example.net --username ci --password '${pw}'\nLogin Succeeded\n`,
      ]),
    };
  },
  cli_password_mysql: (r) => {
    const pw = password(r);
    return {
      secret: pw,
      name: "cli",
      text: `$ mysql -u root -h 127.0.0.1 -p${pw} -e 'show databases'\n+--------------------+\n| Database           |\n`,
    };
  },
  cli_password_sshpass: (r) => {
    const pw = password(r);
    return { secret: pw, name: "cli", text: `$ sshpass -p ${pw} ssh deploy@10.0.0.${r.int(255)} uptime\n` };
  },
  cli_password_redis: (r) => {
    const pw = password(r);
    return { secret: pw, name: "cli", text: `$ redis-cli -h cache.internal -a ${pw} ping\nPONG\n` };
  },
  generic_api_key: (r) =>
    named(
      r.pick(["API_KEY", "client_secret", "auth_token", "SECRET", "access_key"]),
      mixed(r, `${ALNUM}_`, 24 + r.int(20)),
    ),
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
  if (kind.startsWith("private_key")) {
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
  const { context, text } =
    generated.text !== undefined
      ? { context: "own", text: generated.text }
      : contextFor(kind, generated.name, generated.secret, r);
  return { kind, secrets: generated.secrets ?? [generated.secret], text, context };
}
