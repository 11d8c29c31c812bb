import { checkSync } from "recheck";
import { describe, expect, it } from "vitest";
import { BUILTIN_REDACTION_RULES, Redactor } from "../src/index.js";

/**
 * The checker's fuzzer calls some bounded patterns polynomial (it cannot see that a bound of
 * 64 or 256 caps the backtracking per start position); which ones varies with its seed. No
 * rule may be exponential or unknown; every polynomial verdict's attack string is pumped to
 * 1 MB below and must stay within the same work bound as every other input.
 */
const MB = 1024 * 1024;

const attacks: { kind: string; text: string }[] = [];

describe("redaction work is linear in the text", () => {
  it("no built-in rule is exponential or unknown for the ReDoS checker; polynomial ones give attack strings", () => {
    const unsafe: string[] = [];
    for (const rule of BUILTIN_REDACTION_RULES) {
      // No overall time limit: under load the checker's default 10 s ran out and a rule read "unknown"
      // (seen once, 79 s for every rule at load 7-14); the verdict must not depend on the machine's load.
      const result = checkSync(String(rule.pattern), rule.flags ?? "", { randomSeed: 17, timeout: null });
      if (result.status === "safe") continue;
      if (result.status === "vulnerable" && result.complexity.type === "polynomial") {
        // Pump the checker's attack string to ~1 MB: each pump repeated in its share.
        const { pumps, suffix } = result.attack;
        const share = MB / pumps.length;
        const text =
          pumps.map((p) => p.prefix + p.pump.repeat(Math.ceil(share / Math.max(1, p.pump.length)))).join("") + suffix;
        attacks.push({ kind: rule.kind, text });
        continue;
      }
      unsafe.push(
        `${rule.kind}: ${result.status} ${JSON.stringify(result.status === "vulnerable" ? result.complexity : "")}`,
      );
    }
    expect(unsafe).toEqual([]);
  }, 600_000);

  it("adversarial inputs of 1 MB: characters handed to the regex engines ≤ 1.5 × length per rule pass", () => {
    const redactor = new Redactor();
    const inputs = [
      { kind: "dots", text: "a.".repeat(MB / 2) },
      { kind: "dashes", text: "ab-".repeat(MB / 3) },
      { kind: "password run", text: `password=${"a1".repeat(MB / 2)}` },
      { kind: "names", text: "secret_token_".repeat(MB / 13) },
      { kind: "assignments", text: "a=a:".repeat(MB / 4) },
      { kind: "sk run", text: `sk-${"a".repeat(MB)}` },
      { kind: "jwt starts", text: "eyJ-".repeat(MB / 4) },
      { kind: "pem no end", text: `-----BEGIN PRIVATE KEY-----${"A".repeat(MB)}` },
      { kind: "url starts", text: "http://a:b".repeat(MB / 10) },
      { kind: "bearer", text: "Bearer Bearer ".repeat(MB / 14) },
      { kind: "mysql words", text: `mysql ${"-u ".repeat(MB / 3)}` },
      { kind: "slack dashes", text: `xoxb-${"a-".repeat(MB / 2)}` },
      { kind: "sendgrid", text: `SG.a.${"_".repeat(MB)}` },
      ...attacks,
    ];
    const rulePasses = BUILTIN_REDACTION_RULES.length + 40; // own rules + the preset's scanners (fewer than 40)
    for (const { kind, text } of inputs) {
      const out = redactor.redact(text);
      expect(out.text.length, kind).toBeGreaterThan(0);
      expect(redactor.lastWork.scanned, kind).toBeLessThanOrEqual(1.5 * text.length * rulePasses);
    }
    expect(attacks.length).toBeGreaterThan(0);
  }, 600_000);

  it("the keyword prefilter skips rules whose keywords are absent", () => {
    const redactor = new Redactor();
    redactor.redact("plain prose without any of the words the context rules look for ".repeat(100));
    expect(redactor.lastWork.prefiltered).toBeGreaterThan(5);
  });

  it("a secret that straddles a window boundary is found whole", () => {
    const redactor = new Redactor();
    const token = `ghp_${"aB3".repeat(12)}`;
    for (const at of [64 * 1024 - 10, 64 * 1024, 128 * 1024 - 3]) {
      const text = `${"x ".repeat(at / 2)}${token} ${"y ".repeat(100_000)}`;
      const out = redactor.redact(text);
      expect(out.text, String(at)).not.toContain(token.slice(4, 20));
      expect(out.count, String(at)).toBe(1);
    }
  });
});
