import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { hasErrorCode } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { Redactor, redactSecrets } from "../src/index.js";
import { itWithData } from "@artifact-refs/tooling/testing/shared-data";
import { TRAJECTORY_DIR } from "./helpers.js";

// Fake secrets are assembled at run time so that no scanner mistakes this file for a leak.
const rep = (s: string, n: number) => s.repeat(n);
const FAKE = {
  aws: `AKIA${rep("QX7Z", 4)}`,
  awsSecret: `aws_secret_access_key = ${rep("wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEYab", 1)}`,
  github: `ghp_${rep("a1B2c3D4e5", 3)}abcdef`,
  githubPat: `github_pat_${rep("11ABCDEFG0", 3)}_xyz`,
  gitlab: `glpat-${rep("x9Y8z7W6v5", 2)}`,
  openai: `sk-proj-${rep("Ab3dEf6hIj", 4)}`,
  anthropic: `sk-ant-api03-${rep("Zz9_Yy8-Xx", 4)}`,
  slack: `xoxb-${rep("1234567890", 2)}-AbCdEfGhIjKl`,
  pem: `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${rep("q", 60)}\n${rep("Z", 64)}\n-----END RSA PRIVATE KEY-----`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${rep("dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", 1)}`,
};

describe("Redactor", () => {
  it.each([
    ["aws_access_key", `key id ${FAKE.aws} in config`],
    ["aws_secret_key", FAKE.awsSecret],
    ["github_token", `token: ${FAKE.github}`],
    ["github_token", `GH=${FAKE.githubPat}`],
    ["gitlab_token", `export GL=${FAKE.gitlab}`],
    ["openai_key", `OPENAI ${FAKE.openai}`],
    ["anthropic_key", `key ${FAKE.anthropic}`],
    ["slack_token", `slack ${FAKE.slack}`],
    ["private_key", `here:\n${FAKE.pem}\nafter`],
    ["jwt", `Authorization: Bearer ${FAKE.jwt}`],
    ["url_password", "postgres://admin:hunter2hunter2@db.internal:5432/app"],
    ["secret_assignment", 'DB_PASSWORD="s3cr3t-Value-99"'],
    ["secret_assignment", "API_TOKEN=abc123def456ghi789"],
  ])("redacts %s", (kind, text) => {
    const result = redactSecrets(text);
    expect(result.kinds).toContain(kind);
    expect(result.text).toContain(`[REDACTED:${kind}]`);
    expect(result.count).toBeGreaterThan(0);
  });

  // Issue 17 #6: each of these reached the disk before the rule set came from a maintained source.
  it.each([
    [
      "Stripe live key",
      `STRIPE_KEY=sk_live_${rep("4eC39HqLyjWDarjtT1zdp7dc", 1)}`,
      `sk_live_${rep("4eC39HqLyjWDarjtT1zdp7dc", 1)}`,
    ],
    [
      "Google API key",
      `const key = "AIza${rep("SyA1b2C3d4E5f6G7h8", 1)}${rep("I9j0K1l2M3n4o5P6q", 1)}";`,
      `SyA1b2C3d4E5f6G7h8`,
    ],
    [
      "Bearer header",
      `curl -H "Authorization: Bearer ${rep("q8Zr2LmN4vX7", 3)}" https://api.example.net`,
      rep("q8Zr2LmN4vX7", 3),
    ],
    [
      "Basic header",
      `Authorization: Basic ${Buffer.from("deploy:hunter").toString("base64")}`,
      Buffer.from("deploy:hunter").toString("base64"),
    ],
    ["PASSWORD= letters only", "PASSWORD=hunter\nUSER=dev", "hunter"],
    ["mysql -p flag", "$ mysql -u root -pTr0ub4dor db", "Tr0ub4dor"],
    ["--password value", "$ pg_dump --password sesame main", "sesame"],
    ["--password=value", "./admin --password=opensesame", "opensesame"],
  ])("redacts %s", (_name, text, secret) => {
    const result = redactSecrets(text);
    expect(result.count).toBeGreaterThan(0);
    expect(result.text).not.toContain(secret);
  });

  it("keeps code that names a password but holds none", () => {
    for (const text of [
      "self.password = password",
      "def login(password: str) -> bool:",
      "password = getpass()",
      "--password-stdin",
      "Basic Authentication and Bearer tokens",
      "mkdir -p build && gcc -pthread x.c",
    ]) {
      expect(redactSecrets(text).text, text).toBe(text);
    }
  });

  it("keeps the text around a secret", () => {
    const text = `url = https://bob:pa55w0rd@example.com/x and more`;
    expect(redactSecrets(text).text).toBe("url = https://bob:[REDACTED:url_password]@example.com/x and more");
    expect(redactSecrets(`password = "correct-horse-battery"`).text).toBe(`password = "[REDACTED:secret_assignment]"`);
  });

  it("removes the whole private key block, key material included", () => {
    const result = redactSecrets(`a\n${FAKE.pem}\nb`);
    expect(result.text).toBe("a\n[REDACTED:private_key]\nb");
    expect(result.text).not.toContain("MIIE");
  });

  it("leaves clean text byte-identical (the same string)", () => {
    const clean = "def login(self, password):\n    token = get_token(self.user)\n    return check(password)\n";
    const result = redactSecrets(clean);
    expect(result.text).toBe(clean);
    expect(result.count).toBe(0);
    expect(result.kinds).toEqual([]);
  });

  it("does not redact placeholders or already-redacted values", () => {
    for (const text of [
      'password="password"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the input under test
      "token: ${GITHUB_TOKEN}",
      'secret = "<your secret here>"',
      "api_key=[REDACTED:openai_key]",
    ]) {
      expect(redactSecrets(text).count, text).toBe(0);
    }
    const once = redactSecrets(`k ${FAKE.github}`).text;
    expect(redactSecrets(once).text).toBe(once);
  });

  it("takes user rules, and can switch built-ins off", () => {
    const redactor = new Redactor({ rules: [{ kind: "employee_id", pattern: "EMP-\\d{6}" }], disable: ["jwt"] });
    const result = redactor.redact(`EMP-123456 used ${FAKE.jwt}`);
    expect(result.kinds).toEqual(["employee_id"]);
    expect(result.text).toBe(`[REDACTED:employee_id] used ${FAKE.jwt}`);
    const grouped = new Redactor({
      builtins: false,
      rules: [{ kind: "pin", pattern: /(?<pre>PIN )(?<secret>\d{4})/ }],
    });
    expect(grouped.redact("PIN 1234").text).toBe("PIN [REDACTED:pin]");
  });

  it("rejects a rule with an invalid regex, naming the rule", () => {
    let error: unknown;
    try {
      new Redactor({ rules: [{ kind: "broken", pattern: "(unclosed" }] });
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toMatch(/"broken".*invalid regular expression/);
  });

  it("rejects a rule that matches the empty string and a malformed kind", () => {
    expect(() => new Redactor({ rules: [{ kind: "empty", pattern: "x*" }] })).toThrow(/matches the empty string/);
    expect(() => new Redactor({ rules: [{ kind: "Bad Kind", pattern: "x" }] })).toThrow(
      /user redaction rule #1 is invalid: kind/,
    );
  });

  it("scans pathological inputs in linear time (no catastrophic backtracking)", () => {
    // Before the rules were bounded, each of these took minutes to hours (quadratic scans).
    const inputs = [
      "a.".repeat(150_000),
      "ab-".repeat(100_000),
      `password=${"a1".repeat(150_000)}`,
      `sk-${"a".repeat(300_000)}`,
      "eyJ-".repeat(75_000),
      `-----BEGIN PRIVATE KEY-----${"A".repeat(300_000)}`.slice(0, 300_000),
      "http://a:b".repeat(30_000),
    ];
    for (const text of inputs) {
      const result = redactSecrets(text);
      expect(result.text.length).toBeGreaterThan(0);
    }
  });

  itWithData(
    "trajectories",
    "leaves every real trajectory message unchanged (no false positives on real agent transcripts)",
    () => {
      const files = readdirSync(TRAJECTORY_DIR).filter((f) => f.endsWith(".jsonl"));
      expect(files.length).toBeGreaterThanOrEqual(17);
      const hits: string[] = [];
      let messages = 0;
      for (const file of files) {
        const lines = readFileSync(join(TRAJECTORY_DIR, file), "utf8").split("\n").filter(Boolean);
        lines.forEach((line, i) => {
          const { content } = JSON.parse(line) as { content: string };
          messages++;
          const result = redactSecrets(content);
          if (result.text !== content) hits.push(`${file}:${i + 1} ${result.kinds.join(",")}`);
        });
      }
      expect(messages).toBeGreaterThan(1800);
      expect(hits).toEqual([]);
    },
  );
});
