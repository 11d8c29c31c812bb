import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "@artifact-refs/store-spec";
import type { ArtifactStore } from "@artifact-refs/store";
import { afterAll, beforeAll } from "vitest";
import { serveHttp, type RunningHttpServer } from "../src/index.js";

export const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
/** Two contents whose ids share their first 12 hex chars (an ambiguous art: prefix). */
export const COLLIDING = ["aref ambiguous prefix test 14047557\n", "aref ambiguous prefix test 59967149\n"];

/** A ~100 KB test log: 2,000 lines, a few failures in the middle. */
export function bigLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 2000; i++) {
    lines.push(
      i % 500 === 0
        ? `FAIL test/case-${i}.test.ts > computes ${i}: expected ${i} got ${i + 1}`
        : `ok ${i} test/case-${i}.test.ts > computes ${i} (${(i * 7) % 13} ms) ${"·".repeat(20)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export interface Fixture {
  dir: string;
  store: ArtifactStore;
  ids: Record<"log" | "json" | "binary" | "a" | "b" | "other", string>;
  cleanup(): Promise<void>;
}

/** A real fs store in a temp dir with a session s1 holding a log, a JSON file, a binary, two colliding artifacts; `other` is in session s2 only. */
export async function fixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), "aref-mcp-"));
  const store = await openStore(dir);
  const log = await store.put(bigLog(), {
    session: "s1",
    label: "npm test output",
    mime: "text/plain",
    type: "log",
    tool: { name: "run_tests", args: { cmd: "npm test" } },
  });
  const json = await store.put(
    JSON.stringify(
      {
        name: "demo",
        version: "1.2.3",
        items: [
          { id: 1, ok: true },
          { id: 2, ok: false },
        ],
      },
      null,
      2,
    ),
    {
      session: "s1",
      label: "package.json",
      mime: "application/json",
      type: "data",
      tool: { name: "read_file", args: { path: "package.json" } },
    },
  );
  const binary = await store.put(new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7]), {
    session: "s1",
    label: "blob.bin",
    mime: "application/octet-stream",
  });
  const a = await store.put(COLLIDING[0]!, { session: "s1", label: "note a" });
  const b = await store.put(COLLIDING[1]!, { session: "s1", label: "note b" });
  const other = await store.put("only in session s2\n", { session: "s2", label: "s2 note" });
  return {
    dir,
    store,
    ids: { log: log.id, json: json.id, binary: binary.id, a: a.id, b: b.id, other: other.id },
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The fixture store served over streamable HTTP on 127.0.0.1 (session s1, 3,000-char answers)
 * for the calling suite: started before its tests, closed and removed after them.
 */
export function useHttpFixture(): { readonly fx: Fixture; readonly http: RunningHttpServer } {
  const served = {} as { fx: Fixture; http: RunningHttpServer };
  beforeAll(async () => {
    served.fx = await fixture();
    served.http = await serveHttp({ store: served.fx.store, session: "s1", maxChars: 3000 });
  });
  afterAll(async () => {
    await served.http?.close();
    await served.fx?.cleanup();
  });
  return served;
}
