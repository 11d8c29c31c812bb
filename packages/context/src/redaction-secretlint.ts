import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";

/**
 * The provider-token rules of secretlint's recommended preset (MIT, see the README),
 * run synchronously through the rule API every secretlint rule implements:
 * `create(context, options)` returns `{ file(source) }`, which calls `context.report`
 * with a message id, its data and a `[start, end)` range.
 */

export interface RuleHit {
  start: number;
  end: number;
  kind: string;
}

/** Message ids renamed to the kinds this package has always used (stable markers). */
const KIND_ALIASES: Record<string, string> = {
  AWSAccessKeyID: "aws_access_key",
  AWSSecretAccessKey: "aws_secret_key",
  PrivateKey: "private_key",
  PrivateKeyJSON: "gcp_service_account_key",
  PrivateKeyP12: "gcp_service_account_key",
  PackageJSON_xOauthToken: "github_oauth_url",
  GITLAB_PERSONAL_ACCESS_TOKEN: "gitlab_token",
  Npmrc_authToken: "npmrc_auth_token",
  NPM_ACCESS_TOKEN: "npm_token",
  IncomingWebhook: "slack_webhook",
  BasicAuth: "url_password",
  OPENAI_TOKEN: "openai_key",
  ANTHROPIC_API_KEY: "anthropic_key",
  MongoDBConnection: "url_password",
  MySQLConnection: "url_password",
  PostgreSQLConnection: "url_password",
};

/** Reports that are not secrets (an AWS account id is an identifier). */
const SKIPPED_MESSAGES = new Set(["AWSAccountID"]);
/** Rules that are not scanners (comment directives). */
const SKIPPED_RULES = new Set(["@secretlint/secretlint-rule-filter-comments"]);
/** Options per rule: the AWS access key id scan is off by default in secretlint. */
const RULE_OPTIONS: Record<string, object> = { "@secretlint/secretlint-rule-aws": { enableIDScanRule: true } };
/** Reports whose range is a whole URL: only the password part of the URL is the secret. */
const URL_CREDENTIALS = new Set(["BasicAuth", "MongoDBConnection", "MySQLConnection", "PostgreSQLConnection"]);
const URL_PASSWORD = /^[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]{0,256}:([^\s@/]{1,256})@/i;

const secretValue = (data: Record<string, unknown> | undefined): string | undefined => {
  for (const key of ["KEY", "TOKEN", "ID", "CREDENTIAL", "URI"]) {
    const value = data?.[key];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return undefined;
};

const kindOf = (id: string) => KIND_ALIASES[id] ?? id.toLowerCase().replace(/[^a-z0-9]+/g, "_");

interface Report {
  message: { id: string; data?: Record<string, unknown> };
  range: readonly [number, number];
}

type FileHandler = (source: { content: string; filePath: string; ext: string; contentType: "text" }) => unknown;

export interface SecretlintScanner {
  /** Rule ids, in order. */
  readonly ruleIds: readonly string[];
  /** Hits in `text` (offsets into `text`). */
  scan(text: string): RuleHit[];
}

export function createSecretlintScanner(): SecretlintScanner {
  let reports: Report[] = [];
  const handlers: { id: string; file: FileHandler }[] = [];
  for (const rule of presetRules as unknown as {
    meta: { id: string };
    create(context: unknown, options: unknown): { file?: FileHandler };
  }[]) {
    if (SKIPPED_RULES.has(rule.meta.id)) continue;
    const context = {
      report: (descriptor: Report) => reports.push(descriptor),
      ignore: () => {},
      createTranslator: () => (id: string, data?: Record<string, unknown>) => ({ id, data }),
      sharedOptions: {},
      locale: "en",
    };
    const handler = rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {});
    if (handler.file) handlers.push({ id: rule.meta.id, file: handler.file.bind(handler) });
  }
  return {
    ruleIds: handlers.map((h) => h.id),
    scan(text) {
      reports = [];
      for (const { file } of handlers) {
        const done = file({ content: text, filePath: "content.txt", ext: ".txt", contentType: "text" });
        if (done && typeof (done as Promise<unknown>).then === "function") {
          throw new Error("a secretlint rule answered asynchronously; the redactor runs rules synchronously");
        }
      }
      const hits: RuleHit[] = [];
      for (const { message, range } of reports) {
        if (SKIPPED_MESSAGES.has(message.id)) continue;
        let [start, end] = range;
        if (URL_CREDENTIALS.has(message.id)) {
          const password = URL_PASSWORD.exec(text.slice(start, end));
          if (!password) continue; // a connection string without a password holds no secret
          end = start + password[0].length - 1;
          start = end - password[1]!.length;
        } else {
          // Some rules report the start of the whole assignment with the secret's length
          // (AWS secret keys): find the reported secret itself near that range.
          const value = secretValue(message.data);
          if (value !== undefined && text.slice(start, end) !== value) {
            const at = text.indexOf(value, start);
            if (at < 0 || at > end + 512) continue;
            start = at;
            end = at + value.length;
          }
        }
        hits.push({ start, end, kind: kindOf(message.id) });
      }
      return hits;
    },
  };
}
