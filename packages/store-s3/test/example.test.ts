import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

it("the README example runs as written", () => {
  const result = spawnSync(
    process.execPath,
    ["--conditions=@artifact-refs/source", "--import", "tsx", "examples/quickstart.ts"],
    {
      cwd: packageDir,
      encoding: "utf8",
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
      timeout: 60_000,
    },
  );
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(/^stored 26889 bytes as art:[0-9a-f]{12}\n/);
  expect(result.stdout).toContain("content at s3://artifacts/team/agents/blobs/sha256/");
  expect(result.stdout).toContain("second put deduplicated: true\nread back intact: true\ncreate-once writes: off\n");
});
