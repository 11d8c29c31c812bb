import { createHash } from "node:crypto";
import { ArtifactStore } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { useS3 } from "./support.js";

const fx = useS3();
const MIB = 1024 * 1024;
// Compared by digest: a deep equality over megabytes of elements is very slow.
const digest = (data: Uint8Array | undefined) =>
  data === undefined ? "missing" : `${data.byteLength}:${createHash("sha256").update(data).digest("hex")}`;
const pattern = (size: number, seed: number) => {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
};

describe("multipart uploads above the threshold", () => {
  it("a value over multipartThresholdBytes goes up in parts, with checksums, and reads back byte-exact", async () => {
    const driver = fx.driver({
      via: "proxy",
      conditionalWrites: "on",
      multipartThresholdBytes: 5 * MIB,
      multipartPartSizeBytes: 5 * MIB,
    });
    const data = pattern(11 * MIB, 1);
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("big/one", data)).toEqual({ created: true });
    const log = fx.proxy.requests.map(
      (r) => `${r.method} ${/uploads(?!\w)|partNumber=\d|uploadId/.exec(r.query)?.[0] ?? ""}`,
    );
    expect(log[0]).toBe("POST uploads");
    expect(log.filter((l) => l.startsWith("PUT partNumber"))).toHaveLength(3);
    expect(log.at(-1)).toBe("POST uploadId");
    const parts = fx.proxy.requests.filter((r) => r.query.includes("partNumber"));
    expect(parts.every((r) => typeof r.headers["x-amz-checksum-sha256"] === "string")).toBe(true);
    // The create-once condition rides on CompleteMultipartUpload.
    expect(fx.proxy.requests.at(-1)!.headers["if-none-match"]).toBe("*");
    expect(digest(await driver.get("big/one"))).toBe(digest(data));
    expect((await driver.head("big/one"))?.size).toBe(11 * MIB);
    await driver.close();
  });

  it("a multipart create of an existing key is refused at completion (412) and the upload is aborted", async () => {
    const driver = fx.driver({
      via: "proxy",
      conditionalWrites: "on",
      refreshOnDedupe: false,
      multipartThresholdBytes: 5 * MIB,
      multipartPartSizeBytes: 5 * MIB,
    });
    const first = pattern(6 * MIB, 2);
    await driver.putIfAbsent("big/two", first);
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("big/two", pattern(6 * MIB, 3))).toEqual({ created: false });
    expect(fx.proxy.requests.some((r) => r.method === "POST" && r.status === 412)).toBe(true);
    expect(fx.proxy.requests.at(-1)).toMatchObject({ method: "DELETE" }); // AbortMultipartUpload
    expect(digest(await driver.get("big/two"))).toBe(digest(first));
    await driver.close();
  });

  it("a store whose cap is raised above the threshold stores and serves such artifacts", async () => {
    const driver = fx.driver({ multipartThresholdBytes: 5 * MIB, multipartPartSizeBytes: 5 * MIB });
    const store = new ArtifactStore({ driver, maxBytes: 16 * MIB });
    const data = pattern(7 * MIB, 4);
    const put = await store.put(data, { session: "big" });
    expect(put.created).toBe(true);
    expect(digest(await store.get(put.id, { session: "big" }))).toBe(digest(data));
    expect((await store.verify()).ok).toBe(true);
    await store.close();
  });
});
