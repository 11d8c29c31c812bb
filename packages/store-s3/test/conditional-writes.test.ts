import { createHash } from "node:crypto";
import { isArefError } from "@artifact-refs/schema";
import { startFaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { useS3 } from "./support.js";

const fx = useS3();
const bytes = (text: string) => new TextEncoder().encode(text);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("conditional writes (If-None-Match: *)", () => {
  it('"auto" probes the server: the plain local server ignores the condition, the enforcing proxy honours it', async () => {
    const direct = fx.driver();
    const proxied = fx.driver({ via: "proxy" });
    expect(await direct.conditionalWrites()).toBe("off");
    expect(await proxied.conditionalWrites()).toBe("on");
    // The probe cleans up after itself and its keys never show up in listings.
    const leftovers = [];
    for await (const entry of proxied.list("")) leftovers.push(entry);
    expect(leftovers).toEqual([]);
    await direct.close();
    await proxied.close();
  });

  it("a new key costs exactly one request: a conditional PUT carrying a SHA-256 checksum, no HEAD", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on" });
    fx.proxy.clearLog();
    const data = bytes("stored once");
    expect(await driver.putIfAbsent("blobs/one", data)).toEqual({ created: true });
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 200"]);
    const [put] = fx.proxy.requests;
    expect(put!.key).toBe("blobs/one");
    expect(put!.headers["if-none-match"]).toBe("*");
    expect(put!.headers["x-amz-checksum-sha256"]).toBe(createHash("sha256").update(data).digest("base64"));
    await driver.close();
  });

  it("412 means already stored: created is false and the stored bytes stay", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on", refreshOnDedupe: false });
    await driver.putIfAbsent("k", bytes("first"));
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("k", bytes("second"))).toEqual({ created: false });
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 412"]);
    expect(fx.proxy.requests[0]!.enforced).toBe(true);
    expect(new TextDecoder().decode(await driver.get("k"))).toBe("first");
    await driver.close();
  });

  it("a 412 injected on the wire is taken as 'already stored' without any HEAD", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on", refreshOnDedupe: false });
    fx.proxy.inject({ match: { method: "PUT", key: "injected" }, fault: { status: 412, code: "PreconditionFailed" } });
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("injected", bytes("x"))).toEqual({ created: false });
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.fault ?? ""}`)).toEqual(["PUT 412"]);
    await driver.close();
  });

  it("dedupe refreshes the object's time (one CopyObject), so gc's grace rule protects a blob just re-used", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on" });
    await driver.putIfAbsent("blobs/reused", bytes("reused"));
    const before = (await driver.head("blobs/reused"))!.modifiedAt;
    await sleep(1_100); // S3 times have one-second precision
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("blobs/reused", bytes("reused"))).toEqual({ created: false });
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 412", "PUT 200"]);
    expect(fx.proxy.requests[1]!.headers["x-amz-copy-source"]).toContain("blobs/reused");
    const after = (await driver.head("blobs/reused"))!.modifiedAt;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    expect(new TextDecoder().decode(await driver.get("blobs/reused"))).toBe("reused");
    await driver.close();
  });

  it("without refreshOnDedupe the time stays (documented trade-off)", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on", refreshOnDedupe: false });
    await driver.putIfAbsent("still", bytes("still"));
    const before = (await driver.head("still"))!.modifiedAt;
    await sleep(1_100);
    await driver.putIfAbsent("still", bytes("still"));
    expect((await driver.head("still"))!.modifiedAt).toEqual(before);
    await driver.close();
  });

  it("a key deleted between the 412 and the refresh is created again", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on" });
    // The 412 comes from the wire, but the key does not exist: the refresh finds it gone (404).
    fx.proxy.inject({
      match: { method: "PUT", key: "vanished", header: { "if-none-match": "*" } },
      fault: { status: 412 },
    });
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("vanished", bytes("v"))).toEqual({ created: true });
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 412", "PUT 404", "PUT 200"]);
    expect(new TextDecoder().decode(await driver.get("vanished"))).toBe("v");
    await driver.close();
  });

  it("409 ConditionalRequestConflict is retried", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on" });
    const rule = fx.proxy.inject({
      match: { method: "PUT", key: "conflicted" },
      times: 2,
      fault: { status: 409, code: "ConditionalRequestConflict" },
    });
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("conflicted", bytes("c"))).toEqual({ created: true });
    expect(rule.hits).toBe(2);
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 409", "PUT 409", "PUT 200"]);
    await driver.close();
  });

  it("409 on every attempt ends in a CONFLICT error naming the key and the attempts", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on", maxAttempts: 3 });
    fx.proxy.inject({
      match: { method: "PUT", key: "always-409" },
      times: Infinity,
      fault: { status: 409, code: "ConditionalRequestConflict" },
    });
    let caught: unknown;
    try {
      await driver.putIfAbsent("always-409", bytes("c"));
    } catch (error) {
      caught = error;
    }
    fx.proxy.clearFaults();
    expect(isArefError(caught)).toBe(true);
    expect(caught).toMatchObject({
      code: "CONFLICT",
      details: { attempts: 3, status: 409, s3_code: "ConditionalRequestConflict" },
    });
    expect((caught as Error).message).toMatch(/PutObject.*always-409.*3 attempts/);
    expect(await driver.head("always-409")).toBeUndefined();
    await driver.close();
  });

  it('"off" creates with HEAD then PUT, and dedupes with HEAD then a refresh', async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "off" });
    fx.proxy.clearLog();
    expect(await driver.putIfAbsent("off/key", bytes("o"))).toEqual({ created: true });
    expect(await driver.putIfAbsent("off/key", bytes("other"))).toEqual({ created: false });
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      "HEAD 404",
      "PUT 200",
      "HEAD 200",
      "PUT 200",
    ]);
    expect(fx.proxy.requests.every((r) => r.headers["if-none-match"] === undefined)).toBe(true);
    expect(new TextDecoder().decode(await driver.get("off/key"))).toBe("o");
    await driver.close();
  });

  it('a server that rejects the condition (501 NotImplemented) makes "auto" fall back to HEAD-then-PUT', async () => {
    const driver = fx.driver({ via: "proxy" });
    fx.proxy.inject({
      match: { method: "PUT", key: /aref-probe\//, header: { "if-none-match": "*" } },
      fault: { status: 501, code: "NotImplemented" },
    });
    expect(await driver.conditionalWrites()).toBe("off");
    await driver.close();
  });

  it("a probe that cannot reach the server is an error, and the next call probes again", async () => {
    const driver = fx.driver({ via: "proxy", maxAttempts: 2 });
    fx.proxy.inject({ match: { method: "PUT", key: /aref-probe\// }, times: 2, fault: { status: 500 } });
    await expect(driver.putIfAbsent("p", bytes("p"))).rejects.toMatchObject({ code: "UNAVAILABLE" });
    expect(await driver.putIfAbsent("p", bytes("p"))).toEqual({ created: true });
    expect(await driver.conditionalWrites()).toBe("on");
    await driver.close();
  });

  it("two instances (separate clients) racing to create one key: exactly one wins", async () => {
    const bucket = fx.s3.createBucket();
    const a = fx.driver({ via: "proxy", bucket, conditionalWrites: "on" });
    const b = fx.driver({ via: "proxy", bucket, conditionalWrites: "on" });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).putIfAbsent("race", bytes(`writer ${i}`))),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.findIndex((r) => r.created);
    expect(new TextDecoder().decode(await a.get("race"))).toBe(`writer ${winner}`);
    // Seen through a raw SDK request too: the object is where the layout says.
    const head = await a.client.send(new HeadObjectCommand({ Bucket: bucket, Key: "race" }));
    expect(head.ContentLength).toBe(`writer ${winner}`.length);
    await a.close();
    await b.close();
  });
});

describe("versioned writes (putVersioned: If-Match / If-None-Match, returning the ETag)", () => {
  it("a write returns the object's ETag; If-Match on it replaces the value in one PUT, on another ETag is 412 and writes nothing", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on" });
    const first = await driver.putVersioned("refs/s/a.json", bytes('{"v":1}'));
    const head = await driver.client.send(
      new HeadObjectCommand({ Bucket: driver.bucket, Key: driver.objectKey("refs/s/a.json") }),
    );
    expect(first).toBe(head.ETag);
    fx.proxy.clearLog();
    const second = await driver.putVersioned("refs/s/a.json", bytes('{"v":2}'), { ifMatch: first! });
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status} ${r.headers["if-match"]}`)).toEqual([
      `PUT 200 ${first}`,
    ]);
    fx.proxy.clearLog();
    expect(await driver.putVersioned("refs/s/a.json", bytes('{"v":3}'), { ifMatch: first! })).toBeUndefined();
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 412"]);
    expect(new TextDecoder().decode(await driver.get("refs/s/a.json"))).toBe('{"v":2}');
    await driver.close();
  });

  it("If-Match on a key that is gone (404 NoSuchKey) writes nothing", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on" });
    const version = await driver.putVersioned("refs/s/gone.json", bytes("{}"));
    await driver.delete("refs/s/gone.json");
    fx.proxy.clearLog();
    expect(await driver.putVersioned("refs/s/gone.json", bytes("{}"), { ifMatch: version! })).toBeUndefined();
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 404"]);
    expect(await driver.head("refs/s/gone.json")).toBeUndefined();
    await driver.close();
  });

  it("two instances over one ETag: exactly one wins", async () => {
    const bucket = fx.s3.createBucket();
    const a = fx.driver({ via: "proxy", conditionalWrites: "on", bucket });
    const b = fx.driver({ via: "proxy", conditionalWrites: "on", bucket });
    const version = (await a.putVersioned("refs/s/race.json", bytes("start")))!;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).putVersioned("refs/s/race.json", bytes(`writer ${i}`), { ifMatch: version }),
      ),
    );
    const winners = results.flatMap((r, i) => (r === undefined ? [] : [i]));
    expect(winners).toHaveLength(1);
    expect(new TextDecoder().decode(await a.get("refs/s/race.json"))).toBe(`writer ${winners[0]}`);
    await a.close();
    await b.close();
  });

  it('"off" (a server that ignores conditions): an If-Match write is never sent; create-only is HEAD then PUT', async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "off" });
    const version = await driver.putVersioned("refs/s/off.json", bytes("one"), { ifAbsent: true });
    expect(version).toBeDefined();
    fx.proxy.clearLog();
    expect(await driver.putVersioned("refs/s/off.json", bytes("two"), { ifMatch: version! })).toBeUndefined();
    expect(await driver.putVersioned("refs/s/off.json", bytes("two"), { ifAbsent: true })).toBeUndefined();
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["HEAD 200"]);
    expect(new TextDecoder().decode(await driver.get("refs/s/off.json"))).toBe("one");
    await driver.close();
  });
});

describe('"auto" and If-Match', () => {
  it("the probe checks If-Match too: a server that enforces only If-None-Match gets no replace-only write (the store's usual path runs)", async () => {
    const partial = await startFaultProxy({ target: fx.s3.endpoint, enforceIfNoneMatch: true, enforceIfMatch: false });
    try {
      const driver = fx.driver({ endpoint: partial.endpoint });
      expect(await driver.conditionalWrites()).toBe("on");
      expect(partial.requests.filter((r) => r.key.includes("aref-probe/")).map((r) => r.method)).toEqual([
        "PUT",
        "PUT",
        "PUT",
        "DELETE",
      ]);
      const version = await driver.putVersioned("refs/s/partial.json", bytes("one"));
      partial.clearLog();
      expect(await driver.putVersioned("refs/s/partial.json", bytes("two"), { ifMatch: version! })).toBeUndefined();
      expect(partial.requests).toEqual([]);
      // If-None-Match is still used.
      expect(await driver.putVersioned("refs/s/partial.json", bytes("two"), { ifAbsent: true })).toBeUndefined();
      expect(new TextDecoder().decode(await driver.get("refs/s/partial.json"))).toBe("one");
      await driver.close();
    } finally {
      await partial.stop();
    }
  });

  it('"auto" against a server enforcing both sends the If-Match write', async () => {
    const driver = fx.driver({ via: "proxy" });
    const version = await driver.putVersioned("refs/s/auto.json", bytes("one"));
    expect(await driver.putVersioned("refs/s/auto.json", bytes("two"), { ifMatch: version! })).toBeDefined();
    expect(new TextDecoder().decode(await driver.get("refs/s/auto.json"))).toBe("two");
    await driver.close();
  });
});
