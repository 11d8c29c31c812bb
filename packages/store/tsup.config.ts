import { packageBuildConfig } from "../../tooling/tsup.shared.mjs";

export default packageBuildConfig({
  entry: { index: "src/index.ts", internal: "src/internal.ts", "testing/index": "src/testing/index.ts" },
  external: ["vitest"],
});
