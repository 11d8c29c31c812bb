import { ArtifactStore } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { useS3 } from "./support.js";

// A re-put over the version of a session reference this instance read (its listing), while another
// instance removes references of that session and runs gc with grace 0 (a store without a floor): the
// race the hint opens is the reference removed, or changed, between the read here and the write. Every
// reference left must name stored content, and the fast path must have run (If-Match writes that landed).
describe("re-puts over versions read, against removals and gc on another instance (S3, enforcing proxy)", () => {
  const s3 = useS3();

  it("no reference to missing content, whatever lands between the listing and the write", {
    timeout: 120_000,
  }, async () => {
    const driver = s3.driver({ via: "proxy", conditionalWrites: "on", prefix: "read-hints" });
    const options = { gcGraceMs: 0, gcGraceFloorMs: 0 };
    const theirs = new ArtifactStore({
      driver: s3.driver({ via: "proxy", conditionalWrites: "on", prefix: "read-hints", bucket: driver.bucket }),
      ...options,
    });
    const session = "raced";
    const contents = Array.from({ length: 12 }, (_, i) => `content ${i} re-put while removed and swept `.repeat(8));
    for (const [i, text] of contents.entries()) await theirs.put(text, { session, label: `theirs ${i}` });
    s3.proxy.clearLog();
    let stop = false;
    const remover = (async () => {
      let round = 0;
      while (!stop) {
        const refs = await theirs.listReferences(session).catch(() => []);
        for (const r of refs.filter((_, j) => (j + round) % 3 === 0))
          await theirs.removeReference(session, r.artifact_id);
        await theirs.gc();
        round++;
      }
    })();
    const failures: string[] = [];
    for (let round = 0; round < 8; round++) {
      // A new instance each round: what it knows of the session's references is its listing alone.
      const mine = new ArtifactStore({ driver, ...options });
      await mine.listReferences(session).catch(() => []);
      await Promise.all(
        contents.map(async (text, i) => {
          try {
            const put = await mine.put(text, { session });
            expect(await mine.getText(put.id)).toBe(text);
          } catch (error) {
            failures.push(`round ${round}, content ${i}: ${(error as Error).message}`);
          }
        }),
      );
    }
    stop = true;
    await remover;
    expect(failures).toEqual([]);
    // The fast path ran: If-Match reference writes that landed (200).
    const ifMatch = s3.proxy.requests.filter((r) => r.method === "PUT" && r.headers["if-match"] !== undefined);
    expect(ifMatch.some((r) => r.status === 200)).toBe(true);
    // The others failed their condition only (the reference removed or written over there since the listing).
    expect(ifMatch.filter((r) => r.status !== 200 && r.status !== 404 && r.status !== 412)).toEqual([]);
    // Every reference left names stored content, and the store verifies clean.
    for (const r of await theirs.listReferences(session)) expect(await theirs.getText(r.artifact_id)).toBeDefined();
    expect((await theirs.verify()).problems).toEqual([]);
    await theirs.close();
  });
});
