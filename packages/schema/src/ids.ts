import { z } from "zod";
import { ArefError } from "./errors.js";

/** SHA-256 of the stored bytes: 64 lowercase hex characters. */
export const ARTIFACT_ID_RE = /^[0-9a-f]{64}$/;
export const HANDLE_PREFIX = "aref:v1:sha256:";
export const SHORT_REF_PREFIX = "art:";
/** A short ref or bare prefix needs at least this many hex chars. */
export const MIN_PREFIX_LENGTH = 12;
/** Longest accepted reference string (a handle is 79 chars); anything longer is rejected before parsing. */
export const MAX_REF_LENGTH = 100;

export const ArtifactIdSchema = z.string().regex(ARTIFACT_ID_RE, "artifact id must be 64 lowercase hex characters");
export type ArtifactId = z.infer<typeof ArtifactIdSchema>;

export const HandleSchema = z
  .string()
  .regex(/^aref:v1:sha256:[0-9a-f]{64}$/, "handle must be aref:v1:sha256:<64 lowercase hex>");
export type Handle = z.infer<typeof HandleSchema>;

export const ShortRefSchema = z
  .string()
  .regex(/^art:[0-9a-f]{12,64}$/, "short ref must be art:<12 to 64 lowercase hex>");
export type ShortRef = z.infer<typeof ShortRefSchema>;

/** A parsed reference: either a full id, or a prefix that must be resolved against a store. */
export type ParsedRef =
  | { kind: "id"; id: ArtifactId; input: string }
  | { kind: "prefix"; prefix: string; input: string };

/** The handle of a full artifact id; INVALID_HANDLE when `id` is not 64 lowercase hex. */
export function toHandle(id: ArtifactId): Handle {
  assertArtifactId(id);
  return `${HANDLE_PREFIX}${id}`;
}

/** The `art:` short ref of a full id, `length` hex long (12 to 64); INVALID_HANDLE when `id` is not 64 lowercase hex. */
export function toShortRef(id: ArtifactId, length = MIN_PREFIX_LENGTH): ShortRef {
  assertArtifactId(id);
  return `${SHORT_REF_PREFIX}${id.slice(0, Math.max(MIN_PREFIX_LENGTH, Math.min(64, length)))}`;
}

function assertArtifactId(id: unknown): asserts id is ArtifactId {
  if (!isArtifactId(id)) {
    throw invalid(
      typeof id === "string" ? id : String(id),
      "a full artifact id is 64 lowercase hex characters (sha-256)",
    );
  }
}

export function isArtifactId(value: unknown): value is ArtifactId {
  return typeof value === "string" && ARTIFACT_ID_RE.test(value);
}

function invalid(input: string, why: string): ArefError {
  const shown = JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input);
  return new ArefError("INVALID_HANDLE", `invalid artifact reference ${shown}: ${why}`, {
    hint: `use a handle (${HANDLE_PREFIX}<64 hex>), a full 64-hex id, or a short ref (${SHORT_REF_PREFIX}<at least ${MIN_PREFIX_LENGTH} hex>)`,
  });
}

/**
 * Strict parser for everything a user or a model may pass as a reference:
 * a handle `aref:v1:sha256:<64 hex>`, a full id, a short ref `art:<12..64 hex>`,
 * or a bare hex prefix of 12..63 chars. ASCII only, no whitespace, lowercase hex.
 * Never trims or case-folds: what is not exactly right is an INVALID_HANDLE error.
 */
export function parseRef(input: unknown): ParsedRef {
  if (typeof input !== "string") throw invalid(String(input), "not a string");
  if (input.length === 0) throw invalid(input, "empty");
  if (input.length > MAX_REF_LENGTH) throw invalid(input, `longer than ${MAX_REF_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (!/^[\x21-\x7e]+$/.test(input)) throw invalid(input, "only printable ASCII without whitespace is allowed");
  let hex: string;
  if (input.startsWith(HANDLE_PREFIX)) {
    hex = input.slice(HANDLE_PREFIX.length);
    if (!ARTIFACT_ID_RE.test(hex))
      throw invalid(input, "a handle needs exactly 64 lowercase hex characters after the prefix");
    return { kind: "id", id: hex, input };
  }
  if (input.startsWith(SHORT_REF_PREFIX)) hex = input.slice(SHORT_REF_PREFIX.length);
  else if (input.includes(":")) throw invalid(input, "unknown scheme");
  else hex = input;
  if (/[A-F]/.test(hex) && /^[0-9a-fA-F]+$/.test(hex)) throw invalid(input, "hex must be lowercase");
  if (!/^[0-9a-f]+$/.test(hex)) throw invalid(input, "not hexadecimal");
  if (hex.length > 64) throw invalid(input, "more than 64 hex characters");
  if (hex.length === 64) return { kind: "id", id: hex, input };
  if (hex.length < MIN_PREFIX_LENGTH)
    throw invalid(input, `a prefix needs at least ${MIN_PREFIX_LENGTH} hex characters`);
  return { kind: "prefix", prefix: hex, input };
}

/** Session ids: 1..128 chars of [A-Za-z0-9._:-], never "." or "..". Safe as a path or key segment. */
export const SessionIdSchema = z
  .string()
  .min(1, "session id must not be empty")
  .max(128, "session id must be at most 128 characters")
  .regex(/^[A-Za-z0-9._:-]+$/, "session id may only contain letters, digits, '.', '_', ':' and '-'")
  .refine((s) => s !== "." && s !== "..", "session id must not be '.' or '..'");
export type SessionId = z.infer<typeof SessionIdSchema>;

export function parseSessionId(input: unknown): SessionId {
  const result = SessionIdSchema.safeParse(input);
  if (!result.success) {
    throw new ArefError(
      "INVALID_INPUT",
      `invalid session id ${JSON.stringify(input)}: ${result.error.issues[0]?.message}`,
    );
  }
  return result.data;
}
