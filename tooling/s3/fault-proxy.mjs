// A small HTTP proxy in front of an S3-compatible server (path-style requests) that injects
// faults on chosen requests, so retries and create-once paths are tested over the wire:
// error statuses with S3 error bodies (412, 409, 503 SlowDown, 500, ...), delays, and
// connection resets (before the response, or in the middle of a response body), and bodies
// that stall half-way.
//
// With `enforceIfNoneMatch`, it also does what no local server does: a PUT (or a
// CompleteMultipartUpload) carrying `If-None-Match: *` is answered 412 PreconditionFailed
// when the key exists, and a PUT carrying `If-Match` is answered 412 when the key's ETag differs
// (404 NoSuchKey when it is missing). Checks and writes of one key are serialized inside the
// proxy, so exactly one of several concurrent conditional writers wins, as on AWS S3.
//
//   const proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
//   proxy.inject({ match: { method: "PUT", key: /blobs\// }, times: 2, fault: { status: 503, code: "SlowDown" } });
//   proxy.requests  // every request seen: { method, bucket, key, query, status, fault, headers }
import http from "node:http";

const XML = (code, message, extra = "") =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${extra}<RequestId>fault-proxy</RequestId></Error>`;

const DEFAULT_MESSAGES = {
  PreconditionFailed: "At least one of the pre-conditions you specified did not hold",
  ConditionalRequestConflict:
    "A conflicting conditional operation is currently in progress against this resource. Please try again.",
  SlowDown: "Please reduce your request rate.",
  InternalError: "We encountered an internal error. Please try again.",
  ServiceUnavailable: "Service is unable to handle request.",
  AccessDenied: "Access Denied",
};
const DEFAULT_CODES = {
  400: "BadRequest",
  403: "AccessDenied",
  409: "ConditionalRequestConflict",
  412: "PreconditionFailed",
  500: "InternalError",
  503: "SlowDown",
};

function parseTarget(req) {
  const url = new URL(req.url ?? "/", "http://proxy.invalid");
  const parts = url.pathname.split("/").slice(1);
  const bucket = decodeURIComponent(parts[0] ?? "");
  const key = parts.length > 1 ? parts.slice(1).map(decodeURIComponent).join("/") : "";
  return { bucket, key, query: url.search.slice(1), searchParams: url.searchParams };
}

function matches(rule, info) {
  const m = rule.match ?? {};
  if (m.method && m.method.toUpperCase() !== info.method) return false;
  if (m.bucket !== undefined && m.bucket !== info.bucket) return false;
  if (m.key !== undefined && !(m.key instanceof RegExp ? m.key.test(info.key) : info.key === m.key)) return false;
  if (m.query !== undefined && !(m.query instanceof RegExp ? m.query.test(info.query) : info.query.includes(m.query)))
    return false;
  if (
    m.header !== undefined &&
    !Object.entries(m.header).every(([name, want]) => {
      const got = info.headers[name.toLowerCase()];
      return want === true ? got !== undefined : want === false ? got === undefined : got === want;
    })
  )
    return false;
  if (m.predicate && !m.predicate(info)) return false;
  return true;
}

const unquote = (etag) => etag.replace(/^W\//, "").replaceAll('"', "");

async function drain(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Starts the proxy on 127.0.0.1 and a free port. */
export async function startFaultProxy({
  target,
  enforceIfNoneMatch = false,
  enforceIfMatch = enforceIfNoneMatch,
  port = 0,
} = {}) {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const rules = [];
  const requests = [];
  const locks = new Map(); // key -> tail promise (serializes conditional creates per key)
  const stalled = new Set(); // responses held open by "stall" faults

  function withKeyLock(key, fn) {
    const previous = locks.get(key) ?? Promise.resolve();
    let release;
    const current = new Promise((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    locks.set(key, tail);
    return previous.then(async () => {
      try {
        return await fn();
      } finally {
        release();
        if (locks.get(key) === tail) locks.delete(key);
      }
    });
  }

  function upstreamRequest(method, path, headers, body) {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method,
          path,
          headers: { ...headers, host: headers.host ?? upstream.host },
          agent,
        },
        (response) => {
          const chunks = [];
          response.on("data", (c) => chunks.push(c));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }),
          );
          response.on("error", reject);
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  }

  function sendError(res, status, code, message, extra) {
    const body = XML(code, message ?? DEFAULT_MESSAGES[code] ?? code, extra);
    res.writeHead(status, {
      "content-type": "application/xml",
      "content-length": Buffer.byteLength(body),
      "x-amz-request-id": "fault-proxy",
    });
    res.end(body);
  }

  const server = http.createServer(async (req, res) => {
    const info = { method: req.method ?? "GET", headers: req.headers, ...parseTarget(req) };
    const entry = {
      method: info.method,
      bucket: info.bucket,
      key: info.key,
      query: info.query,
      headers: { ...req.headers },
      status: 0,
      fault: undefined,
    };
    requests.push(entry);
    try {
      const body = await drain(req);
      entry.bodyBytes = body.byteLength;
      const rule = rules.find((r) => r.remaining > 0 && matches(r, info));
      let fault;
      if (rule) {
        rule.remaining--;
        rule.hits++;
        fault = rule.fault;
        entry.fault = fault.reset
          ? `reset:${fault.reset}`
          : fault.status
            ? String(fault.status)
            : fault.delayMs !== undefined
              ? `delay:${fault.delayMs}`
              : "fault";
      }
      if (fault?.reset === "before") {
        entry.status = -1;
        req.socket.destroy();
        return;
      }
      if (fault?.status) {
        entry.status = fault.status;
        const code = fault.code ?? DEFAULT_CODES[fault.status] ?? "InternalError";
        if (fault.retryAfterSeconds !== undefined) res.setHeader("retry-after", String(fault.retryAfterSeconds));
        if (info.method === "HEAD") {
          res.writeHead(fault.status, { "x-amz-request-id": "fault-proxy" });
          res.end();
        } else sendError(res, fault.status, code, fault.message);
        return;
      }
      if (fault?.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));

      const forward = () => upstreamRequest(info.method, req.url ?? "/", req.headers, body);
      const write =
        info.key !== "" &&
        ((info.method === "PUT" && !req.headers["x-amz-copy-source"] && !info.searchParams.has("partNumber")) ||
          (info.method === "POST" && info.searchParams.has("uploadId")));
      const ifNoneMatch = write && req.headers["if-none-match"] === "*";
      const ifMatch = enforceIfMatch && write && info.method === "PUT" ? req.headers["if-match"] : undefined;
      // Checks and writes of one key are serialized (plain PUTs and DELETEs too, so that nothing lands
      // between a condition's check and its write).
      const serialized = enforceIfNoneMatch && info.key !== "" && (write || info.method === "DELETE");
      const response = serialized
        ? await withKeyLock(`${info.bucket}/${info.key}`, async () => {
            if (!ifNoneMatch && ifMatch === undefined) return forward();
            const path = `/${encodeURIComponent(info.bucket)}/${info.key.split("/").map(encodeURIComponent).join("/")}`;
            const head = await upstreamRequest("HEAD", path, { host: upstream.host }, undefined);
            if (ifNoneMatch && head.status === 200) return { precondition: "If-None-Match" };
            if (ifMatch !== undefined) {
              // As AWS S3: If-Match on a missing key is 404 NoSuchKey, on another ETag 412.
              if (head.status === 404) return { missing: true };
              if (unquote(String(head.headers.etag ?? "")) !== unquote(String(ifMatch)))
                return { precondition: "If-Match" };
            }
            return forward();
          })
        : await forward();
      if (response.precondition) {
        entry.status = 412;
        entry.enforced = true;
        sendError(res, 412, "PreconditionFailed", undefined, `<Condition>${response.precondition}</Condition>`);
        return;
      }
      if (response.missing) {
        entry.status = 404;
        entry.enforced = true;
        sendError(res, 404, "NoSuchKey", "The specified key does not exist.");
        return;
      }
      entry.status = response.status;
      const headers = { ...response.headers };
      delete headers["transfer-encoding"];
      delete headers.connection;
      if (fault?.reset === "stall" && response.body.byteLength > 1) {
        // Half the body, then silence: the client's idle timeout must give up on it.
        entry.status = -3;
        headers["content-length"] = String(response.body.byteLength);
        res.writeHead(response.status, headers);
        res.write(response.body.subarray(0, Math.floor(response.body.byteLength / 2)));
        stalled.add(res);
        res.on("close", () => stalled.delete(res));
        return;
      }
      if (fault?.reset === "mid-body" && response.body.byteLength > 1) {
        entry.status = -2;
        headers["content-length"] = String(response.body.byteLength);
        res.writeHead(response.status, headers);
        res.write(response.body.subarray(0, Math.floor(response.body.byteLength / 2)), () => req.socket.destroy());
        return;
      }
      if (info.method !== "HEAD") headers["content-length"] = String(response.body.byteLength);
      res.writeHead(response.status, headers);
      res.end(info.method === "HEAD" ? undefined : response.body);
    } catch (error) {
      entry.status = 502;
      entry.error = String(error);
      if (!res.headersSent) sendError(res, 502, "BadGateway", `fault proxy: ${String(error)}`);
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const endpoint = `http://127.0.0.1:${address.port}`;

  return {
    endpoint,
    port: address.port,
    /** Every request seen, in arrival order. */
    requests,
    /** Adds a fault rule; the first matching rule with hits left applies. */
    inject(rule) {
      const handle = { match: rule.match ?? {}, fault: rule.fault, remaining: rule.times ?? 1, hits: 0 };
      rules.push(handle);
      return handle;
    },
    /** Removes every fault rule. */
    clearFaults() {
      rules.length = 0;
    },
    /** Forgets the request log. */
    clearLog() {
      requests.length = 0;
    },
    /** Requests logged so far that match a rule's `match` shape. */
    count(match = {}) {
      return requests.filter((r) => matches({ match }, { ...r, searchParams: new URLSearchParams(r.query) })).length;
    },
    async stop() {
      for (const res of stalled) res.destroy();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
