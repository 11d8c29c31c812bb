import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIRECTORY_SETTLE_MS, FsDriver } from "@artifact-refs/store-fs";
import { tempRoot } from "./helpers.js";

const keysOf = async (driver: FsDriver, prefix: string) => {
  const keys: string[] = [];
  for await (const entry of driver.list(prefix)) keys.push(entry.key);
  return keys;
};
const settle = () => new Promise((r) => setTimeout(r, DIRECTORY_SETTLE_MS + 200));
const bytes = (s: string) => new TextEncoder().encode(s);

/**
 * Listings re-use a sorted snapshot of a quiet directory while it is unchanged (one lstat instead
 * of reading every entry), and look only at the names matching the prefix. Never at the price of
 * a missed or a stale key: what another driver instance (another process) writes or deletes shows
 * in the next listing.
 */
describe("fs driver: directory snapshots", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ root, cleanup } = await tempRoot()));
  afterEach(() => cleanup());

  it("reads a settled directory once, then re-uses it; another instance's write or delete is seen at once", async () => {
    const writer = new FsDriver({ root, fsync: false });
    await writer.putIfAbsent("logs/day/0000-x", bytes("v0"));
    await Promise.all(
      Array.from({ length: 599 }, (_, i) =>
        writeFile(join(root, "logs", "day", `${String(i + 1).padStart(4, "0")}-x`), `v${i + 1}`),
      ),
    );
    await settle();
    const reader = new FsDriver({ root });
    expect(await keysOf(reader, "logs/day/001")).toEqual(
      Array.from({ length: 10 }, (_, i) => `logs/day/001${i}-x`), // in name order
    );
    expect(reader.listingWork).toEqual({ directoriesRead: 1, entriesRead: 600, snapshotsReused: 0, filesStatted: 10 });
    expect(await keysOf(reader, "logs/day/004")).toHaveLength(10);
    expect(await keysOf(reader, "logs/day/")).toHaveLength(600);
    expect(reader.listingWork).toEqual({ directoriesRead: 1, entriesRead: 600, snapshotsReused: 2, filesStatted: 620 });

    await writer.putIfAbsent("logs/day/0015-y", bytes("new")); // another instance, right after the snapshot
    expect(await keysOf(reader, "logs/day/0015")).toEqual(["logs/day/0015-x", "logs/day/0015-y"]);
    await writer.delete("logs/day/0015-x");
    expect(await keysOf(reader, "logs/day/0015")).toEqual(["logs/day/0015-y"]);
    expect(reader.listingWork.directoriesRead).toBe(3); // both changes read the directory anew
  }, 20_000);

  it("does not remember small directories (cheaper to read again than to keep)", async () => {
    const driver = new FsDriver({ root, fsync: false });
    for (let i = 0; i < 20; i++) await driver.putIfAbsent(`small/${i}`, bytes(`${i}`));
    await settle();
    await keysOf(driver, "small/");
    await keysOf(driver, "small/");
    expect(driver.listingWork).toMatchObject({ directoriesRead: 2, snapshotsReused: 0 });
  }, 20_000);

  it("never re-uses a directory that changed less than the settle time before it was read", async () => {
    const driver = new FsDriver({ root, fsync: false });
    await driver.putIfAbsent("a/b/one", bytes("1"));
    expect(await keysOf(driver, "a/b/")).toEqual(["a/b/one"]);
    expect(await keysOf(driver, "a/b/")).toEqual(["a/b/one"]);
    // "a/" and "a/b/" are young: read on every listing.
    expect(driver.listingWork).toMatchObject({ directoriesRead: 2, snapshotsReused: 0 });
    // A file dropped in by hand (not through a driver) into a young directory shows at once.
    await writeFile(join(root, "a", "b", "two"), "2");
    expect(await keysOf(driver, "a/b/")).toEqual(["a/b/one", "a/b/two"]);
  });

  it("a directory replaced by another one (same name, new inode) is read anew; irregular entries stay reported", async () => {
    const driver = new FsDriver({ root, fsync: false });
    await driver.putIfAbsent("s/d/k1", bytes("1"));
    await Promise.all(Array.from({ length: 500 }, (_, i) => writeFile(join(root, "s", "d", `n${i}`), "n")));
    await symlink("/etc/passwd", join(root, "s", "d", "planted"));
    await settle();
    expect(await keysOf(driver, "s/d/")).toHaveLength(502);
    expect(await keysOf(driver, "s/d/k")).toEqual(["s/d/k1"]);
    expect(driver.listingWork).toMatchObject({ directoriesRead: 1, snapshotsReused: 1 }); // "s/d/", remembered
    const listed = [];
    for await (const entry of driver.list("s/d/p")) listed.push(entry);
    expect(listed).toEqual([expect.objectContaining({ key: "s/d/planted", irregular: "symbolic link" })]);
    await rm(join(root, "s", "d"), { recursive: true });
    await mkdir(join(root, "s", "d"));
    await writeFile(join(root, "s", "d", "k2"), "2");
    expect(await keysOf(driver, "s/d/")).toEqual(["s/d/k2"]);
    await rm(join(root, "s", "d"), { recursive: true });
    expect(await keysOf(driver, "s/d/")).toEqual([]);
  }, 20_000);

  it("a listing stopped early stats only the keys it took (10,000-entry directory)", async () => {
    const dir = join(root, "r", "w");
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < 10_000; i += 500)
      await Promise.all(
        Array.from({ length: 500 }, (_, j) => writeFile(join(dir, `${String(i + j).padStart(5, "0")}.json`), "{}")),
      );
    const driver = new FsDriver({ root });
    let n = 0;
    for await (const entry of driver.list("r/w/0")) {
      expect(entry.key).toBe(`r/w/${String(n).padStart(5, "0")}.json`);
      if (++n === 150) break;
    }
    // One batch of 64 beyond what was taken at most; the 10,000 entries are read once, not made into keys.
    expect(driver.listingWork).toMatchObject({ directoriesRead: 1, entriesRead: 10_000 });
    expect(driver.listingWork.filesStatted).toBeLessThanOrEqual(150 + 64);
    expect(await keysOf(driver, "r/w/0999")).toEqual(Array.from({ length: 10 }, (_, i) => `r/w/0999${i}.json`));
  }, 30_000);
});
