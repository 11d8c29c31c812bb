import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { redactSecrets } from "@artifact-refs/context";
import { describe, expect, it } from "vitest";
import { rng } from "@artifact-refs/tooling/testing/rng";
import { itWithData, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";
import { seedFromEnv } from "../src/seed.js";
import { scale } from "../src/scale.js";
import { SECRET_KINDS, secretCase } from "../src/secrets-corpus.js";
import { report } from "../src/summary.js";

/** ../shared/data/trajectories{,-more} next to the checkout (read in place, never copied). */
const TRAJECTORY_SETS = ["trajectories", "trajectories-more"] as const;

/** `abcd…yz (32 chars)`: enough to find a hit again, not enough to use it. */
const mask = (s: string) =>
  s.length <= 8 ? `${"*".repeat(s.length)}` : `${s.slice(0, 4)}…${s.slice(-2)} (${s.length} chars)`;

describe("secrets", () => {
  it("the corpus spans at least 50 secret formats", () => {
    expect(SECRET_KINDS.length).toBeGreaterThanOrEqual(50);
  });

  it("a corpus of fake-but-valid secrets of 80+ formats in realistic outputs: recall per format, every one caught", () => {
    const seed = seedFromEnv();
    const r = rng(seed);
    const perKind = scale(20, 400);
    const missed: string[] = [];
    const recall: Record<string, number> = {};
    let total = 0;
    let caughtTotal = 0;
    for (const kind of SECRET_KINDS) {
      let caught = 0;
      for (let i = 0; i < perKind; i++) {
        const c = secretCase(kind, r);
        total++;
        const out = redactSecrets(c.text);
        const leaked = c.secrets.filter((s) => out.text.includes(s));
        if (leaked.length > 0) {
          if (missed.length < 20)
            missed.push(
              `${kind} in ${c.context}: kinds ${JSON.stringify(out.kinds)}, leaked ${leaked.map(mask).join(", ")}\n${c.text.slice(0, 400)}`,
            );
          continue;
        }
        caught++;
      }
      recall[kind] = caught / perKind;
      caughtTotal += caught;
    }
    const worst = Object.entries(recall).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))[0]!;
    report(
      "secrets",
      `${caughtTotal}/${total} fake secrets caught (${SECRET_KINDS.length} formats × ${perKind}, ${((100 * caughtTotal) / total).toFixed(1)}%, worst ${worst[0]} ${(100 * worst[1]).toFixed(0)}%, seed ${seed})`,
      { total, caught: caughtTotal, per_kind: perKind, kinds: SECRET_KINDS.length, seed, recall, worst },
    );
    expect(missed).toEqual([]);
    expect(caughtTotal).toBe(total);
  });

  for (const set of TRAJECTORY_SETS)
    itWithData(
      set,
      `${set}: every file and message passes through unchanged (0 changed bytes); hits listed masked`,
      () => {
        const dir = sharedDataPath(set);
        const files = readdirSync(dir).sort();
        expect(files.length).toBeGreaterThan(10);
        const hits: string[] = [];
        let pieces = 0;
        let bytes = 0;
        let changedBytes = 0;
        for (const file of files) {
          const text = readFileSync(join(dir, file), "utf8");
          bytes += Buffer.byteLength(text);
          // The raw file, and each message's content decoded from its JSON line.
          const messages = file.endsWith(".jsonl")
            ? text
                .split("\n")
                .filter((l) => l.trim() !== "")
                .map((l, i) => {
                  const content = (JSON.parse(l) as { content?: unknown }).content ?? "";
                  return {
                    where: `${file}:${i + 1}`,
                    text: typeof content === "string" ? content : JSON.stringify(content),
                  };
                })
            : [];
          for (const piece of [{ where: file, text }, ...messages]) {
            pieces++;
            const out = redactSecrets(piece.text);
            if (out.count === 0) {
              expect(out.text).toBe(piece.text);
              continue;
            }
            changedBytes += Math.abs(Buffer.byteLength(piece.text) - Buffer.byteLength(out.text)) || 1;
            const at = out.text.indexOf("[REDACTED:");
            hits.push(
              `${piece.where} ${out.kinds.join(",")} ×${out.count}: …${mask(out.text.slice(Math.max(0, at - 20), at + 40))}…`,
            );
          }
        }
        report(
          `secrets(${set})`,
          `${files.length} files (${(bytes / 1e6).toFixed(1)} MB, ${pieces} files+messages) redacted: ${hits.length} hits, ${changedBytes} changed bytes`,
          { files: files.length, bytes, pieces, hits, changed_bytes: changedBytes },
        );
        expect(hits).toEqual([]);
        expect(changedBytes).toBe(0);
      },
    );
});
