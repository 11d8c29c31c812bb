import { ArefError, parseSessionId, toShortRef, type ArtifactId, type SessionReference } from "@artifact-refs/schema";
import { type StoreCore, rethrowUnlessCorrupt } from "./core.js";

/**
 * What this instance holds of session references with their versions (ReferenceWrites: the references it
 * wrote or read, with the version each was written or read in).
 */
export interface HeldReferences {
  /** The reference held with exactly `version` (a copy); undefined otherwise. */
  known(session: string, id: ArtifactId, version: string): SessionReference | undefined;
  /** A reference just read in `version`. */
  read(session: string, id: ArtifactId, reference: SessionReference, version: string | undefined): void;
}

/**
 * The session's reference to `id`, which a listing just showed in version `listed` (undefined where the driver
 * lists no versions). Listed in the version `held` holds: that reference, byte for byte (an S3 ETag changes
 * with the object's bytes), so no read — the same answer a read would give. Otherwise read, and its version
 * kept in `held`. Undefined when the key is gone since the listing; CORRUPT_METADATA when unreadable.
 */
export async function listedReference(
  core: StoreCore,
  held: HeldReferences | undefined,
  session: string,
  id: ArtifactId,
  listed: string | undefined,
): Promise<SessionReference | undefined> {
  const known = listed === undefined ? undefined : held?.known(session, id, listed);
  if (known !== undefined) return known;
  const read = await core.readReferenceVersioned(session, id);
  if (read !== undefined) held?.read(session, id, read.reference, read.version);
  return read?.reference;
}

/**
 * The access check: the session's reference to `id`, live; NOT_FOUND when the session holds none (or it is
 * unreadable: verify reports it), EXPIRED when it expired. `listed`: the version a listing made just before gave
 * that reference (the ref was a short ref); when it is the version `held` holds, the reference is that one, byte
 * for byte, and is not read again.
 */
export async function liveReference(
  core: StoreCore,
  held: HeldReferences,
  session: string,
  id: ArtifactId,
  listed: string | undefined,
): Promise<SessionReference> {
  const sessionId = parseSessionId(session);
  let reference: SessionReference | undefined;
  try {
    reference = await listedReference(core, held, sessionId, id, listed);
  } catch (error) {
    rethrowUnlessCorrupt(error);
  }
  if (reference === undefined) {
    throw new ArefError("NOT_FOUND", `session ${sessionId} holds no reference to ${toShortRef(id)}`, {
      hint: `list what it holds with \`aref list --session ${sessionId}\``,
    });
  }
  if (core.isExpired(reference)) {
    throw new ArefError(
      "EXPIRED",
      `the reference of session ${sessionId} to ${toShortRef(id)} expired at ${reference.expires_at}`,
      {
        hint: "stash the content again to renew it",
        details: { expires_at: reference.expires_at },
      },
    );
  }
  return reference;
}
