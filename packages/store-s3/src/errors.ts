import { ArefError, isArefError, type ErrorCode } from "@artifact-refs/schema";

/** What the driver was doing, for messages: "PutObject", "GetObject", ... */
export interface S3Operation {
  op: string;
  key: string;
  bucket: string;
}

interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
  $fault?: "client" | "server";
}

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ERR_STREAM_PREMATURE_CLOSE",
]);
const THROTTLE_CODES = new Set([
  "SlowDown",
  "Throttling",
  "ThrottlingException",
  "TooManyRequestsException",
  "RequestLimitExceeded",
  "ServiceUnavailable",
]);
const AUTH_CODES = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "ExpiredToken",
  "InvalidToken",
  "TokenRefreshRequired",
]);

/** Status of an SDK error (0 when the request never got an answer). */
export function statusOf(error: unknown): number {
  return (error as SdkErrorShape | undefined)?.$metadata?.httpStatusCode ?? 0;
}

/** S3 error code or Node error code of an SDK error. */
export function codeOf(error: unknown): string {
  const e = error as SdkErrorShape | undefined;
  return e?.Code ?? (e?.code && NETWORK_CODES.has(e.code) ? e.code : undefined) ?? e?.name ?? "Error";
}

/** True for errors worth retrying at the driver level (a response body cut mid-way). */
export function isTransientNetworkError(error: unknown): boolean {
  let e = error as (SdkErrorShape & { cause?: unknown }) | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (
      (e.code && NETWORK_CODES.has(e.code)) ||
      e.name === "TimeoutError" ||
      e.message === "aborted" ||
      /premature close|socket hang up/i.test(e.message ?? "")
    )
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** True when the error is the SDK's "missing key" answer (404 on GET or HEAD of a key). */
export function isMissingKey(error: unknown): boolean {
  const name = (error as SdkErrorShape | undefined)?.name;
  return name === "NoSuchKey" || (name === "NotFound" && statusOf(error) === 404);
}

/**
 * Turns an SDK error into an ArefError with a stable code, naming the operation, the key,
 * the attempts made and the last status, and saying what to do.
 */
export function toArefError(error: unknown, where: S3Operation): ArefError {
  if (isArefError(error)) return error;
  const e = (error ?? {}) as SdkErrorShape;
  const status = statusOf(error);
  const code = codeOf(error);
  const attempts = e.$metadata?.attempts ?? 1;
  const target = `s3://${where.bucket}/${where.key}`;
  const what = `S3 ${where.op} of ${target} failed after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  const last = `${status === 0 ? "no response" : `HTTP ${status}`} ${code}${e.message && e.message !== code ? `: ${e.message}` : ""}`;
  const details = { operation: where.op, bucket: where.bucket, key: where.key, attempts, status, s3_code: code };
  const make = (c: ErrorCode, message: string, hint: string) =>
    new ArefError(c, message, { hint, details, cause: error });

  if (e.name === "CredentialsProviderError" || /Could not load credentials/i.test(e.message ?? "")) {
    return make(
      "UNAUTHORIZED",
      `no AWS credentials found for ${where.op} of ${target}`,
      "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or an instance/container role), or pass credentials in clientConfig",
    );
  }
  if (/Region is missing/i.test(e.message ?? "")) {
    return make(
      "CONFIG_INVALID",
      `no AWS region configured for ${target}`,
      "set AWS_REGION, the region option, or ?region=… in the store spec (R2: auto)",
    );
  }
  if (code === "NoSuchBucket") {
    return make(
      "CONFIG_INVALID",
      `bucket ${where.bucket} does not exist (${where.op} of ${target})`,
      "create the bucket first, or fix the bucket name / endpoint in the store spec",
    );
  }
  if (AUTH_CODES.has(code) || status === 401) {
    return make(
      "UNAUTHORIZED",
      `${what}: ${last}`,
      "check the access key, secret and region (a wrong region also breaks signatures)",
    );
  }
  if (status === 403 || code === "AccessDenied") {
    return make(
      "FORBIDDEN",
      `${what}: ${last}`,
      "the credentials lack a permission: see the minimal IAM policy in the @artifact-refs/store-s3 README (s3:GetObject, s3:PutObject, s3:DeleteObject, s3:ListBucket)",
    );
  }
  if (status === 409) {
    return make(
      "CONFLICT",
      `${what}: ${last}`,
      "concurrent conditional writes kept conflicting on this key; try again, or raise maxAttempts",
    );
  }
  const retryable =
    status >= 500 || status === 429 || THROTTLE_CODES.has(code) || isTransientNetworkError(error) || status === 0;
  if (retryable) {
    return make(
      "UNAVAILABLE",
      `${what}: ${last}`,
      status === 503 || status === 429 || THROTTLE_CODES.has(code)
        ? "the S3 endpoint is throttling; spread the load or try again later (maxAttempts and backoff are configurable)"
        : "the S3 endpoint did not answer correctly; check that it is reachable and try again (maxAttempts, requestTimeoutMs are configurable)",
    );
  }
  return make("IO_ERROR", `${what}: ${last}`, "check the bucket, the endpoint and the S3 server's logs");
}
