import { openDriver, openStore, storeSpecFrom } from "@artifact-refs/store-spec";
import { runStoreContract } from "@artifact-refs/store/testing";
import { useS3Server } from "@artifact-refs/tooling/testing/s3";
import { describe, expect, it } from "vitest";

// The S3 part of the store spec, against the local S3-compatible server (fauxqs on
// 127.0.0.1). The SDK's default credential chain reads the test credentials from the env.
const s3 = useS3Server();

describe("openStore: s3://", () => {
  it("a spec opens the S3 driver on the bucket and prefix it names", async () => {
    const bucket = s3.createBucket();
    const store = await openStore(s3.storeSpec(bucket, "team/agents"));
    expect(store.driver.kind).toBe("s3");
    expect(store.driver.location).toBe(`s3://${bucket}/team/agents`);
    const { id, record } = await store.put("stored in S3 via a spec", { session: "s" });
    expect(record.content_uri).toBe(
      `s3://${bucket}/team/agents/blobs/sha256/${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`,
    );
    expect(await store.getText(id, { session: "s" })).toBe("stored in S3 via a spec");
    await store.close();
  });

  it("two stores opened from the same spec (AREF_STORE) see each other's artifacts", async () => {
    const spec = s3.storeSpec(s3.createBucket(), "shared");
    const a = await openStore(storeSpecFrom(undefined, { AREF_STORE: spec }));
    const b = await openStore(storeSpecFrom(undefined, { AREF_STORE: spec }));
    const put = await a.put("seen by both", { session: "s" });
    expect(await b.getText(put.shortRef, { session: "s" })).toBe("seen by both");
    expect((await b.put("seen by both")).created).toBe(false);
    await a.close();
    await b.close();
  });

  it("different prefixes in one bucket are separate stores", async () => {
    const bucket = s3.createBucket();
    const one = await openStore(s3.storeSpec(bucket, "one"));
    const two = await openStore(s3.storeSpec(bucket, "two"));
    const { id } = await one.put("only in one");
    expect(await one.has(id)).toBe(true);
    expect(await two.has(id)).toBe(false);
    await one.close();
    await two.close();
  });

  it("a spec naming a bucket that does not exist fails on first use with CONFIG_INVALID", async () => {
    const store = await openStore(s3.storeSpec("no-such-bucket-anywhere", "p"));
    await expect(store.put("x")).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("no-such-bucket-anywhere"),
    });
    await store.close();
  });

  it("a spec whose endpoint is down fails with UNAVAILABLE, not a hang", async () => {
    const store = await openStore(
      `s3://some-bucket/p?endpoint=${encodeURIComponent("http://127.0.0.1:9")}&region=us-east-1&forcePathStyle=true`,
    );
    await expect(store.put("x")).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await store.close();
  }, 120_000);
});

// The whole store contract through a spec-opened driver.
runStoreContract(
  "s3 via store spec",
  async () => {
    const spec = s3.storeSpec(s3.createBucket(), "contract");
    return { driver: await openDriver(spec), reopen: () => openDriver(spec), timePrecisionMs: 1000 };
  },
  { multiInstance: true },
);
