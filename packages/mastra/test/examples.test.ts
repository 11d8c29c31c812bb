import { describe, expect, it, onTestFinished } from "vitest";
import { runExampleWithEnv } from "@artifact-refs/tooling/testing/examples";
import { logScript } from "@artifact-refs/tooling/testing/fake-openai";
import { startFakeStreamingOpenAI as startFakeOpenAI } from "@artifact-refs/tooling/testing/fake-openai";
import { expectScriptedLogRun } from "@artifact-refs/tooling/testing/log-run";

describe("README example runs as written against a local OpenAI server", () => {
  it("examples/agent.ts", async () => {
    const fake = await startFakeOpenAI(logScript);
    onTestFinished(fake.close);
    const stdout = await runExampleWithEnv(new URL("../examples/agent.ts", import.meta.url), {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "test-key",
    });
    expectScriptedLogRun(stdout, fake.requests);
    for (const r of fake.requests) expect(r.raw.length).toBeLessThan(14_000);
  });
});
