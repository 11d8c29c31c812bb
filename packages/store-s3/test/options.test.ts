import { isArefError } from "@artifact-refs/schema";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { S3Driver, type S3DriverOptions } from "@artifact-refs/store-s3";
import { useS3 } from "./support.js";

const fx = useS3();
const bytes = (text: string) => new TextEncoder().encode(text);

function configError(options: S3DriverOptions): Error & { code?: string } {
  try {
    new S3Driver(options);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the options to be refused");
}

async function withEnv<T>(changes: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(changes).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe("options and layout", () => {
  it("refuses bad options with CONFIG_INVALID naming the field", () => {
    const cases: Array<[S3DriverOptions, RegExp]> = [
      [{ bucket: "Bad_Bucket" }, /bucket/],
      [{ bucket: "ok-bucket", prefix: "a/../b" }, /prefix.*'\.\.'/],
      [{ bucket: "ok-bucket", prefix: "a b" }, /prefix/],
      [{ bucket: "ok-bucket", endpoint: "ftp://host" }, /endpoint.*http/],
      [{ bucket: "ok-bucket", maxAttempts: 0 }, /maxAttempts/],
      [{ bucket: "ok-bucket", conditionalWrites: "maybe" as never }, /conditionalWrites/],
      [{ bucket: "ok-bucket", multipartPartSizeBytes: 1024 }, /multipartPartSizeBytes/],
      [{ bucket: "ok-bucket", listPageSize: 5000 }, /listPageSize/],
      [{ bucket: "ok-bucket", client: {} as S3Client }, /client/],
      [{ bucket: "ok-bucket", colour: "blue" } as unknown as S3DriverOptions, /colour/],
    ];
    for (const [options, pattern] of cases) {
      const error = configError(options);
      expect(isArefError(error), JSON.stringify(options)).toBe(true);
      expect(error.code).toBe("CONFIG_INVALID");
      expect(error.message).toMatch(pattern);
    }
  });

  it("objects live at <prefix>/<key>; the prefix is normalized; uri and location name them", async () => {
    const bucket = fx.s3.createBucket();
    const driver = fx.driver({ bucket, prefix: "/team/agents/" });
    expect(driver.prefix).toBe("team/agents");
    expect(driver.location).toBe(`s3://${bucket}/team/agents`);
    expect(driver.uri("blobs/sha256/ab/cd/x")).toBe(`s3://${bucket}/team/agents/blobs/sha256/ab/cd/x`);
    await driver.put("meta/one.json", bytes("{}"));
    await driver.putIfAbsent("blobs/two", bytes("2"));
    const raw = await driver.client.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect((raw.Contents ?? []).map((o) => o.Key).sort()).toEqual([
      "team/agents/blobs/two",
      "team/agents/meta/one.json",
    ]);
    await driver.close();
  });

  it("lists only valid keys under its own prefix", async () => {
    const bucket = fx.s3.createBucket();
    const driver = fx.driver({ bucket, prefix: "p" });
    await driver.put("k/a", bytes("a"));
    // Foreign objects: outside the prefix, next to it, and an invalid key inside it.
    for (const Key of ["k/outside", "p2/k/b", "p/k/with space"]) {
      await driver.client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: "x" }));
    }
    const keys = [];
    for await (const entry of driver.list("")) keys.push(entry.key);
    expect(keys).toEqual(["k/a"]);
    await expect(async () => {
      for await (const _ of driver.list("../x")) void _;
    }).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await driver.close();
  });

  it("an injected client is used as is and left open by close()", async () => {
    const bucket = fx.s3.createBucket();
    const client = new S3Client(fx.s3.clientConfig());
    const driver = new S3Driver({ bucket, prefix: "injected", client });
    expect(driver.client).toBe(client);
    await driver.put("k", bytes("v"));
    await driver.close();
    const again = new S3Driver({ bucket, prefix: "injected", client });
    expect(new TextDecoder().decode(await again.get("k"))).toBe("v");
    client.destroy();
  });

  it("clientConfig is applied over the driver's defaults", async () => {
    const bucket = fx.s3.createBucket();
    const driver = new S3Driver({ bucket, clientConfig: fx.s3.clientConfig() });
    await driver.put("cfg", bytes("ok"));
    expect(new TextDecoder().decode(await driver.get("cfg"))).toBe("ok");
    await driver.close();
  });

  it("no credentials anywhere: UNAUTHORIZED saying how to provide them", async () => {
    await withEnv(
      {
        AWS_ACCESS_KEY_ID: undefined,
        AWS_SECRET_ACCESS_KEY: undefined,
        AWS_PROFILE: undefined,
        AWS_SHARED_CREDENTIALS_FILE: "/nonexistent/credentials",
        AWS_CONFIG_FILE: "/nonexistent/config",
        AWS_EC2_METADATA_DISABLED: "true",
        AWS_CONTAINER_CREDENTIALS_FULL_URI: undefined,
        AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: undefined,
        AWS_WEB_IDENTITY_TOKEN_FILE: undefined,
      },
      async () => {
        const driver = new S3Driver({
          bucket: fx.s3.createBucket(),
          endpoint: fx.s3.endpoint,
          forcePathStyle: true,
          maxAttempts: 1,
        });
        await expect(driver.get("x")).rejects.toMatchObject({
          code: "UNAUTHORIZED",
          hint: expect.stringContaining("AWS_ACCESS_KEY_ID"),
        });
        await driver.close();
      },
    );
  });

  it("no region anywhere (and no endpoint): CONFIG_INVALID saying how to set one", async () => {
    await withEnv(
      {
        AWS_REGION: undefined,
        AWS_DEFAULT_REGION: undefined,
        AWS_CONFIG_FILE: "/nonexistent/config",
        AWS_PROFILE: undefined,
      },
      async () => {
        const driver = new S3Driver({ bucket: "some-bucket", maxAttempts: 1 });
        await expect(driver.get("x")).rejects.toMatchObject({
          code: "CONFIG_INVALID",
          hint: expect.stringContaining("AWS_REGION"),
        });
        await driver.close();
      },
    );
  });

  it("with an endpoint and no region anywhere, the region defaults to us-east-1", async () => {
    await withEnv(
      { AWS_REGION: undefined, AWS_DEFAULT_REGION: undefined, AWS_CONFIG_FILE: "/nonexistent/config" },
      async () => {
        const driver = new S3Driver({ bucket: fx.s3.createBucket(), endpoint: fx.s3.endpoint, forcePathStyle: true });
        await driver.put("r", bytes("r"));
        expect(await driver.client.config.region()).toBe("us-east-1");
        await driver.close();
      },
    );
  });

  it("invalid keys are refused before any request", async () => {
    const driver = fx.driver({ via: "proxy" });
    fx.proxy.clearLog();
    for (const key of ["../x", "a//b", "/abs", "a b", ""]) {
      await expect(driver.putIfAbsent(key, bytes("x"))).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(driver.delete(key)).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(driver.head(key)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    }
    expect(fx.proxy.requests).toEqual([]);
    await driver.close();
  });
});
