import { ArtifactStore } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { LoggingDriver } from "./logging-driver.js";

// A re-put into a session whose reference another store instance wrote, after this instance read that
// reference with its version (a listing of the session, a fetch): the blob and the reference over the
// version read, at once; what another instance changed or removed since then fails the condition.

/** Two instances over one backend, without read-back (the S3 default), no grace floor (gc with grace 0). */
const pair = () => {
  const driver = new LoggingDriver();
  const options = { driver, verifyOnDedupe: false, gcGraceMs: 0, gcGraceFloorMs: 0 };
  return { driver, mine: new ArtifactStore(options), theirs: new ArtifactStore(options) };
};

const sorted = (log: string[]) => [...log].sort();

describe("a re-put over the version this instance read", () => {
  const reads: Record<string, (store: ArtifactStore, session: string, shortRef: string) => Promise<unknown>> = {
    "a listing of the session": (store, session) => store.listReferences(session),
    "a fetch by short ref": (store, session, shortRef) => store.open(shortRef, { session }),
    "the access check of a read": (store, session, shortRef) => store.getText(shortRef, { session }),
  };
  for (const [what, read] of Object.entries(reads)) {
    it(`after ${what}: the blob and the reference over that version, nothing else; the stored label carries over`, async () => {
      const { driver, mine, theirs } = pair();
      const stored = await theirs.put(`stashed elsewhere, read by ${what}`, { session: "s1", label: "theirs" });
      await read(mine, "s1", stored.shortRef);
      driver.log = [];
      const again = await mine.put(`stashed elsewhere, read by ${what}`, { session: "s1" });
      expect(sorted(driver.log)).toEqual(["put blobs", "put refs"]);
      expect(again).toMatchObject({ created: false, deduped: true, reference: { label: "theirs" } });
      expect((await theirs.reference("s1", stored.shortRef)).label).toBe("theirs");
    });
  }

  it("what the caller does with the references it was handed does not change what a re-put carries over", async () => {
    const { mine, theirs } = pair();
    await theirs.put("handed out, then changed by the caller", { session: "s1", label: "stored" });
    const [listed] = await mine.listReferences("s1");
    listed!.label = "changed by the caller";
    const again = await mine.put("handed out, then changed by the caller", { session: "s1" });
    expect(again.reference?.label).toBe("stored");
    const put = await mine.put("handed out by a put", { session: "s1", label: "put's own" });
    put.reference!.label = "changed by the caller";
    expect((await mine.put("handed out by a put", { session: "s1" })).reference?.label).toBe("put's own");
  });

  it("without a read here, the usual path: the writes, the reference's conditional write, its read, the write over it", async () => {
    const { driver, mine, theirs } = pair();
    await theirs.put("stashed elsewhere, never read here", { session: "s1", label: "theirs" });
    driver.log = [];
    const again = await mine.put("stashed elsewhere, never read here", { session: "s1" });
    expect(driver.log).toContain("putIfAbsent refs existed");
    expect(again).toMatchObject({ deduped: true, reference: { label: "theirs" } });
  });

  it("changed by another instance after the read: the condition fails, the put reads what is stored and carries it over", async () => {
    const { driver, mine, theirs } = pair();
    const content = "read here, then relabelled there";
    const stored = await theirs.put(content, { session: "s1", label: "first" });
    await mine.listReferences("s1");
    await theirs.put(content, { session: "s1", label: "second", summary: "their summary" });
    driver.log = [];
    const again = await mine.put(content, { session: "s1" });
    expect(driver.log).toContain("putIfAbsent refs existed"); // the usual path ran after the failed condition
    expect(again).toMatchObject({ deduped: true, reference: { label: "second", summary: "their summary" } });
    expect((await theirs.reference("s1", stored.shortRef)).label).toBe("second");
  });

  it("removed and its content swept by another instance after the read: the content is stored again before its new reference", async () => {
    const { mine, theirs } = pair();
    const content = "read here, then removed and swept there";
    const stored = await theirs.put(content, { session: "s1", label: "gone" });
    await mine.listReferences("s1");
    expect(await theirs.removeReference("s1", stored.id)).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    expect((await theirs.gc()).swept).toContain(stored.id);
    const again = await mine.put(content, { session: "s1" });
    expect(again).toMatchObject({ created: true, deduped: false });
    expect(again.reference?.label).toBeUndefined(); // nothing carried over from the removed reference
    expect(await theirs.getText(again.shortRef, { session: "s1" })).toBe(content);
    expect((await theirs.verify()).ok).toBe(true);
  });

  it("removed during the re-put (between the read and the conditional write): no reference is created from the stale version", async () => {
    const { driver, mine, theirs } = pair();
    const content = "removed while the re-put is on its way";
    const stored = await theirs.put(content, { session: "s1", label: "gone" });
    await mine.listReferences("s1");
    // The removal and a sweep land right before the re-put's reference write (held by the driver).
    const write = driver.putVersioned.bind(driver);
    let raced = false;
    driver.putVersioned = async (key, data, condition) => {
      if (!raced && condition?.ifMatch !== undefined) {
        raced = true;
        await theirs.removeReference("s1", stored.id);
        await theirs.gc();
      }
      return write(key, data, condition);
    };
    const again = await mine.put(content, { session: "s1" });
    expect(raced).toBe(true);
    expect(again).toMatchObject({ deduped: false });
    expect(again.reference?.label).toBeUndefined();
    expect(await theirs.getText(again.shortRef, { session: "s1" })).toBe(content);
    expect((await theirs.verify()).ok).toBe(true);
  });

  it("a reference read expired, or expiring within a minute, is no hold: the re-put checks the session's reference", async () => {
    const { driver, mine, theirs } = pair();
    const stored = await theirs.put("short-lived, read here", { session: "s1", ttlMs: 30_000, label: "kept" });
    await mine.open(stored.shortRef, { session: "s1" });
    driver.log = [];
    const again = await mine.put("short-lived, read here", { session: "s1" });
    expect(driver.log).toContain("putIfAbsent refs existed");
    expect(again).toMatchObject({ deduped: true, reference: { label: "kept" } });
  });
});
