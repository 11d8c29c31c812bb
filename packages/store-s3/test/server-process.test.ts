import { startS3ServerProcess } from "@artifact-refs/tooling/s3/server";
import { expect, it } from "vitest";
import { S3Driver } from "@artifact-refs/store-s3";

it("the local S3 server also runs in its own process (tooling/s3/server.mjs), for benchmarks and other packages", async () => {
  const server = await startS3ServerProcess({ buckets: ["process-bucket"] });
  try {
    expect(server.pid).toBeGreaterThan(0);
    expect(server.pid).not.toBe(process.pid);
    const driver = new S3Driver({ bucket: "process-bucket", prefix: "p", clientConfig: server.clientConfig() });
    await driver.put("k", new TextEncoder().encode("across processes"));
    expect(new TextDecoder().decode(await driver.get("k"))).toBe("across processes");
    expect(server.storeSpec("process-bucket", "p")).toBe(
      `s3://process-bucket/p?endpoint=${encodeURIComponent(server.endpoint)}&region=us-east-1&forcePathStyle=true`,
    );
    await driver.close();
  } finally {
    await server.stop();
  }
  await expect(
    new S3Driver({ bucket: "process-bucket", clientConfig: server.clientConfig(), maxAttempts: 1 }).get("k"),
  ).rejects.toMatchObject({ code: "UNAVAILABLE" });
});
