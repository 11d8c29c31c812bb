import { packageBuildConfig } from "../../tooling/tsup.shared.mjs";

export default packageBuildConfig({
  entry: { bin: "src/bin.ts", main: "src/main.ts" },
  dts: { entry: { main: "src/main.ts" } },
});
