import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hasErrorCode } from "@artifact-refs/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_ENV_VARS, DEFAULT_CONTEXT_CONFIG, loadContextConfig, withSessionOverrides } from "../src/index.js";
import { tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

function errorOf(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("context config", () => {
  it("has the seeds' defaults", () => {
    expect(DEFAULT_CONTEXT_CONFIG.externalize).toMatchObject({
      maxInlineChars: 2_000,
      maxInlineLines: 200,
      structured: true,
    });
    expect(DEFAULT_CONTEXT_CONFIG.executions).toMatchObject({
      maxResultSize: 50_000,
      summarizeThreshold: 10_000,
      recentLimit: 3,
      ttlTurns: 10,
      autoInject: true,
      maxContextItems: 10,
    });
    expect(DEFAULT_CONTEXT_CONFIG.bootstrap).toEqual({ refs: false, thresholdChars: 8_000 });
    expect(DEFAULT_CONTEXT_CONFIG.fetch.maxChars).toBe(8_000);
    expect(DEFAULT_CONTEXT_CONFIG.recall.enabled).toBe(true);
  });

  it("reads the seeds' environment variables", () => {
    const config = loadContextConfig({
      env: {
        ARTIFACT_CONTEXT_MAX_RESULT_SIZE: "60000",
        ARTIFACT_CONTEXT_SUMMARIZE_THRESHOLD: "5000",
        ARTIFACT_CONTEXT_RECENT_LIMIT: "5",
        ARTIFACT_CONTEXT_TTL: "4",
        ARTIFACT_CONTEXT_AUTO_INJECT: "false",
        OPENCLAW_ARTIFACT_REFS: "true",
        OPENCLAW_ARTIFACT_REFS_THRESHOLD_CHARS: "9000",
        AREF_RECALL_ENABLED: "0",
        AREF_RECALL_MAX_ITEMS: "7",
        AREF_RECALL_MAX_CHARS: "1500",
        AREF_MAX_INLINE_CHARS: "8000",
        AREF_EXCLUDE_TOOLS: "shell, artifacts_list",
      },
    });
    expect(config.executions).toMatchObject({
      maxResultSize: 60_000,
      summarizeThreshold: 5_000,
      recentLimit: 5,
      ttlTurns: 4,
      autoInject: false,
    });
    expect(config.bootstrap).toEqual({ refs: true, thresholdChars: 9_000 });
    expect(config.recall).toEqual({ enabled: false, maxItems: 7, maxChars: 1_500 });
    expect(config.externalize.maxInlineChars).toBe(8_000);
    expect(config.externalize.excludeTools).toEqual(["shell", "artifacts_list"]);
    expect(CONTEXT_ENV_VARS.map((v) => v.name)).toContain("ARTIFACT_CONTEXT_TTL");
  });

  it("an invalid value is an error naming the variable", () => {
    const a = errorOf(() => loadContextConfig({ env: { ARTIFACT_CONTEXT_RECENT_LIMIT: "three" } }));
    expect(hasErrorCode(a, "CONFIG_INVALID")).toBe(true);
    expect(a.message).toMatch(/ARTIFACT_CONTEXT_RECENT_LIMIT="three" is invalid: expected a non-negative integer/);
    expect(errorOf(() => loadContextConfig({ env: { ARTIFACT_CONTEXT_AUTO_INJECT: "maybe" } })).message).toMatch(
      /ARTIFACT_CONTEXT_AUTO_INJECT.*true or false/,
    );
    expect(errorOf(() => loadContextConfig({ env: { AREF_FETCH_MAX_CHARS: "999999999" } })).message).toMatch(
      /AREF_FETCH_MAX_CHARS=.*is invalid/,
    );
  });

  it("layers file < environment < code, and validates the file", async () => {
    const file = join(dir, "context.json");
    await writeFile(
      file,
      JSON.stringify({
        executions: { recentLimit: 2, ttlTurns: 3 },
        externalize: { tools: { grep: { maxInlineChars: 100 } } },
      }),
    );
    const config = loadContextConfig({
      file,
      env: { ARTIFACT_CONTEXT_RECENT_LIMIT: "4" },
      config: { executions: { ttlTurns: 9 } },
    });
    expect(config.executions.recentLimit).toBe(4);
    expect(config.executions.ttlTurns).toBe(9);
    expect(config.externalize.tools.grep).toEqual({ maxInlineChars: 100 });
    await writeFile(file, JSON.stringify({ executions: { recentLimit: "many" } }));
    expect(errorOf(() => loadContextConfig({ file, env: {} })).message).toMatch(
      /context\.json: executions\.recentLimit/,
    );
    await writeFile(file, "{oops");
    expect(errorOf(() => loadContextConfig({ file, env: {} })).message).toMatch(/not valid JSON/);
    expect(
      errorOf(() => loadContextConfig({ env: {}, config: { externalize: { bogus: 1 } } as never })).message,
    ).toMatch(/externalize/);
    expect(
      errorOf(() => loadContextConfig({ env: {}, config: { redaction: { rules: [{ kind: "x", pattern: "" }] } } }))
        .message,
    ).toMatch(/redaction\.rules\.0\.pattern/);
  });

  it("applies per-session overrides", () => {
    const config = withSessionOverrides(DEFAULT_CONTEXT_CONFIG, {
      autoInject: false,
      maxContextItems: 20,
      summarizeThreshold: 50_000,
    });
    expect(config.executions).toMatchObject({
      autoInject: false,
      maxContextItems: 20,
      summarizeThreshold: 50_000,
      recentLimit: 3,
    });
    expect(DEFAULT_CONTEXT_CONFIG.executions.autoInject).toBe(true);
    expect(errorOf(() => withSessionOverrides(DEFAULT_CONTEXT_CONFIG, { nope: 1 } as never)).message).toMatch(
      /invalid session overrides/,
    );
  });
});
