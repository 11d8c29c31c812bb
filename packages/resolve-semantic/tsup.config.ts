import { packageBuildConfig } from "../../tooling/tsup.shared.mjs";

export default packageBuildConfig();
