import { runDriverContract, runStoreContract } from "@artifact-refs/store/testing";
import type { S3Driver } from "@artifact-refs/store-s3";
import { useS3 } from "./support.js";

// The same contract suites as memory and fs, over the real S3 protocol:
// 1. straight against the local server, which ignores If-None-Match: "auto" detects that
//    and falls back to HEAD-then-PUT;
// 2. through the proxy that enforces If-None-Match like AWS S3: "auto" detects it and
//    creates with one conditional PUT.
const fx = useS3();

let counter = 0;
for (const via of ["direct", "proxy"] as const) {
  const factory = async () => {
    const bucket = fx.s3.createBucket();
    const prefix = via === "direct" ? `contract/run-${++counter}` : "";
    const options = { bucket, prefix, via } as const;
    return {
      driver: fx.driver(options),
      reopen: async () => fx.driver(options),
      timePrecisionMs: 1000,
    };
  };
  runDriverContract(
    `s3 (${via === "direct" ? "local server, HEAD-then-PUT" : "enforcing proxy, If-None-Match"})`,
    factory,
    { multiInstance: true },
  );
  runStoreContract(
    `s3 (${via === "direct" ? "local server, HEAD-then-PUT" : "enforcing proxy, If-None-Match"})`,
    factory,
    { multiInstance: true },
  );
}

export type { S3Driver };
