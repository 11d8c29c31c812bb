import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_REDACTION_RULES, Redactor, redactSecrets } from "@artifact-refs/context";
import { describe, expect, it } from "vitest";
import { rng } from "@artifact-refs/tooling/testing/rng";
import { itWithData, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";
import { seedFromEnv } from "../src/seed.js";
import { scale } from "../src/scale.js";
import { SECRET_KINDS, secretCase } from "../src/secrets-corpus.js";
import { report } from "../src/summary.js";

/** ../shared/data/trajectories next to the checkout (read in place, never copied). */
const TRAJECTORIES = sharedDataPath("trajectories");

/** `abcd…yz (32 chars)`: enough to find a hit again, not enough to use it. */
const mask = (s: string) =>
  s.length <= 8 ? `${"*".repeat(s.length)}` : `${s.slice(0, 4)}…${s.slice(-2)} (${s.length} chars)`;

describe("secrets", () => {
  it("covers every built-in rule kind", () => {
    expect([...SECRET_KINDS].sort()).toEqual([...new Set(BUILTIN_REDACTION_RULES.map((r) => r.kind))].sort());
  });

  it("a corpus of fake-but-valid secrets of every kind in realistic outputs: 100% caught, under the right kind", () => {
    const seed = seedFromEnv();
    const r = rng(seed);
    const perKind = scale(25, 1_000);
    const missed: string[] = [];
    const caught: Record<string, number> = {};
    let total = 0;
    for (const kind of SECRET_KINDS) {
      for (let i = 0; i < perKind; i++) {
        const c = secretCase(kind, r);
        total++;
        const out = redactSecrets(c.text);
        const leaked = c.secrets.filter((s) => out.text.includes(s));
        if (leaked.length > 0 || !out.kinds.includes(kind)) {
          if (missed.length < 20)
            missed.push(
              `${kind} in ${c.context}: kinds ${JSON.stringify(out.kinds)}, leaked ${leaked.map(mask).join(", ")}\n${c.text.slice(0, 400)}`,
            );
          continue;
        }
        caught[kind] = (caught[kind] ?? 0) + 1;
      }
    }
    const caughtTotal = Object.values(caught).reduce((a, b) => a + b, 0);
    report(
      "secrets",
      `${caughtTotal}/${total} fake secrets caught (${SECRET_KINDS.length} kinds × ${perKind}, ${((100 * caughtTotal) / total).toFixed(1)}%, seed ${seed})`,
      { total, caught: caughtTotal, per_kind: perKind, kinds: SECRET_KINDS.length, seed },
    );
    expect(missed).toEqual([]);
    expect(caughtTotal).toBe(total);
  });

  itWithData("trajectories", "the real trajectories pass through unchanged: every hit is listed (masked)", () => {
    const files = readdirSync(TRAJECTORIES).sort();
    expect(files.length).toBeGreaterThan(10);
    const redactors = BUILTIN_REDACTION_RULES.map((rule) => ({
      kind: rule.kind,
      redactor: new Redactor({ builtins: false, rules: [rule] }),
    }));
    const hits: string[] = [];
    let messages = 0;
    let bytes = 0;
    for (const file of files) {
      const text = readFileSync(join(TRAJECTORIES, file), "utf8");
      bytes += Buffer.byteLength(text);
      // The raw file, and each message's content decoded from its JSON line.
      const pieces = file.endsWith(".jsonl")
        ? text
            .split("\n")
            .filter((l) => l.trim() !== "")
            .map((l, i) => ({
              where: `${file}:${i + 1}`,
              text: String((JSON.parse(l) as { content?: unknown }).content ?? ""),
            }))
        : [];
      for (const piece of [{ where: file, text }, ...pieces]) {
        messages++;
        const out = redactSecrets(piece.text);
        if (out.count === 0) {
          expect(out.text).toBe(piece.text);
          continue;
        }
        for (const { kind, redactor } of redactors) {
          const one = redactor.redact(piece.text);
          if (one.count === 0) continue;
          const at = one.text.indexOf(`[REDACTED:${kind}]`);
          hits.push(`${piece.where} ${kind} ×${one.count}: …${mask(piece.text.slice(Math.max(0, at - 20), at + 40))}…`);
        }
      }
    }
    report(
      "secrets(trajectories)",
      `${files.length} files (${(bytes / 1e6).toFixed(1)} MB, ${messages} files+messages) redacted: ${hits.length} hits`,
      { files: files.length, bytes, pieces: messages, hits },
    );
    expect(hits).toEqual([]);
  });
});
