import type { Duplex } from "node:stream";
import { ArefError, isArefError, receiptName, type ErrorCode, type ErrorReceipt } from "@artifact-refs/schema";

/** HTTP status for each error code. Client faults are 4xx; only server faults are 5xx. */
export const STATUS_OF: Record<ErrorCode, number> = {
  NOT_FOUND: 404,
  INVALID_HANDLE: 400,
  AMBIGUOUS_REF: 409,
  TOO_LARGE: 413,
  INTEGRITY: 500,
  EXPIRED: 410,
  BUDGET_EXCEEDED: 422,
  INVALID_INPUT: 400,
  INVALID_SELECTOR: 400,
  REGEX_TIMEOUT: 422,
  CORRUPT_METADATA: 500,
  UNKNOWN_SESSION: 404,
  READ_ONLY: 403,
  PERMISSION_DENIED: 403,
  IO_ERROR: 500,
  CONFLICT: 409,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
  CONFIG_INVALID: 500,
  TOKENIZER_FAILED: 500,
  UNSUPPORTED: 415,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  RATE_LIMITED: 429,
  INTERNAL: 500,
};

/** Code for a bare HTTP status (framework errors that carry no ArefError code). */
function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "CONFLICT";
    case 413:
      return "TOO_LARGE";
    case 415:
      return "UNSUPPORTED";
    case 429:
      return "RATE_LIMITED";
    case 503:
      return "UNAVAILABLE";
    default:
      return status >= 500 ? "INTERNAL" : "INVALID_INPUT";
  }
}

const HINTS: Partial<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "send a smaller body; the limit is the server's bodyLimit (--body-limit)",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "send application/json, or raw bytes to POST /api/artifacts",
  FST_ERR_CTP_EMPTY_JSON_BODY: "send a JSON body, or drop the Content-Type header",
  FST_ERR_CTP_INVALID_JSON_BODY: "send valid JSON",
};

/**
 * Errors about the server's own storage or setup: their messages and details name server paths,
 * errno values and hashes of files the caller never sent. The client gets what went wrong and what
 * to do, plus an id to quote; the full error goes to the server log (see `operatorError`).
 */
const OPERATOR_MESSAGES: Partial<Record<ErrorCode, string>> = {
  IO_ERROR: "the server could not read or write its store",
  INTEGRITY: "the stored copy of this artifact is damaged on the server (it failed its integrity check)",
  CORRUPT_METADATA: "the server's record of this artifact is damaged",
  READ_ONLY: "the server's store is read-only",
  PERMISSION_DENIED: "the server is not allowed to access its store",
  CONFIG_INVALID: "the server is misconfigured",
  TOKENIZER_FAILED: "the server's tokenizer failed",
  INTERNAL: "internal server error",
};

/** True for errors whose text is for operators only. */
export function isOperatorError(error: unknown): error is ArefError {
  return isArefError(error) && OPERATOR_MESSAGES[error.code] !== undefined;
}

/** The client-facing form of an operator error: a fixed message, a hint, an id that is also in the server log. */
export function redactOperatorError(error: ArefError, errorId: string): ArefError {
  return new ArefError(error.code, `${OPERATOR_MESSAGES[error.code]} (error id ${errorId})`, {
    hint: "try again later; if it persists, give the error id to the server's operator (the details are in the server log)",
    details: { error_id: errorId },
  });
}

export interface HttpError {
  status: number;
  receipt: ErrorReceipt;
}

/** Maps anything thrown in a handler (ArefError, framework error, bug) to a status and an error receipt. */
export function toHttpError(error: unknown): HttpError {
  if (isArefError(error)) {
    return { status: STATUS_OF[error.code] ?? 500, receipt: { schema: receiptName("error"), error: error.toJSON() } };
  }
  const e = error as { statusCode?: unknown; code?: unknown; message?: unknown };
  const status = typeof e?.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500;
  const frameworkCode = typeof e?.code === "string" ? e.code : undefined;
  const code = codeOfStatus(status);
  const message = status >= 500 ? "internal server error" : typeof e?.message === "string" ? e.message : "bad request";
  const hint = frameworkCode === undefined ? undefined : HINTS[frameworkCode];
  return {
    status,
    receipt: { schema: receiptName("error"), error: { code, message, ...(hint === undefined ? {} : { hint }) } },
  };
}

export function unauthorized(message: string): ArefError {
  return new ArefError("UNAUTHORIZED", message, {
    hint: "send Authorization: Bearer <token> (see the server's README, Auth)",
  });
}

export function forbidden(message: string): ArefError {
  return new ArefError("FORBIDDEN", message, { hint: "use a token scoped to that session, or the admin token" });
}

/** Answers a socket-level client error (before any request object exists) with an error receipt, then closes it. */
export function writeClientError(error: Error & { code?: string }, socket: Duplex): void {
  const [status, reason, aref] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? ([
          408,
          "Request Timeout",
          new ArefError("DEADLINE_EXCEEDED", "the request did not arrive in time", {
            hint: "send the whole request (headers and body) within the server's request timeout",
          }),
        ] as const)
      : error.code === "HPE_HEADER_OVERFLOW"
        ? ([
            431,
            "Request Header Fields Too Large",
            new ArefError("TOO_LARGE", "the request headers are too large", { hint: "send smaller headers" }),
          ] as const)
        : ([
            400,
            "Bad Request",
            new ArefError("INVALID_INPUT", "malformed HTTP request", { hint: "send a well-formed HTTP/1.1 request" }),
          ] as const);
  const inFlight = (socket as { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage;
  if (!socket.writable || inFlight?._headerSent === true) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ schema: receiptName("error"), error: aref.toJSON() });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), 1_000).unref();
}
