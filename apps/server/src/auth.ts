import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { SessionIdSchema } from "@artifact-refs/schema";
import { forbidden, unauthorized } from "./errors.js";

/** Bearer tokens: one admin token for everything, and tokens scoped to a list of sessions. */
/** A token a client can actually send: what `Authorization: Bearer <token>` accepts (16-512 visible ASCII characters). */
const tokenSchema = (what: string) =>
  z
    .string()
    .min(16, `${what} must be at least 16 characters`)
    .max(512, `${what} must be at most 512 characters (longer ones can never match a request)`)
    .regex(
      /^[\x21-\x7e]+$/,
      `${what} may only hold visible ASCII characters (no spaces or control characters: they can never match a request)`,
    );

export const TokensSchema = z
  .object({
    admin: tokenSchema("the admin token").optional(),
    sessions: z.record(tokenSchema("a session token"), z.array(SessionIdSchema).min(1)).default({}),
  })
  .strict();
export type TokensInput = z.input<typeof TokensSchema>;
export type Tokens = z.output<typeof TokensSchema>;

/** Who is calling: everything (admin, or no auth configured) or a fixed set of sessions. */
export type Principal = { kind: "admin" } | { kind: "sessions"; sessions: ReadonlySet<string> };

const digest = (s: string) => createHash("sha256").update(s).digest();

export class Authenticator {
  readonly #enabled: boolean;
  readonly #admin: Buffer | undefined;
  readonly #scoped: Array<{ digest: Buffer; sessions: ReadonlySet<string> }>;
  /** Headers already verified (tokens are fixed at startup, so a verified header keeps its principal). */
  readonly #verified = new Map<string, Principal>();

  constructor(tokens: Tokens | undefined) {
    this.#enabled = tokens !== undefined;
    this.#admin = tokens?.admin === undefined ? undefined : digest(tokens.admin);
    this.#scoped = Object.entries(tokens?.sessions ?? {}).map(([token, sessions]) => ({
      digest: digest(token),
      sessions: new Set(sessions),
    }));
  }

  /** False when the server runs without tokens (loopback development only). */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** The principal of an Authorization header value; UNAUTHORIZED when missing or unknown. */
  authenticate(header: string | undefined): Principal {
    if (!this.#enabled) return { kind: "admin" };
    if (header === undefined || header === "") throw unauthorized("this route needs a bearer token");
    const known = this.#verified.get(header);
    if (known !== undefined) return known;
    const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header);
    if (!match) throw unauthorized("the Authorization header must be 'Bearer <token>'");
    const given = digest(match[1]!);
    // Compare digests in constant time; check every token so timing does not say which matched.
    let principal: Principal | undefined;
    if (this.#admin !== undefined && timingSafeEqual(this.#admin, given)) principal = { kind: "admin" };
    for (const entry of this.#scoped) {
      if (timingSafeEqual(entry.digest, given) && principal === undefined)
        principal = { kind: "sessions", sessions: entry.sessions };
    }
    if (principal === undefined) throw unauthorized("unknown bearer token");
    if (this.#verified.size >= 1_000) this.#verified.clear();
    this.#verified.set(header, principal);
    return principal;
  }
}

/** FORBIDDEN unless the principal may use the session. */
export function assertSession(principal: Principal, session: string): void {
  if (principal.kind === "admin") return;
  if (!principal.sessions.has(session))
    throw forbidden(`this token is not allowed to use session ${JSON.stringify(session)}`);
}

/** Session-scoped tokens must name a session on routes where the admin may omit it. */
export function requireSessionFor(
  principal: Principal,
  session: string | undefined,
  route: string,
): string | undefined {
  if (session !== undefined) {
    assertSession(principal, session);
    return session;
  }
  if (principal.kind === "admin") return undefined;
  throw forbidden(`a session-scoped token must name its session on ${route} (?session=<id>)`);
}

export function canSee(principal: Principal, session: string): boolean {
  return principal.kind === "admin" || principal.sessions.has(session);
}
