import { packageTestConfig } from "../../tooling/vitest.shared.mjs";

// eventsource-parser (under the AI SDK) has a "source" export condition pointing at its
// TypeScript sources; inlining the SDK packages lets vite transform them.
export default packageTestConfig({ test: { server: { deps: { inline: [/@ai-sdk\//, /[\\/]ai[\\/]/, "eventsource-parser"] } } } });
