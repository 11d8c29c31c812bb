import { packageBuildConfig } from "../../tooling/tsup.shared.mjs";

// `./chart` is its own entry: the web UI's bundle takes the chart renderer without the tokenizers.
export default packageBuildConfig({ entry: { index: "src/index.ts", chart: "src/chart.ts" } });
