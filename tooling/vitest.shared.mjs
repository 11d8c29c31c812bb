// Shared vitest settings for every package. Workspace packages resolve to their
// TypeScript sources through the "@artifact-refs/source" export condition, so tests never need
// a build of the packages they import; child processes spawned by tests use dist/.
import { defineConfig } from "vitest/config";

// No "module" condition: packages such as the AWS SDK point "module" at bundler-only builds
// (extensionless imports) that Node cannot load once vitest externalizes them.
export function packageTestConfig(overrides = {}) {
  const { test = {}, ...rest } = overrides;
  return defineConfig({
    resolve: { conditions: ["@artifact-refs/source", "import", "node", "default"] },
    ssr: { resolve: { conditions: ["@artifact-refs/source", "import", "node", "default"] } },
    test: {
      include: ["test/**/*.test.ts"],
      environment: "node",
      testTimeout: 60_000,
      hookTimeout: 60_000,
      reporters: ["default", "json"],
      outputFile: { json: "test-output/vitest-report.json" },
      ...test,
    },
    ...rest,
  });
}
