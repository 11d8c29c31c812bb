import { packageTestConfig } from "../../tooling/vitest.shared.mjs";

// eventsource-parser (used by the MCP SDK's HTTP client) has a "source" export condition
// pointing at its TypeScript sources; inlining lets vite transform them.
export default packageTestConfig({ test: { server: { deps: { inline: [/@modelcontextprotocol\/sdk/, "eventsource-parser"] } } } });
