import type { ArtifactId, SessionReference } from "@artifact-refs/schema";
import type { StoreCore } from "./core.js";

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
