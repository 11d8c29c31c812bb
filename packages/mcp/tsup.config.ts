import { packageBuildConfig } from "../../tooling/tsup.shared.mjs";

export default packageBuildConfig({
  entry: { index: "src/index.ts", bin: "src/bin.ts" },
  dts: { entry: { index: "src/index.ts" } },
});
