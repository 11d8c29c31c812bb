import { packageBuildConfig } from "../../tooling/tsup.shared.mjs";

// The selection worker is its own entry: worker threads load it by file name (src/selection-pool.ts).
export default packageBuildConfig({
  entry: { index: "src/index.ts", "selection-worker": "src/selection-worker.ts" },
  dts: { entry: { index: "src/index.ts" } },
});
