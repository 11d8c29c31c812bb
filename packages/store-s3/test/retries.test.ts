import { createServer } from "node:net";
import { isArefError } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { JitterRetryStrategy } from "@artifact-refs/store-s3";
import { useS3 } from "./support.js";

// Faults are real HTTP answers and real socket resets from the fault proxy.
const fx = useS3();
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => (data === undefined ? undefined : new TextDecoder().decode(data));

async function caught(
  promise: Promise<unknown>,
): Promise<Error & { code?: string; hint?: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("retries with backoff and jitter", () => {
  it("503 SlowDown is retried until the server answers", async () => {
    const driver = fx.driver({ via: "proxy" });
    await driver.put("throttled", bytes("ok"));
    fx.proxy.inject({ match: { method: "GET", key: "throttled" }, times: 2, fault: { status: 503, code: "SlowDown" } });
    fx.proxy.clearLog();
    expect(text(await driver.get("throttled"))).toBe("ok");
    expect(fx.proxy.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["GET 503", "GET 503", "GET 200"]);
    await driver.close();
  });

  it("500 on a PUT is retried and the value is stored once, intact", async () => {
    const driver = fx.driver({ via: "proxy" });
    fx.proxy.inject({
      match: { method: "PUT", key: "flaky-put" },
      times: 2,
      fault: { status: 500, code: "InternalError" },
    });
    await driver.put("flaky-put", bytes("value"));
    expect(text(await driver.get("flaky-put"))).toBe("value");
    expect(fx.proxy.count({ method: "PUT", key: "flaky-put" })).toBe(3);
    await driver.close();
  });

  it("a connection reset before the answer is retried (HEAD, LIST, conditional PUT)", async () => {
    const driver = fx.driver({ via: "proxy", conditionalWrites: "on" });
    await driver.put("reset/a", bytes("a"));
    fx.proxy.inject({ match: { method: "HEAD", key: "reset/a" }, fault: { reset: "before" } });
    fx.proxy.inject({ match: { method: "GET", query: "list-type=2" }, fault: { reset: "before" } });
    fx.proxy.inject({ match: { method: "PUT", key: "reset/b" }, fault: { reset: "before" } });
    expect((await driver.head("reset/a"))?.size).toBe(1);
    const keys = [];
    for await (const entry of driver.list("reset/")) keys.push(entry.key);
    expect(keys).toEqual(["reset/a"]);
    expect(await driver.putIfAbsent("reset/b", bytes("b"))).toEqual({ created: true });
    expect(fx.proxy.requests.filter((r) => r.status === -1)).toHaveLength(3);
    await driver.close();
  });

  it("a response body cut in the middle is read again", async () => {
    const driver = fx.driver({ via: "proxy" });
    const big = new Uint8Array(256 * 1024).map((_, i) => (i * 7) % 251);
    await driver.put("cut", big);
    fx.proxy.inject({ match: { method: "GET", key: "cut" }, fault: { reset: "mid-body" } });
    fx.proxy.clearLog();
    expect(await driver.get("cut")).toEqual(big);
    expect(fx.proxy.requests.map((r) => r.status)).toEqual([-2, 200]);
    await driver.close();
  });

  it("a body that stalls half-way is abandoned after requestTimeoutMs of silence and read again", async () => {
    const driver = fx.driver({ via: "proxy", requestTimeoutMs: 300 });
    const data = new Uint8Array(64 * 1024).map((_, i) => i % 253);
    await driver.put("stalled", data);
    fx.proxy.inject({ match: { method: "GET", key: "stalled" }, fault: { reset: "stall" } });
    fx.proxy.clearLog();
    expect(await driver.get("stalled")).toEqual(data);
    expect(fx.proxy.requests.map((r) => r.status)).toEqual([-3, 200]);
    await driver.close();
  });

  it("a request that outlives requestTimeoutMs is abandoned and retried", async () => {
    const driver = fx.driver({ via: "proxy", requestTimeoutMs: 300 });
    await driver.put("slow", bytes("eventually"));
    fx.proxy.inject({ match: { method: "GET", key: "slow" }, fault: { delayMs: 1_500 } });
    fx.proxy.clearLog();
    expect(text(await driver.get("slow"))).toBe("eventually");
    expect(fx.proxy.count({ method: "GET", key: "slow" })).toBe(2);
    await driver.close();
  });

  it("a failing page in the middle of a long listing is retried and nothing is lost or repeated", async () => {
    const driver = fx.driver({ via: "proxy", listPageSize: 10 });
    const keys = Array.from({ length: 35 }, (_, i) => `many/k${String(i).padStart(2, "0")}`);
    await Promise.all(keys.map((k) => driver.put(k, bytes(k))));
    fx.proxy.inject({
      match: { method: "GET", query: /continuation-token/ },
      times: 2,
      fault: { status: 503, code: "SlowDown" },
    });
    fx.proxy.clearLog();
    const listed = [];
    for await (const entry of driver.list("many/")) listed.push(entry.key);
    expect(listed.sort()).toEqual(keys);
    expect(fx.proxy.count({ method: "GET", query: "list-type=2" })).toBe(4 + 2);
    await driver.close();
  });

  it("after the last attempt: UNAVAILABLE naming the operation, key, attempts and last status, with a hint", async () => {
    const driver = fx.driver({ via: "proxy", maxAttempts: 4, prefix: "tenant" });
    fx.proxy.inject({
      match: { method: "PUT", key: "tenant/down" },
      times: Infinity,
      fault: { status: 503, code: "SlowDown" },
    });
    fx.proxy.clearLog();
    const error = await caught(driver.put("down", bytes("x")));
    fx.proxy.clearFaults();
    expect(isArefError(error)).toBe(true);
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.message).toContain("PutObject");
    expect(error.message).toContain("tenant/down");
    expect(error.message).toContain("4 attempts");
    expect(error.message).toContain("HTTP 503 SlowDown");
    expect(error.hint).toMatch(/throttling/);
    expect(error.details).toMatchObject({
      operation: "PutObject",
      key: "tenant/down",
      attempts: 4,
      status: 503,
      s3_code: "SlowDown",
    });
    expect(fx.proxy.count({ method: "PUT", key: "tenant/down" })).toBe(4);
    await driver.close();
  });

  it("resets on every attempt end in UNAVAILABLE too", async () => {
    const driver = fx.driver({ via: "proxy", maxAttempts: 3 });
    fx.proxy.inject({ match: { method: "HEAD", key: "gone-away" }, times: Infinity, fault: { reset: "before" } });
    const error = await caught(driver.head("gone-away"));
    fx.proxy.clearFaults();
    expect(error).toMatchObject({ code: "UNAVAILABLE", details: { attempts: 3, status: 0 } });
    expect(error.message).toMatch(/HeadObject.*gone-away.*3 attempts.*no response/);
    await driver.close();
  });

  it("a server that is not there: UNAVAILABLE after the attempts", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const driver = fx.driver({ endpoint: `http://127.0.0.1:${port}`, bucket: "nowhere", maxAttempts: 2 });
    const error = await caught(driver.get("x"));
    expect(error).toMatchObject({ code: "UNAVAILABLE", details: { attempts: 2 } });
    expect(error.message).toContain("ECONNREFUSED");
    await driver.close();
  });

  it("403 AccessDenied is not retried: FORBIDDEN pointing at the IAM policy", async () => {
    const driver = fx.driver({ via: "proxy" });
    fx.proxy.inject({ match: { method: "GET", key: "secret" }, fault: { status: 403, code: "AccessDenied" } });
    fx.proxy.clearLog();
    const error = await caught(driver.get("secret"));
    expect(error).toMatchObject({ code: "FORBIDDEN" });
    expect(error.hint).toMatch(/IAM policy/);
    expect(fx.proxy.count({ key: "secret" })).toBe(1);
    await driver.close();
  });

  it("a missing bucket is CONFIG_INVALID saying so", async () => {
    const driver = fx.driver({ bucket: "no-such-bucket-here" });
    const error = await caught(driver.get("layout.json"));
    expect(error).toMatchObject({ code: "CONFIG_INVALID" });
    expect(error.message).toContain("bucket no-such-bucket-here does not exist");
    await driver.close();
  });

  it("the backoff is exponential with full jitter, capped, and longer for throttling", async () => {
    const policy = { maxAttempts: 6, retryBaseDelayMs: 100, throttleBaseDelayMs: 500, retryMaxDelayMs: 1_000 };
    const strategy = new JitterRetryStrategy(policy);
    const delays: number[] = [];
    let token = await strategy.acquireInitialRetryToken("");
    for (let i = 0; i < 5; i++) {
      token = await strategy.refreshRetryTokenForRetry(token, { errorType: "TRANSIENT" });
      delays.push(token.getRetryDelay());
    }
    const caps = [100, 200, 400, 800, 1_000];
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(caps[i]!);
    });
    await expect(strategy.refreshRetryTokenForRetry(token, { errorType: "TRANSIENT" })).rejects.toThrow(/no retry/);
    const first = await strategy.acquireInitialRetryToken("");
    await expect(strategy.refreshRetryTokenForRetry(first, { errorType: "CLIENT_ERROR" })).rejects.toThrow(/no retry/);
    // Throttling draws from a wider window: over many draws some exceed the error base.
    const throttled = await Promise.all(
      Array.from({ length: 200 }, () => strategy.refreshRetryTokenForRetry(first, { errorType: "THROTTLING" })),
    );
    expect(Math.max(...throttled.map((t) => t.getRetryDelay()))).toBeGreaterThan(100);
    expect(Math.max(...throttled.map((t) => t.getRetryDelay()))).toBeLessThan(500);
  });
});
