import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hasErrorCode } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Externalizer, migrateTranscript } from "../src/index.js";
import { tempDir } from "./helpers.js";

// Issue 17, finding 1: a line appended while the file is being replaced is never lost.
const session = "sess-race";
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const legacy = () =>
  `${[
    { role: "user", content: "run it" },
    { role: "tool", tool_name: "sh", content: "log line\n".repeat(2_000) },
    { role: "assistant", content: "done" },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n")}\n`;

describe("migration vs append race (issue 17 #1)", () => {
  it("an append in the window between the last check and the rename is kept (the original is restored, CONFLICT)", async () => {
    const path = join(dir, "t.jsonl");
    await writeFile(path, legacy());
    const line = JSON.stringify({ role: "user", content: "APPENDED-IN-THE-WINDOW" });
    const ext = new Externalizer({ store: new ArtifactStore({ driver: new MemoryDriver() }) });
    const error = await migrateTranscript(path, {
      externalizer: ext,
      session,
      backup: false,
      beforeReplace: () => appendFile(path, `${line}\n`),
    }).catch((e: unknown) => e);
    expect(hasErrorCode(error, "CONFLICT")).toBe(true);
    const after = await readFile(path, "utf8");
    expect(after).toBe(`${legacy()}${line}\n`);
    // A rerun completes and keeps the line.
    const report = await migrateTranscript(path, { externalizer: ext, session, backup: false });
    expect(report.migrated).toBe(1);
    expect(await readFile(path, "utf8")).toContain("APPENDED-IN-THE-WINDOW");
  });

  it("random appends racing 60 migrations (the stress suite runs thousands): every appended line survives", async () => {
    const ext = new Externalizer({ store: new ArtifactStore({ driver: new MemoryDriver() }) });
    let conflicts = 0;
    for (let i = 0; i < 60; i++) {
      const path = join(dir, `r${i}.jsonl`);
      await writeFile(path, legacy());
      const marker = `RACE-${i}`;
      const delay = (i * 7) % 25;
      const appending = new Promise<void>((resolve) =>
        setTimeout(
          () => void appendFile(path, `${JSON.stringify({ role: "user", content: marker })}\n`).then(resolve),
          delay,
        ),
      );
      const migrating = migrateTranscript(path, { externalizer: ext, session, backup: false }).catch((e: unknown) => {
        if (!hasErrorCode(e, "CONFLICT")) throw e;
        conflicts++;
      });
      await Promise.all([appending, migrating]);
      expect(await readFile(path, "utf8"), `run ${i}`).toContain(marker);
    }
    expect(conflicts).toBeLessThan(60);
  });
});
