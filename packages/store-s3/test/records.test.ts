import { runRecordsContract } from "@artifact-refs/store/testing";
import { useS3 } from "./support.js";

// Session records over the real S3 protocol (the local server the test setup starts).
const fx = useS3();
let counter = 0;
runRecordsContract("s3", async () => {
  const options = { bucket: fx.s3.createBucket(), prefix: `records/run-${++counter}`, via: "direct" } as const;
  return { driver: fx.driver(options), reopen: async () => fx.driver(options), timePrecisionMs: 1000 };
});
