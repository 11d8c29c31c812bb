import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { useS3Server } from "@artifact-refs/tooling/testing/s3";
import { ScriptedProvider, runDemo } from "@artifact-refs/demo-agent";
import { openStore } from "@artifact-refs/store-spec";

const repo = resolve(import.meta.dirname, "../../..");

describe("the demo on S3 (real S3-compatible server on 127.0.0.1)", () => {
  const s3 = useS3Server();

  it("runs the same session with the store in a bucket, within budget and byte-exact", async () => {
    const bucket = s3.createBucket();
    const spec = s3.storeSpec(bucket, "demo");
    const summary = await runDemo({
      provider: new ScriptedProvider(),
      store: spec,
      workspace: repo,
      outDir: mkdtempSync(join(tmpdir(), "aref-demo-s3-")),
      requests: [
        "Load README.md and tell me what this project is.",
        "Load packages/store/README.md too.",
        "compare the two READMEs",
      ],
      allowedCommands: [],
    });
    expect(summary.calls.every((c) => c.budgetOk)).toBe(true);
    expect(summary.rehydrated).toBeGreaterThanOrEqual(2);
    expect(summary.rehydrationMismatches).toBe(0);
    expect(summary.requests[2]!.referenced.length).toBe(2);
    // The artifacts are in the bucket: a second store over the same spec lists the session.
    const store = await openStore(spec);
    expect((await store.listReferences(summary.session)).length).toBeGreaterThanOrEqual(summary.rehydrated);
    await store.close();
  });
});
