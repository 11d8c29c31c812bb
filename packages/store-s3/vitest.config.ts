import { packageTestConfig } from "../../tooling/vitest.shared.mjs";

// No "module" condition: the AWS SDK's "module" builds (dist-es) use extensionless imports
// that only bundlers resolve; Node must load its "node"/"import" builds.
const conditions = ["source", "import", "node", "default"];

export default packageTestConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
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
