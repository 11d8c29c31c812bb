import { randomUUID } from "node:crypto";
import { ArefError } from "@artifact-refs/schema";
import {
  assertValidKey,
  assertValidListPrefix,
  isValidKey,
  type Driver,
  type DeleteOptions,
  type DriverEntry,
  type PutIfAbsentOptions,
  type VersionCondition,
  type VersionedValue,
} from "@artifact-refs/store";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { codeOf, isMissingKey, isTransientNetworkError, statusOf, toArefError } from "./errors.js";
import { KeyLock } from "./key-lock.js";
import { resolveOptions, type ResolvedOptions, type S3DriverOptions } from "./options.js";
import { JitterRetryStrategy, backoffDelay } from "./retry.js";

const PROBE_PREFIX = "aref-probe/";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const checkKey = assertValidKey;
const checkListPrefix = assertValidListPrefix;

const contentTypeOf = (key: string) => (key.endsWith(".json") ? "application/json" : "application/octet-stream");
const isPreconditionFailed = (error: unknown) => statusOf(error) === 412 || codeOf(error) === "PreconditionFailed";
/** Answers of servers that do not implement `If-None-Match` on PUT at all. */
const isConditionUnsupported = (error: unknown) =>
  statusOf(error) === 501 || ["NotImplemented", "InvalidArgument", "InvalidRequest"].includes(codeOf(error));

/** Builds the S3Client the driver uses when none is injected: retries, timeouts, checksums. */
export function createS3Client(options: ResolvedOptions): S3Client {
  const region =
    options.region ??
    options.clientConfig?.region ??
    process.env.AWS_REGION ??
    process.env.AWS_DEFAULT_REGION ??
    (options.endpoint ? "us-east-1" : undefined);
  const config: S3ClientConfig = {
    ...(region === undefined ? {} : { region }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.forcePathStyle === undefined ? {} : { forcePathStyle: options.forcePathStyle }),
    maxAttempts: options.maxAttempts,
    retryStrategy: new JitterRetryStrategy(options),
    // requestTimeout covers a request until its answer's headers; socketTimeout (idle) covers a
    // body that stalls half-way, which get() then reads again.
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: options.requestTimeoutMs,
    },
    ...options.clientConfig,
  };
  return new S3Client(config);
}

/**
 * Driver over S3 and S3-compatible stores (AWS S3, MinIO, Cloudflare R2, ...).
 * Objects live at `${prefix}/${key}`. Create-once writes use `If-None-Match: *` where the
 * server enforces it (see ConditionalWrites); every PUT carries a SHA-256 checksum the
 * server verifies; throttling, 5xx, timeouts and connection resets are retried with
 * exponential backoff and full jitter; objects over `multipartThresholdBytes` go up as
 * multipart uploads.
 */
export class S3Driver implements Driver {
  readonly kind = "s3";
  /** Each request is a network round trip: the store writes instead of probing and reading back (verifyOnDedupe off). */
  readonly remote = true;
  readonly location: string;
  readonly bucket: string;
  readonly prefix: string;
  readonly #options: ResolvedOptions;
  readonly #client: S3Client;
  readonly #ownsClient: boolean;
  readonly #lock = new KeyLock();
  #mode: Promise<"on" | "off"> | undefined;
  /** Whether the server enforces `If-Match` on PUT: true with "on", probed with "auto" (a server may enforce only If-None-Match). */
  #ifMatch = false;

  constructor(options: S3DriverOptions) {
    this.#options = resolveOptions(options);
    this.bucket = this.#options.bucket;
    this.prefix = this.#options.prefix;
    this.location = `s3://${this.bucket}/${this.prefix}`;
    this.#ownsClient = this.#options.client === undefined;
    this.#client = this.#options.client ?? createS3Client(this.#options);
    if (this.#options.conditionalWrites !== "auto") this.#mode = Promise.resolve(this.#options.conditionalWrites);
    this.#ifMatch = this.#options.conditionalWrites === "on";
  }

  /** The SDK client (for callers that need a raw request against the same bucket). */
  get client(): S3Client {
    return this.#client;
  }

  /** The object key in the bucket for a driver key. */
  objectKey(key: string): string {
    return this.prefix === "" ? key : `${this.prefix}/${key}`;
  }

  /**
   * "on" when create-once writes use `If-None-Match: *`, "off" when they use HEAD then PUT.
   * With conditionalWrites "auto", the first call probes the server (cached per driver).
   */
  conditionalWrites(): Promise<"on" | "off"> {
    this.#mode ??= this.#probeConditionalWrites().catch((error: unknown) => {
      this.#mode = undefined; // a failed probe is not an answer: probe again next time
      throw error;
    });
    return this.#mode;
  }

  async putIfAbsent(key: string, data: Uint8Array, options: PutIfAbsentOptions = {}): Promise<{ created: boolean }> {
    checkKey(key);
    const refresh = this.#options.refreshOnDedupe && options.refresh !== false;
    if ((await this.conditionalWrites()) === "on") return this.#createConditionally(key, data, refresh);
    return this.#lock.run(key, () => this.#createChecked(key, data, refresh));
  }

  /**
   * Moves the object's LastModified to now (a copy onto itself): one request; false when it is gone.
   * With `refreshOnDedupe: false` (buckets that refuse copies) it only checks that the object exists.
   */
  async touch(key: string): Promise<boolean> {
    checkKey(key);
    if (!this.#options.refreshOnDedupe) return (await this.head(key)) !== undefined;
    return this.#refresh(key);
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    checkKey(key);
    try {
      await this.#write(key, data);
    } catch (error) {
      throw this.#error(error, "PutObject", key);
    }
  }

  /**
   * One write (#write) returning the ETag, with `If-Match` or
   * `If-None-Match: *` for a condition; 412, or 404 for `If-Match` on a missing key, = the condition
   * did not hold. Without conditional writes (a server that ignores the headers) an `ifMatch` write
   * is never sent (undefined: the caller falls back), and `ifAbsent` is a HEAD then a PUT under this
   * driver's key lock, as putIfAbsent does.
   */
  async putVersioned(key: string, data: Uint8Array, condition: VersionCondition = {}): Promise<string | undefined> {
    checkKey(key);
    const conditional = condition.ifMatch !== undefined || condition.ifAbsent === true;
    const mode = conditional ? await this.conditionalWrites() : "on";
    if (condition.ifMatch !== undefined && (mode === "off" || !this.#ifMatch)) return undefined;
    if (conditional && mode === "off") {
      return this.#lock.run(key, async () =>
        (await this.head(key)) === undefined ? this.#putTagged(key, data, {}) : undefined,
      );
    }
    return this.#putTagged(
      key,
      data,
      condition.ifMatch !== undefined ? { IfMatch: condition.ifMatch } : condition.ifAbsent ? { IfNoneMatch: "*" } : {},
    );
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return (await this.#getObject(key))?.data;
  }

  /** The value with its ETag (the form putVersioned returns and sends as If-Match); one GetObject. */
  async getVersioned(key: string): Promise<VersionedValue | undefined> {
    return this.#getObject(key);
  }

  async #getObject(key: string): Promise<VersionedValue | undefined> {
    checkKey(key);
    const Key = this.objectKey(key);
    for (let attempt = 1; ; attempt++) {
      let body;
      let version: string;
      try {
        const out = await this.#client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
        body = out.Body;
        version = out.ETag ?? "";
      } catch (error) {
        if (isMissingKey(error)) return undefined;
        throw this.#error(error, "GetObject", key);
      }
      if (body === undefined) return { data: new Uint8Array(), version };
      try {
        // The SDK retries failed requests; a body cut off after the headers arrived is retried here.
        return { data: await body.transformToByteArray(), version };
      } catch (error) {
        if (attempt < this.#options.maxAttempts && isTransientNetworkError(error)) {
          await sleep(backoffDelay(this.#options, attempt - 1, false));
          continue;
        }
        throw this.#error(withAttempts(error, attempt), "GetObject", key);
      }
    }
  }

  async head(key: string): Promise<DriverEntry | undefined> {
    checkKey(key);
    try {
      const out = await this.#client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { key, size: out.ContentLength ?? 0, modifiedAt: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissingKey(error)) return undefined;
      throw this.#error(error, "HeadObject", key);
    }
  }

  /**
   * S3 has no delete-if-unmodified-since on general purpose buckets: the driver HEADs the
   * object, compares its LastModified, then deletes. A write landing between those two
   * requests can be deleted (see the README's GC section). DeleteObject answers 204 whether
   * or not the key existed, so the HEAD also tells whether it existed.
   */
  async delete(key: string, options: DeleteOptions = {}): Promise<boolean> {
    checkKey(key);
    // A key the caller just listed needs no HEAD to say it existed (unless its time decides).
    if (!options.listed || options.ifUnmodifiedSince !== undefined) {
      const entry = await this.head(key);
      if (entry === undefined) return false;
      if (options.ifUnmodifiedSince !== undefined && entry.modifiedAt >= options.ifUnmodifiedSince) return false;
    }
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      if (isMissingKey(error)) return false;
      throw this.#error(error, "DeleteObject", key);
    }
  }

  /** ListObjectsV2, page by page (continuation tokens); objects that are not valid driver keys are skipped. */
  async *list(prefix: string): AsyncIterable<DriverEntry> {
    checkListPrefix(prefix);
    const Prefix = this.prefix === "" ? prefix : `${this.prefix}/${prefix}`;
    const strip = this.prefix === "" ? 0 : this.prefix.length + 1;
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.#client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix,
            MaxKeys: this.#options.listPageSize,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        );
      } catch (error) {
        throw this.#error(error, "ListObjectsV2", prefix);
      }
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        const key = object.Key.slice(strip);
        if (!isValidKey(key) || key.startsWith(PROBE_PREFIX)) continue;
        // The ETag: the version getVersioned reads and putVersioned writes (the store skips reading a
        // reference again whose listed version is the one it already read or wrote).
        const entry: DriverEntry = { key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
        if (object.ETag !== undefined && object.ETag !== "") entry.version = object.ETag;
        yield entry;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  uri(key: string): string {
    return `s3://${this.bucket}/${this.objectKey(key)}`;
  }

  async close(): Promise<void> {
    if (this.#ownsClient) this.#client.destroy();
  }

  /** One conditional PUT; 412 = already stored (then refresh its time); 409 conflicts are retried by the retry strategy. */
  async #createConditionally(key: string, data: Uint8Array, refresh: boolean): Promise<{ created: boolean }> {
    for (let round = 1; ; round++) {
      try {
        await this.#write(key, data, { IfNoneMatch: "*" });
        return { created: true };
      } catch (error) {
        if (!isPreconditionFailed(error)) throw this.#error(error, "PutObject (If-None-Match: *)", key);
      }
      if (!refresh || (await this.#refresh(key))) return { created: false };
      // Deleted between the 412 and the refresh (a concurrent gc): create it again.
      if (round >= this.#options.maxAttempts) {
        throw new ArefError(
          "CONFLICT",
          `s3://${this.bucket}/${this.objectKey(key)} kept disappearing between create and refresh (${round} rounds)`,
          {
            hint: "another process is deleting this key while it is written; run gc with a grace period",
          },
        );
      }
    }
  }

  /** HEAD, then PUT when absent; callers hold this key's in-process lock. */
  async #createChecked(key: string, data: Uint8Array, refresh: boolean): Promise<{ created: boolean }> {
    if ((await this.head(key)) !== undefined) {
      if (!refresh || (await this.#refresh(key))) return { created: false };
    }
    try {
      await this.#write(key, data);
    } catch (error) {
      throw this.#error(error, "PutObject", key);
    }
    return { created: true };
  }

  /**
   * PutObject (or a multipart upload above the threshold) with a SHA-256 checksum and the
   * conditional `headers`; the ETag the server gave ("" if none).
   */
  async #write(
    key: string,
    data: Uint8Array,
    headers: { IfMatch?: string; IfNoneMatch?: string } = {},
  ): Promise<string> {
    const params = {
      Bucket: this.bucket,
      Key: this.objectKey(key),
      Body: data,
      ContentType: contentTypeOf(key),
      ChecksumAlgorithm: "SHA256" as const,
      ...headers,
    };
    if (data.byteLength <= this.#options.multipartThresholdBytes) {
      return (await this.#client.send(new PutObjectCommand(params))).ETag ?? "";
    }
    const upload = new Upload({
      client: this.#client,
      params,
      partSize: this.#options.multipartPartSizeBytes,
      queueSize: 4,
      leavePartsOnError: false,
    });
    return (await upload.done()).ETag ?? "";
  }

  /** #write with `headers`; undefined when a condition failed (412, or 404 for `If-Match` on a missing key). */
  async #putTagged(
    key: string,
    data: Uint8Array,
    headers: { IfMatch?: string; IfNoneMatch?: string },
  ): Promise<string | undefined> {
    try {
      return await this.#write(key, data, headers);
    } catch (error) {
      const conditional = headers.IfMatch !== undefined || headers.IfNoneMatch !== undefined;
      if (conditional && (isPreconditionFailed(error) || (headers.IfMatch !== undefined && isMissingKey(error))))
        return undefined;
      throw this.#error(
        error,
        `PutObject${headers.IfMatch ? " (If-Match)" : headers.IfNoneMatch ? " (If-None-Match: *)" : ""}`,
        key,
      );
    }
  }

  /** Copies the object onto itself so LastModified moves to now; false when it is gone. */
  async #refresh(key: string): Promise<boolean> {
    const Key = this.objectKey(key);
    try {
      await this.#client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key,
          CopySource: `${this.bucket}/${Key.split("/").map(encodeURIComponent).join("/")}`,
          MetadataDirective: "REPLACE",
          ContentType: contentTypeOf(key),
        }),
      );
      return true;
    } catch (error) {
      if (isMissingKey(error)) return false;
      throw this.#error(error, "CopyObject (refresh)", key);
    }
  }

  /**
   * Two conditional PUTs of a scratch key: the second must fail with 412 if the server enforces
   * If-None-Match. Then (enforced) one PUT with `If-Match` on an ETag the key cannot have: a 412 means
   * the server enforces If-Match too (putVersioned's replace-only writes); anything else, not.
   */
  async #probeConditionalWrites(): Promise<"on" | "off"> {
    const key = `${PROBE_PREFIX}${randomUUID()}`;
    const data = new TextEncoder().encode("conditional write probe");
    const put = (condition: { IfNoneMatch?: string; IfMatch?: string }) =>
      this.#client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: data, ...condition }),
      );
    try {
      let enforced = false;
      for (let i = 0; i < 2 && !enforced; i++) {
        try {
          await put({ IfNoneMatch: "*" });
        } catch (error) {
          if (isConditionUnsupported(error)) return "off";
          if (!isPreconditionFailed(error)) throw this.#error(error, "PutObject (conditional write probe)", key);
          enforced = true;
        }
      }
      if (!enforced) return "off";
      try {
        await put({ IfMatch: '"00000000000000000000000000000000"' });
        this.#ifMatch = false; // written over: the server ignores If-Match
      } catch (error) {
        if (isPreconditionFailed(error)) this.#ifMatch = true;
        else if (isConditionUnsupported(error)) this.#ifMatch = false;
        else throw this.#error(error, "PutObject (If-Match probe)", key);
      }
      return "on";
    } finally {
      await this.#client
        .send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }))
        .catch(() => undefined);
    }
  }

  #error(error: unknown, op: string, key: string): ArefError {
    return toArefError(error, { op, key: this.objectKey(key), bucket: this.bucket });
  }
}

function withAttempts(error: unknown, attempts: number): unknown {
  if (typeof error === "object" && error !== null) {
    const e = error as { $metadata?: { attempts?: number } };
    e.$metadata = { ...e.$metadata, attempts };
  }
  return error;
}
