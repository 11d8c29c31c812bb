import { ArefError, formatIssues } from "@artifact-refs/schema";
import type { S3Client, S3ClientConfig } from "@aws-sdk/client-s3";
import { z } from "zod";

/**
 * How `putIfAbsent` creates a key once:
 * - "on": `PutObject` with `If-None-Match: *`; 412 means "already stored". One request per
 *   new key, no HEAD. Needs a server that enforces the condition (AWS S3, MinIO, R2).
 * - "off": HEAD, then an unconditional PUT when absent, serialized per key inside this
 *   process. Two requests per new key; two *processes* creating the same key at the same
 *   moment can both report `created: true` (harmless for content-addressed blobs, whose
 *   bytes are identical; for metadata records the last writer's record wins).
 * - "auto" (default): once per driver, probe the server (two conditional PUTs of a scratch
 *   key, one DELETE) and use "on" when it enforces the condition, else "off".
 */
export type ConditionalWrites = "auto" | "on" | "off";

export interface S3DriverOptions {
  /** Bucket name (3-63 chars: lowercase letters, digits, '.', '-'). */
  bucket: string;
  /** Key prefix inside the bucket ("team/agents"); objects live at `${prefix}/${key}`. Default: none. */
  prefix?: string;
  /** S3-compatible endpoint (MinIO, R2, a local server): http(s) URL. Default: AWS S3 for the region. */
  endpoint?: string;
  /** Region. Default: the SDK chain (AWS_REGION, ~/.aws/config); "us-east-1" when an endpoint is given and nothing else says. R2: "auto". */
  region?: string;
  /** Path-style URLs (`endpoint/bucket/key`), needed by MinIO and most local servers. */
  forcePathStyle?: boolean;
  /** A ready client (yours to configure and to destroy: `close()` leaves it open). Overrides endpoint/region/retry options. */
  client?: S3Client;
  /** Extra S3Client settings (credentials, requestHandler, logger, ...), applied over the driver's defaults. */
  clientConfig?: S3ClientConfig;
  /** Create-once strategy, see ConditionalWrites. Default "auto". */
  conditionalWrites?: ConditionalWrites;
  /**
   * When putIfAbsent finds the key stored, copy the object onto itself (one CopyObject) so
   * its LastModified moves to now and gc's grace rule protects a blob just re-used. Default true.
   */
  refreshOnDedupe?: boolean;
  /** Attempts per request, first included (throttling, 5xx, timeouts, resets, 409 conflicts). Default 5. */
  maxAttempts?: number;
  /** Backoff: full jitter, random in [0, min(max, base × 2^retry)). Base for errors, default 100 ms. */
  retryBaseDelayMs?: number;
  /** Base for throttling (503 SlowDown, 429), default 500 ms. */
  throttleBaseDelayMs?: number;
  /** Cap of one backoff delay, default 20 s. */
  retryMaxDelayMs?: number;
  /** Time one request (one part of a multipart upload) may take, answer included; then it is abandoned and retried. Default 60 s. */
  requestTimeoutMs?: number;
  /** Connection timeout, default 5 s. */
  connectionTimeoutMs?: number;
  /** Objects larger than this go up as a multipart upload (`@aws-sdk/lib-storage`). Default 64 MiB (S3's single PUT limit is 5 GiB). */
  multipartThresholdBytes?: number;
  /** Part size of multipart uploads, ≥ 5 MiB. Default 16 MiB. */
  multipartPartSizeBytes?: number;
  /** Page size of ListObjectsV2 (1-1000). Default 1000. */
  listPageSize?: number;
}

const MIB = 1024 * 1024;
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_RE = /^[A-Za-z0-9._:-]+(\/[A-Za-z0-9._:-]+)*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

const OptionsSchema = z
  .object({
    bucket: z
      .string()
      .regex(
        BUCKET_RE,
        "must be 3-63 chars of lowercase letters, digits, '.' and '-', starting and ending with a letter or digit",
      ),
    prefix: z
      .string()
      .transform((p) => p.replace(/^\/+/, "").replace(/\/+$/, ""))
      .refine(
        (p) => p === "" || PREFIX_RE.test(p),
        "may only contain letters, digits, '.', '_', ':', '-' and single '/' separators",
      )
      .refine((p) => !p.split("/").some((s) => s === "." || s === ".."), "must not contain '.' or '..' segments")
      .default(""),
    endpoint: z
      .string()
      .refine((e) => {
        try {
          const url = new URL(e);
          return url.protocol === "http:" || url.protocol === "https:";
        } catch {
          return false;
        }
      }, "must be an http(s) URL")
      .optional(),
    region: z.string().min(1).max(64).optional(),
    forcePathStyle: z.boolean().optional(),
    client: z.custom<S3Client>((v) => isObject(v) && typeof v.send === "function", "must be an S3Client").optional(),
    clientConfig: z.custom<S3ClientConfig>((v) => isObject(v), "must be an object of S3Client settings").optional(),
    conditionalWrites: z.enum(["auto", "on", "off"]).default("auto"),
    refreshOnDedupe: z.boolean().default(true),
    maxAttempts: z.number().int().min(1).max(20).default(5),
    retryBaseDelayMs: z.number().min(0).max(60_000).default(100),
    throttleBaseDelayMs: z.number().min(0).max(60_000).default(500),
    retryMaxDelayMs: z.number().min(0).max(300_000).default(20_000),
    requestTimeoutMs: z.number().int().min(1).max(3_600_000).default(60_000),
    connectionTimeoutMs: z.number().int().min(1).max(600_000).default(5_000),
    multipartThresholdBytes: z
      .number()
      .int()
      .min(5 * MIB)
      .max(5 * 1024 * MIB)
      .default(64 * MIB),
    multipartPartSizeBytes: z
      .number()
      .int()
      .min(5 * MIB)
      .max(5 * 1024 * MIB)
      .default(16 * MIB),
    listPageSize: z.number().int().min(1).max(1000).default(1000),
  })
  .strict();

export type ResolvedOptions = z.output<typeof OptionsSchema>;

/** Validates the options; CONFIG_INVALID names each bad field. */
export function resolveOptions(options: S3DriverOptions): ResolvedOptions {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new ArefError("CONFIG_INVALID", `invalid S3 driver options: ${formatIssues(parsed.error)}`, {
      hint: "see the @artifact-refs/store-s3 README for the options (bucket, prefix, endpoint, region, forcePathStyle, ...)",
    });
  }
  return parsed.data;
}
