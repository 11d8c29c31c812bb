import { ArtifactStore } from "@artifact-refs/store";
import type { S3Driver } from "@artifact-refs/store-s3";
import { describe, expect, it } from "vitest";
import { useS3 } from "./support.js";

/**
 * The listing's versions (ListObjectsV2 ETags) on S3: a reference listed in the version this instance read
 * or wrote is not read again; any change by another instance (a relabel, a new TTL, a removal) shows in the
 * listing and is read, or found missing. Requests counted on the wire by the fault proxy.
 */
describe("references listed in a version this instance holds are not read again", () => {
  const s3 = useS3();
  let clock = Date.now();
  /** Two instances over one bucket; the reader's clock is `clock` (to pass an expiry without waiting). */
  const pair = () => {
    const writer = new ArtifactStore({ driver: s3.driver({ via: "proxy", conditionalWrites: "on" }) });
    const reader = new ArtifactStore({
      driver: s3.driver({ via: "proxy", conditionalWrites: "on", bucket: (writer.driver as S3Driver).bucket }),
      now: () => new Date(clock),
    });
    return { writer, reader };
  };
  const counted = async <T>(fn: () => Promise<T>) => {
    s3.proxy.clearLog();
    const value = await fn();
    const requests = s3.proxy.requests.map(
      (r) =>
        `${r.method} ${r.query?.includes("list-type") ? "LIST" : /(^|\/)refs\//.test(r.key) ? "ref" : /(^|\/)blobs\//.test(r.key) ? "blob" : r.key} ${r.status}`,
    );
    return { value, requests };
  };

  it("a fetch whose listing shows the version read here skips the reference; a change there is read", async () => {
    const { writer, reader } = pair();
    await reader.put("warm up: the layout check");
    const put = await writer.put("listed versions: fetch", { session: "s", label: "first" });
    await reader.reference("s", put.shortRef);

    const same = await counted(() => reader.open(put.shortRef, { session: "s", maxAgeMs: 0 }));
    expect(same.requests).toEqual(["GET LIST 200", "GET blob 200"]);
    expect(same.value.reference?.label).toBe("first");
    // The session's view of the record and a stream: the same check, no read of the reference either.
    const record = await counted(() => reader.getRecord(put.shortRef, { session: "s" }));
    expect(record.value.label).toBe("first");
    expect(record.requests.filter((r) => r.startsWith("GET ref"))).toEqual([]);
    const stream = await counted(() => reader.getStream(put.shortRef, { session: "s" }));
    stream.value.destroy();
    expect(stream.requests.filter((r) => r.startsWith("GET ref"))).toEqual([]);

    // Relabelled there: another ETag in the listing, so the reference is read (and its new label seen).
    await writer.put("listed versions: fetch", { session: "s", label: "second" });
    const changed = await counted(() => reader.open(put.shortRef, { session: "s", maxAgeMs: 0 }));
    expect(changed.requests.sort()).toEqual(["GET LIST 200", "GET blob 200", "GET ref 200"]);
    expect(changed.value.reference?.label).toBe("second");

    // Removed there: the listing shows no key, NOT_FOUND without reading anything else.
    expect(await writer.removeReference("s", put.shortRef)).toBe(true);
    await expect(reader.open(put.shortRef, { session: "s", maxAgeMs: 0 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("a reference known by its version still expires: EXPIRED once its time has passed, without reading it", async () => {
    const { writer, reader } = pair();
    await reader.put("warm up: the layout check");
    clock = Date.now();
    const put = await writer.put("listed versions: expiry", { session: "t", ttlMs: 60_000 });
    await reader.reference("t", put.shortRef);
    clock += 120_000;
    const expired = await counted(() =>
      reader.open(put.shortRef, { session: "t", maxAgeMs: 0 }).then(
        () => "served",
        (error: { code?: string }) => error.code,
      ),
    );
    expect(expired.value).toBe("EXPIRED");
    expect(expired.requests.filter((r) => r.startsWith("GET ref"))).toEqual([]);
    // The writer renews it (a new TTL from now): another version, read, live again.
    clock = Date.now();
    await writer.put("listed versions: expiry", { session: "t", ttlMs: 3_600_000 });
    const renewed = await reader.open(put.shortRef, { session: "t", maxAgeMs: 0 });
    expect(renewed.reference?.expires_at).toBeDefined();
    expect(Date.parse(renewed.reference!.expires_at!)).toBeGreaterThan(clock + 3_000_000);
  });

  it("a session listed again reads only the references changed since; a listing is the access check of a fetch within maxAgeMs", async () => {
    const { writer, reader } = pair();
    await reader.put("warm up: the layout check");
    const texts = ["listed versions: a", "listed versions: b", "listed versions: c"];
    const puts: Array<{ id: string; shortRef: string }> = [];
    for (const text of texts) puts.push(await writer.put(text, { session: "l", label: "old" }));
    expect((await counted(() => reader.listReferences("l"))).requests).toHaveLength(4);

    await writer.put(texts[1]!, { session: "l", label: "new" });
    expect(await writer.removeReference("l", puts[2]!.shortRef)).toBe(true);
    const again = await counted(() => reader.listReferences("l"));
    expect(again.requests.sort()).toEqual(["GET LIST 200", "GET ref 200"]);
    expect(again.value.map((r) => [r.artifact_id, r.label])).toEqual(
      expect.arrayContaining([
        [puts[0]!.id, "old"],
        [puts[1]!.id, "new"],
      ]),
    );
    expect(again.value).toHaveLength(2);

    // The listing was an access check made now: a fetch by the short ref within maxAgeMs reads the content alone.
    const fetched = await counted(() => reader.open(puts[1]!.shortRef, { session: "l", maxAgeMs: 60_000 }));
    expect(fetched.requests).toEqual(["GET blob 200"]);
    expect(fetched.value.reference?.label).toBe("new");
    // Without an age to reuse, the removed one is checked again and found missing.
    await expect(reader.open(puts[2]!.shortRef, { session: "l", maxAgeMs: 0 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
