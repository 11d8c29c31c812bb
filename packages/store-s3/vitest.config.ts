import { packageTestConfig } from "../../tooling/vitest.shared.mjs";

export default packageTestConfig({
  test: {
    // The SDK's default credential chain and region for drivers opened without explicit ones.
    env: {
      AWS_ACCESS_KEY_ID: "aref-test-key",
      AWS_SECRET_ACCESS_KEY: "aref-test-secret",
      AWS_REGION: "us-east-1",
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
  },
});
