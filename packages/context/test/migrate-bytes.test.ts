import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Externalizer, migrateTranscript, rehydrateTranscript, readTranscript } from "../src/index.js";
import { tempDir } from "./helpers.js";

// Issue 17, finding 2: the migration changes only the payload it moves; every other byte stays.
const session = "sess-bytes";
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const big = "x".repeat(9_000);
const ext = () => new Externalizer({ store: new ArtifactStore({ driver: new MemoryDriver() }) });

describe("migration is byte-preserving (issue 17 #2)", () => {
  it("JSONL: untouched lines keep their bytes (invalid UTF-8, blank lines, mixed endings); migrated lines keep big ints, 1.0 and __proto__", async () => {
    const path = join(dir, "t.jsonl");
    const lines = [
      Buffer.from('{"role":"user","content":"hi \xff\xfe there"}\r\n', "latin1"), // invalid UTF-8 (bytes ff fe)
      Buffer.from("\n"), // blank line
      Buffer.from(
        `{"role":"tool","tool_name":"sh","seq":12345678901234567890,"score":1.0,"__proto__":{"a":1},"content":"${big}"}\r\n`,
      ),
      Buffer.from('{"role":"assistant",  "content" : "spaced",   "n": 1.50}\n'),
      Buffer.from(`{"role":"tool","tool_name":"sh","details":{"keep":true},"content":"${big}"}`), // no final newline
    ];
    const original = Buffer.concat(lines);
    await writeFile(path, original);
    const report = await migrateTranscript(path, { externalizer: ext(), session, backup: false });
    expect(report.migrated).toBe(2);
    const after = await readFile(path);
    const out = after.toString("latin1").split("\n");
    // Untouched lines: byte-identical.
    expect(Buffer.from(`${out[0]!}\n`, "latin1").equals(lines[0]!)).toBe(true);
    expect(out[1]).toBe("");
    expect(out[3]).toBe('{"role":"assistant",  "content" : "spaced",   "n": 1.50}');
    // Migrated lines: only the payload moved.
    expect(out[2]).toMatch(
      /^\{"role":"tool","tool_name":"sh","seq":12345678901234567890,"score":1\.0,"__proto__":\{"a":1\},"content":"","details":\{"artifactRef":/,
    );
    expect(out[2]!.endsWith("}\r")).toBe(true);
    expect(out[4]).toMatch(
      /^\{"role":"tool","tool_name":"sh","details":\{"keep":true,"artifactRef":.*\},"content":""\}$/,
    );
    expect(after.at(-1)).not.toBe(0x0a);
  });

  it("JSON: a {model, id, messages} file keeps every other field", async () => {
    const path = join(dir, "t.json");
    const doc = `{\n  "model": "gpt-x",\n  "id": 98765432109876543210,\n  "messages": [\n    {"role": "user", "content": "hi"},\n    {"role": "tool", "tool_name": "sh", "content": "${big}", "extra": 2.0}\n  ],\n  "usage": {"total": 1.0}\n}\n`;
    await writeFile(path, doc);
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const report = await migrateTranscript(path, { externalizer: new Externalizer({ store }), session, backup: false });
    expect(report.migrated).toBe(1);
    const after = await readFile(path, "utf8");
    expect(
      after.startsWith(
        '{\n  "model": "gpt-x",\n  "id": 98765432109876543210,\n  "messages": [\n    {"role": "user", "content": "hi"},\n',
      ),
    ).toBe(true);
    expect(after).toContain('"extra": 2.0');
    expect(after.endsWith('  ],\n  "usage": {"total": 1.0}\n}\n')).toBe(true);
    const back = await rehydrateTranscript(await readTranscript(path), { store });
    expect(JSON.stringify(back)).toContain(big);
  });
});
