import { describe, expect, it, onTestFinished } from "vitest";
import { runExampleWithEnv } from "@artifact-refs/tooling/testing/examples";
import { logScript, startFakeOpenAI } from "@artifact-refs/tooling/testing/fake-openai";
import { expectScriptedLogRun } from "@artifact-refs/tooling/testing/log-run";

describe("README examples run as written against a local OpenAI server", () => {
  for (const [file, path] of [
    ["chat-completions.ts", "/v1/chat/completions"],
    ["responses.ts", "/v1/responses"],
  ] as const) {
    it(file, async () => {
      const fake = await startFakeOpenAI(logScript);
      onTestFinished(fake.close);
      const stdout = await runExampleWithEnv(new URL(`../examples/${file}`, import.meta.url), {
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: "test-key",
      });
      expectScriptedLogRun(stdout, fake.requests);
      expect(fake.requests.map((r) => r.path)).toEqual([path, path, path]);
      for (const r of fake.requests) expect(r.raw.length).toBeLessThan(12_000);
    });
  }
});
