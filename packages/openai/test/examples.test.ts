import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { logScript, startFakeOpenAI, type FakeOpenAI } from "@artifact-refs/tooling/testing/fake-openai";

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function runExample(file: string, url: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--conditions=source", "--import", "tsx", fileURLToPath(new URL(`../examples/${file}`, import.meta.url))], {
    env: { ...process.env, OPENAI_BASE_URL: url, OPENAI_API_KEY: "test-key" },
    timeout: 60_000,
  });
  return stdout;
}

describe("README examples run as written against a local OpenAI server", () => {
  for (const [file, path] of [["chat-completions.ts", "/v1/chat/completions"], ["responses.ts", "/v1/responses"]] as const) {
    it(file, async () => {
      fake = await startFakeOpenAI(logScript);
      expect(await runExample(file, fake.url)).toBe("found 4 failures\n");
      expect(fake.requests.map((r) => r.path)).toEqual([path, path, path]);
      for (const r of fake.requests) {
        expect(r.raw).not.toContain("ok 1001 test/case-1001.test.ts");
        expect(r.raw.length).toBeLessThan(12_000);
      }
      expect(fake.requests[1]!.raw).toMatch(/art:[0-9a-f]{12,}/);
    });
  }
});
