// Run: node --conditions=@artifact-refs/source --import tsx examples/quickstart.ts (in packages/resolve-semantic)
import { SemanticResolver } from "../src/index.js";

const resolver = await SemanticResolver.load();
const r = await resolver.resolve("which one explained how to ship the phone application to users?", [
  { id: "w1", tool_name: "web_search", tool_args: { query: "sourdough starter" }, summary: "feed it twice a day" },
  {
    id: "w2",
    tool_name: "read_file",
    tool_args: { path: "docs/release.md" },
    summary: "Steps to publish the mobile app to the App Store and Google Play: bump version, sign the build, upload",
  },
  {
    id: "w3",
    tool_name: "sql_query",
    tool_args: { query: "SELECT plan, COUNT(*) FROM cancellations GROUP BY plan" },
    summary: "3 rows: basic 412, pro 97, team 12",
  },
]);
console.log(JSON.stringify(r.candidates));
