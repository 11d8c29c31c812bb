import { packageTestConfig } from "../../tooling/vitest.shared.mjs";

// The fresh-clone test (a whole `pnpm test` in a clone): only in the stress run and CI, never in
// `pnpm test` itself (it would run itself again inside the clone).
export default packageTestConfig({
  test: {
    include: ["fresh-clone/**/*.test.ts"],
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
    outputFile: { json: "test-output/fresh-clone-report.json" },
  },
});
