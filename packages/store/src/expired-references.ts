import type { SessionReference } from "@artifact-refs/schema";
import { collect, mapLimit } from "./concurrency.js";
import { type StoreCore, listedVersion, rethrowUnlessCorrupt } from "./core.js";
import type { DriverEntry } from "./driver.js";
import { REF_PREFIX, parseRefKey } from "./layout.js";
import { listedReference } from "./listed-references.js";
import type { ReferenceWrites } from "./reference-writes.js";

/**
 * Listed entries of the store's expired references. A reference listed in the version this instance holds is not
 * read again (listedReference); an unreadable one is left to verify.
 */
export async function expiredReferences(core: StoreCore, writes: ReferenceWrites): Promise<DriverEntry[]> {
  const now = core.now();
  const entries = await collect(core.driver.list(REF_PREFIX));
  const expired = await mapLimit(entries, 16, async (entry) => {
    const parsed = parseRefKey(entry.key);
    if (!parsed) return undefined;
    try {
      const reference: SessionReference | undefined = await listedReference(
        core,
        writes,
        parsed.session,
        parsed.id,
        listedVersion(entry),
      );
      return reference && core.isExpired(reference, now) ? entry : undefined;
    } catch (error) {
      rethrowUnlessCorrupt(error);
      return undefined;
    }
  });
  return expired.filter((e): e is DriverEntry => e !== undefined);
}

/**
 * Deletes expired references; returns the keys it deleted. Each is deleted only while unmodified since it was
 * listed: another instance that renewed it meanwhile (a put into the session writes the reference again, with a
 * new expiry) keeps it.
 */
export async function deleteExpired(
  core: StoreCore,
  writes: ReferenceWrites,
  entries: DriverEntry[],
): Promise<string[]> {
  const deleted: string[] = [];
  try {
    for (const { key, modifiedAt } of entries) {
      const ifUnmodifiedSince = new Date(modifiedAt.getTime() + 1);
      if (await core.driver.delete(key, { ifUnmodifiedSince })) deleted.push(key);
    }
  } finally {
    writes.expiredDeleted(entries.map(({ key }) => parseRefKey(key)!));
  }
  return deleted;
}
