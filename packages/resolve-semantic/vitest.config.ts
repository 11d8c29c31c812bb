import { packageTestConfig } from "../../tooling/vitest.shared.mjs";

export default packageTestConfig();
