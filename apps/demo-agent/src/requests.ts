/** The demo session: real work on this repository, then follow-ups that refer back to it. */
export const TEST_COMMAND = "pnpm --filter @artifact-refs/schema exec vitest run --reporter=verbose";

export const DEFAULT_REQUESTS = [
  "Load README.md and tell me what this project is.",
  "List every file under packages/",
  `Run the schema package's tests: \`${TEST_COMMAND}\``,
  'Find "new ArefError" in packages/store/src',
  "Load packages/store/README.md too.",
  "summarize what I just loaded",
  "what did the test run say?",
  "compare the two READMEs",
];
