import sizes from "bytes-iec";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { ArefError } from "@artifact-refs/schema";
import { z } from "zod";

/** Longest S3 key prefix: S3 keys are at most 1,024 bytes and the store's own keys take up to about 200. */
const MAX_S3_PREFIX = 800;

const httpUrl = z.string().refine((v) => {
  try {
    return ["http:", "https:"].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}, "must be an http(s) URL");

/** A parsed store spec; `openDriver`/`openStore` validate an object spec with it. */
export const StoreSpecSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("memory"),
      name: z.string().regex(/^[A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only"),
    })
    .strict(),
  z
    .object({
      kind: z.literal("fs"),
      root: z
        .string()
        .min(1)
        .refine((v) => !v.includes("\u0000"), "must not contain a NUL character"),
      gzip: z.boolean(),
      maxBytes: z.number().int().positive().optional(),
      /** The store-wide gc grace floor recorded when the store is created (see ArtifactStoreOptions.gcGraceFloorMs). */
      gcGraceFloorMs: z.number().int().nonnegative().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal("s3"),
      bucket: z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "3-63 chars of lowercase letters, digits, '.' and '-'"),
      prefix: z
        .string()
        .max(MAX_S3_PREFIX)
        .regex(/^[A-Za-z0-9._:/-]*$/, "letters, digits, '.', '_', ':', '-' and '/' only")
        .refine((v) => !v.split("/").some((seg) => seg === "." || seg === ".."), "no '.' or '..' segments"),
      endpoint: httpUrl.optional(),
      region: z.string().min(1).optional(),
      forcePathStyle: z.boolean().optional(),
      /** "on" for servers that enforce If-None-Match (AWS S3, R2, MinIO), "off" for HEAD-then-PUT, "auto" to probe once. */
      conditionalWrites: z.enum(["auto", "on", "off"]).optional(),
      /** Cap of one artifact in bytes (the store's maxBytes; default 1 GiB). */
      maxBytes: z.number().int().positive().optional(),
      /** The store-wide gc grace floor recorded when the store is created (see ArtifactStoreOptions.gcGraceFloorMs). */
      gcGraceFloorMs: z.number().int().nonnegative().optional(),
    })
    .strict(),
]);
export type StoreSpec = z.infer<typeof StoreSpecSchema>;

/** The store used when neither --store nor AREF_STORE is given: ~/.artifact-refs/store. */
export function defaultStoreLocation(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME ?? homedir(), ".artifact-refs", "store");
}

/** --store wins, then AREF_STORE, then the default location. */
export function storeSpecFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? env.AREF_STORE ?? defaultStoreLocation(env);
}

function bad(spec: string, why: string): ArefError {
  // never echo credentials, whichever check fails first
  const shown = spec.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1***@");
  return new ArefError("CONFIG_INVALID", `invalid store spec ${JSON.stringify(shown)}: ${why}`, {
    hint: "use a directory (./store, file:///abs/dir, optionally ?gzip=true&maxBytes=2GiB), memory:, or s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true",
  });
}

const BOOL: Record<string, boolean> = { true: true, "1": true, yes: true, false: false, "0": false, no: false };

function flag(spec: string, params: URLSearchParams, name: string): boolean | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  const parsed = BOOL[value.toLowerCase()];
  if (parsed === undefined) throw bad(spec, `${name} must be true or false, got ${JSON.stringify(value)}`);
  return parsed;
}

/** `?maxBytes=` (bytes, or with KiB/MiB/GiB; bytes-iec reads the unit): the store's cap of one artifact. */
function maxBytesParam(spec: string, params: URLSearchParams): { maxBytes?: number } {
  const value = params.get("maxBytes");
  if (value === null) return {};
  const bytes = /^\d+(KiB|MiB|GiB)?$/.test(value) ? (sizes.parse(value) ?? Number.NaN) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw bad(
      spec,
      `maxBytes must be a whole number of bytes (optionally with KiB, MiB or GiB), got ${JSON.stringify(value)}`,
    );
  return { maxBytes: bytes };
}

/**
 * `?gcGraceFloorMs=` (whole milliseconds): the store-wide gc grace floor recorded when the store is
 * created; puts into a session skip a refresh request when it is set (see the store README).
 */
function floorParam(spec: string, params: URLSearchParams): { gcGraceFloorMs?: number } {
  const value = params.get("gcGraceFloorMs");
  if (value === null) return {};
  const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(ms))
    throw bad(spec, `gcGraceFloorMs must be a whole number of milliseconds, got ${JSON.stringify(value)}`);
  return { gcGraceFloorMs: ms };
}

function checkParams(spec: string, params: URLSearchParams, allowed: string[]): void {
  const seen = new Set<string>();
  for (const [key, value] of params) {
    if (!allowed.includes(key))
      throw bad(spec, `unknown option ${JSON.stringify(key)} (allowed: ${allowed.join(", ") || "none"})`);
    if (seen.has(key)) throw bad(spec, `the option ${key} is given twice`);
    if (value.trim() === "") throw bad(spec, `the option ${key} is empty`);
    seen.add(key);
  }
}

/**
 * Parses a store spec: `memory:` (optionally `memory:name`), a directory path or
 * `file://` URL (`?gzip=true` compresses blobs), or `s3://bucket/prefix?endpoint=…&region=…&forcePathStyle=true`.
 */
export function parseStoreSpec(spec: string, cwd: string = process.cwd()): StoreSpec {
  if (typeof spec !== "string" || spec.trim() === "") throw bad(String(spec), "empty");
  if (spec.includes("\u0000")) throw bad(spec, "contains a NUL character");
  if (spec === "memory:" || spec.startsWith("memory:")) {
    const name = spec.slice("memory:".length);
    if (!/^[A-Za-z0-9._-]*$/.test(name))
      throw bad(spec, "a memory store name may only contain letters, digits, '.', '_' and '-'");
    return { kind: "memory", name };
  }
  if (/^(s3|file):(?!\/\/)/i.test(spec))
    throw bad(spec, "write s3://bucket/prefix or file:///abs/dir (with the two slashes)");
  if (/^(s3|file):\/\//i.test(spec) && !/^(s3|file):\/\//.test(spec))
    throw bad(spec, "write the scheme in lowercase (s3://, file://)");
  if (/^memory:/i.test(spec)) throw bad(spec, "write the scheme in lowercase (memory:)");
  if (spec.startsWith("s3://")) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      throw bad(spec, "not a valid URL");
    }
    const bucket = url.hostname;
    if (url.username !== "" || url.password !== "")
      throw bad(
        spec.replace(/\/\/[^/]*@/, "//***@"),
        "credentials do not belong in the store spec; use the AWS environment variables or profile",
      );
    if (url.port !== "")
      throw bad(spec, "the bucket cannot have a port; put host and port in ?endpoint=http://host:port");
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
      throw bad(spec, "the bucket name must be 3-63 chars of lowercase letters, digits, '.' and '-'");
    checkParams(spec, url.searchParams, [
      "endpoint",
      "region",
      "forcePathStyle",
      "conditionalWrites",
      "maxBytes",
      "gcGraceFloorMs",
    ]);
    let prefix: string;
    try {
      prefix = decodeURIComponent(url.pathname).replace(/^\/+/, "").replace(/\/+$/, "");
    } catch {
      throw bad(spec, "the key prefix has a malformed %-escape");
    }
    if (prefix.split("/").some((s) => s === ".." || s === "."))
      throw bad(spec, "the key prefix must not contain '.' or '..' segments");
    if (prefix !== "" && !/^[A-Za-z0-9._:/-]+$/.test(prefix))
      throw bad(spec, "the key prefix may only contain letters, digits, '.', '_', ':', '-' and '/'");
    if (prefix.length > MAX_S3_PREFIX)
      throw bad(`${spec.slice(0, 80)}…`, `the key prefix is ${prefix.length} chars, over ${MAX_S3_PREFIX}`);
    const endpoint = url.searchParams.get("endpoint") ?? undefined;
    if (endpoint !== undefined) {
      try {
        const e = new URL(endpoint);
        if (e.protocol !== "http:" && e.protocol !== "https:") throw new Error();
      } catch {
        throw bad(spec, `endpoint must be an http(s) URL, got ${JSON.stringify(endpoint)}`);
      }
    }
    const region = url.searchParams.get("region") ?? undefined;
    const forcePathStyle = flag(spec, url.searchParams, "forcePathStyle");
    const conditionalWrites = url.searchParams.get("conditionalWrites") ?? undefined;
    if (conditionalWrites !== undefined && !["auto", "on", "off"].includes(conditionalWrites)) {
      throw bad(spec, `conditionalWrites must be auto, on or off, got ${JSON.stringify(conditionalWrites)}`);
    }
    return {
      kind: "s3",
      bucket,
      prefix,
      ...(endpoint === undefined ? {} : { endpoint }),
      ...(region === undefined ? {} : { region }),
      ...(forcePathStyle === undefined ? {} : { forcePathStyle }),
      ...(conditionalWrites === undefined ? {} : { conditionalWrites: conditionalWrites as "auto" | "on" | "off" }),
      ...maxBytesParam(spec, url.searchParams),
      ...floorParam(spec, url.searchParams),
    };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec) && !spec.startsWith("file://")) throw bad(spec, "unknown scheme");
  let path = spec;
  let params = new URLSearchParams();
  if (spec.startsWith("file://")) {
    let url: URL;
    try {
      url = new URL(spec);
      path = decodeURIComponent(url.pathname);
    } catch {
      throw bad(spec, "not a valid file:// URL");
    }
    if (url.host !== "" && url.host !== "localhost")
      throw bad(
        spec,
        `a file:// URL must name a local path (file:///abs/dir), not the host ${JSON.stringify(url.host)}`,
      );
    params = url.searchParams;
  } else if (spec.includes("?")) {
    const at = spec.indexOf("?");
    path = spec.slice(0, at);
    params = new URLSearchParams(spec.slice(at + 1));
  }
  checkParams(spec, params, ["gzip", "maxBytes", "gcGraceFloorMs"]);
  if (path.includes("\u0000")) throw bad(spec, "the path contains a NUL character");
  if (path.trim() === "") throw bad(spec, "no directory before the options");
  // "~" is the home directory, as in a shell (a quoted AREF_STORE="~/store" is not expanded by the shell)
  if (path === "~" || path.startsWith("~/")) path = join(homedir(), path.slice(1));
  return {
    kind: "fs",
    root: isAbsolute(path) ? path : resolve(cwd, path),
    gzip: flag(spec, params, "gzip") ?? false,
    ...maxBytesParam(spec, params),
    ...floorParam(spec, params),
  };
}

/** The spec written back as a string (for messages and receipts); never includes credentials. */
export function formatStoreSpec(spec: StoreSpec): string {
  switch (spec.kind) {
    case "memory":
      return `memory:${spec.name}`;
    case "fs": {
      const params = new URLSearchParams();
      if (spec.gzip) params.set("gzip", "true");
      if (spec.maxBytes !== undefined) params.set("maxBytes", String(spec.maxBytes));
      if (spec.gcGraceFloorMs !== undefined) params.set("gcGraceFloorMs", String(spec.gcGraceFloorMs));
      const query = params.toString();
      return query ? `${spec.root}?${query}` : spec.root;
    }
    case "s3": {
      const params = new URLSearchParams();
      if (spec.endpoint) params.set("endpoint", spec.endpoint);
      if (spec.region) params.set("region", spec.region);
      if (spec.forcePathStyle !== undefined) params.set("forcePathStyle", String(spec.forcePathStyle));
      if (spec.conditionalWrites !== undefined) params.set("conditionalWrites", spec.conditionalWrites);
      if (spec.maxBytes !== undefined) params.set("maxBytes", String(spec.maxBytes));
      if (spec.gcGraceFloorMs !== undefined) params.set("gcGraceFloorMs", String(spec.gcGraceFloorMs));
      const query = params.toString();
      return `s3://${spec.bucket}/${spec.prefix}${query ? `?${query}` : ""}`;
    }
  }
}
