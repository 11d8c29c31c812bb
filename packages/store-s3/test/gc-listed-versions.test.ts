import { ArtifactStore } from "@artifact-refs/store";
import type { S3Driver } from "@artifact-refs/store-s3";
import { describe, expect, it } from "vitest";
import { useS3 } from "./support.js";

/**
 * gc on S3 reads only the references changed since this instance last held them: the listing's version
 * (ETag) of a reference it read or wrote is that reference, byte for byte. What another instance changed,
 * removed or let expire is read, swept or expired as before. Requests counted on the wire by the fault proxy.
 */
describe("gc reads only references listed in a version this instance does not hold", () => {
  const s3 = useS3();
  let clock = Date.now();
  const pair = () => {
    const options = { via: "proxy" as const, conditionalWrites: "on" as const };
    const writer = new ArtifactStore({ driver: s3.driver(options), gcGraceFloorMs: 0 });
    const gcer = new ArtifactStore({
      driver: s3.driver({ ...options, bucket: (writer.driver as S3Driver).bucket }),
      gcGraceFloorMs: 0,
      now: () => new Date(clock),
    });
    return { writer, gcer };
  };
  const refReads = async (fn: () => Promise<unknown>) => {
    s3.proxy.clearLog();
    await fn();
    return s3.proxy.requests.filter(
      (r) => r.method === "GET" && !r.query?.includes("list-type") && /(^|\/)refs\//.test(r.key),
    ).length;
  };
  const pastS3Seconds = () => new Promise((r) => setTimeout(r, 1_100)); // LastModified has second precision

  it("a repeated gc reads no unchanged reference; a relabel there is read; a removal there is swept", async () => {
    const { writer, gcer } = pair();
    clock = Date.now();
    const texts = ["gc listed: kept a", "gc listed: kept b", "gc listed: removed c"];
    const puts: Array<{ id: string; shortRef: string }> = [];
    for (const text of texts) puts.push(await writer.put(text, { session: "g", label: "old" }));

    // Never read here: each reference is read (the expired-reference pass, then the mark knows them).
    expect(await refReads(() => gcer.gc())).toBe(3);
    expect(await refReads(() => gcer.gc())).toBe(0);

    // Relabelled there: another version in the listing, read once.
    await writer.put(texts[1]!, { session: "g", label: "new" });
    expect(await refReads(() => gcer.gc())).toBe(1);
    expect(await refReads(() => gcer.gc())).toBe(0);

    // Removed there: no key in the listing, so nothing holds it: swept, while the others stay.
    expect(await writer.removeReference("g", puts[2]!.shortRef)).toBe(true);
    await pastS3Seconds();
    const report = await gcer.gc({ graceMs: 0 });
    expect(report.swept).toEqual([puts[2]!.id]);
    for (const put of puts.slice(0, 2)) expect(await gcer.has(put.id)).toBe(true);
  });

  it("a reference known by its version still expires: gc deletes it and sweeps its content", async () => {
    const { writer, gcer } = pair();
    clock = Date.now();
    const put = await writer.put("gc listed: expires", { session: "e", ttlMs: 60_000 });
    await writer.put("gc listed: stays", { session: "e" });
    expect(await refReads(() => gcer.gc())).toBe(2);
    clock += 120_000;
    await pastS3Seconds();
    const reads = await refReads(async () => {
      const report = await gcer.gc({ graceMs: 0 });
      expect(report.references_expired).toBe(1);
      expect(report.swept).toEqual([put.id]);
    });
    expect(reads).toBe(0);
    await expect(writer.open(put.shortRef, { session: "e" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
