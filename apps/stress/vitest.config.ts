import { packageTestConfig } from "../../tooling/vitest.shared.mjs";

const full = process.env.AREF_STRESS === "full";

// Suites spawn processes and fsync a lot: run the files one after the other so that
// their figures do not depend on each other, with room for the full run's sizes.
export default packageTestConfig({
  test: {
    fileParallelism: false,
    testTimeout: full ? 3_600_000 : 240_000,
    hookTimeout: full ? 600_000 : 120_000,
  },
});
