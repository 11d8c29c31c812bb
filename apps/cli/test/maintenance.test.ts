import { mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import {
  GcReceiptSchema,
  ListReceiptSchema,
  PeekReceiptSchema,
  RmReceiptSchema,
  StatsReceiptSchema,
  VerifyReceiptSchema,
} from "@artifact-refs/schema";
import { openStore } from "@artifact-refs/store-spec";
import { describe, expect, it } from "vitest";
import { blobPath, flipByte, metaPath, refPath, run, tempFile, tempStore } from "./helpers.js";

async function stash(store: string, content: string, ...args: string[]) {
  const r = await run(["stash", "-", "--store", store, "--json", ...args], { stdin: content });
  expect(r.code).toBe(0);
  return r.json() as { artifact_id: string; short_ref: string; handle: string };
}

describe("aref list", () => {
  it("without --session lists sessions with their live counts", async () => {
    const store = tempStore();
    await stash(store, "a", "--session", "s1");
    await stash(store, "b", "--session", "s1");
    await stash(store, "c", "--session", "s2");
    await stash(store, "d", "--session", "s3", "--ttl", "1ms");
    await new Promise((r) => setTimeout(r, 20));
    const r = await run(["list", "--store", store, "--json"]);
    expect(r.code).toBe(0);
    const list = ListReceiptSchema.parse(r.json());
    expect(list.sessions).toEqual([
      { session: "s1", references: 2 },
      { session: "s2", references: 1 },
      { session: "s3", references: 0 },
    ]);
    const human = await run(["list", "--store", store]);
    expect(human.out).toMatch(/^SESSION +ARTIFACTS\ns1 +2\ns2 +1\ns3 +0\n$/);
    const expired = ListReceiptSchema.parse((await run(["list", "--store", store, "--json", "--expired"])).json());
    expect(expired.sessions!.find((s) => s.session === "s3")!.references).toBe(1);
  });

  it("--session lists that session's artifacts oldest first; --all every session's", async () => {
    const store = tempStore();
    const a = await stash(store, "alpha\n", "--session", "s1", "--label", "first", "--type", "log");
    const b = await stash(store, '{"k": 1}', "--session", "s1", "--label", "second", "--ttl", "1h");
    await stash(store, "alpha\n", "--session", "s2", "--label", "shared");
    const r = await run(["list", "--session", "s1", "--store", store, "--json"]);
    const list = ListReceiptSchema.parse(r.json());
    expect(list.session).toBe("s1");
    expect(list.count).toBe(2);
    expect(list.items.map((i) => i.artifact_id)).toEqual([a.artifact_id, b.artifact_id]);
    expect(list.items[0]).toMatchObject({
      label: "first",
      type: "log",
      size_bytes: 6,
      session: "s1",
      short_ref: a.short_ref,
      handle: a.handle,
    });
    expect(list.items[1]!.expires_at).toBeDefined();
    const human = await run(["list", "--session", "s1", "--store", store]);
    expect(human.out).toMatch(/^REF +TYPE +SIZE +CREATED \(UTC\) +LABEL: SUMMARY\n/);
    expect(human.out).toContain(a.short_ref);
    expect(human.out).toMatch(/second: .*\[expires /);
    const all = ListReceiptSchema.parse((await run(["ls", "--all", "--store", store, "--json"])).json());
    expect(all.count).toBe(3);
    expect(all.items.map((i) => i.session).sort()).toEqual(["s1", "s1", "s2"]);
  });

  it("says so when the store is empty", async () => {
    const store = tempStore();
    mkdirSync(store);
    const r = await run(["list", "--store", store]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/no sessions: the store is empty/);
  });
});

describe("aref peek", () => {
  it("shows the record, a preview within --chars and every session's reference", async () => {
    const store = tempStore();
    const text = Array.from({ length: 200 }, (_, i) => `row ${i} ${"x".repeat(20)}`).join("\n");
    const s = await stash(store, text, "--session", "s1", "--label", "rows.txt");
    await stash(store, text, "--session", "s2", "--ttl", "1d");
    const r = await run(["peek", s.short_ref, "--store", store, "--json"]);
    expect(r.code).toBe(0);
    const peek = PeekReceiptSchema.parse(r.json());
    expect(peek.record).toMatchObject({
      artifact_id: s.artifact_id,
      size_bytes: Buffer.byteLength(text),
      encoding: "utf-8",
    });
    expect(peek.references.find((x) => x.session_id === "s1")?.label).toBe("rows.txt"); // labels are per session
    expect(peek.preview.length).toBeLessThanOrEqual(400);
    expect(peek.preview).toContain("row 0");
    expect(peek.references.map((x) => x.session_id)).toEqual(["s1", "s2"]);
    const small = PeekReceiptSchema.parse(
      (await run(["peek", s.short_ref, "--store", store, "--json", "--chars", "50"])).json(),
    );
    expect(small.preview.length).toBeLessThanOrEqual(50);
    const scoped = PeekReceiptSchema.parse(
      (await run(["peek", s.short_ref, "--store", store, "--json", "--session", "s2"])).json(),
    );
    expect(scoped.references.map((x) => x.session_id)).toEqual(["s2"]);
    const human = await run(["peek", s.short_ref, "--store", store]);
    expect(human.out).toMatch(new RegExp(`^${s.short_ref}  ${s.handle}\ntype: tool_output +size: `));
    expect(human.out).toMatch(/references: s1 \(rows\.txt\), s2 \[expires /); // s2 gave no label: it does not get s1's
  });

  it("previews binary content as bytes", async () => {
    const store = tempStore();
    const ref = (await run(["stash", tempFile("x.bin", Buffer.from([0, 1, 2, 255])), "--store", store])).out.trim();
    const peek = (await run(["peek", ref, "--store", store, "--json"])).json();
    expect(peek.record.encoding).toBe("binary");
    expect(peek.preview).toMatch(/00 01 02 ff/);
  });
});

describe("aref rm and gc", () => {
  it("rm drops one session's reference; gc then sweeps the blob once no reference holds it", async () => {
    const store = tempStore();
    const s = await stash(store, "to be removed", "--session", "s1");
    await stash(store, "to be removed", "--session", "s2");
    const rm1 = await run(["rm", s.short_ref, "--session", "s1", "--store", store, "--json"]);
    expect(rm1.code).toBe(0);
    expect(RmReceiptSchema.parse(rm1.json())).toMatchObject({
      artifact_id: s.artifact_id,
      session: "s1",
      references_removed: 1,
      blob_removed: false,
    });
    expect((await run(["list", "--session", "s1", "--store", store])).code).toBe(3); // s1 holds nothing any more
    const keep = GcReceiptSchema.parse((await run(["gc", "--grace", "0", "--store", store, "--json"])).json());
    expect(keep.blobs_swept).toBe(0); // s2 still references it
    const rm2 = await run(["rm", s.short_ref, "--session", "s2", "--store", store]);
    expect(rm2.out).toMatch(/removed session s2's reference/);
    const dry = GcReceiptSchema.parse(
      (await run(["gc", "--grace", "0", "--dry-run", "--store", store, "--json"])).json(),
    );
    expect(dry).toMatchObject({
      dry_run: true,
      blobs_swept: 1,
      swept: [s.artifact_id],
      artifacts_swept: [s.artifact_id],
    });
    expect((await run(["cat", s.short_ref, "--store", store])).out).toBe("to be removed");
    const gc = await run(["gc", "--grace", "0", "--store", store]);
    expect(gc.code).toBe(0);
    expect(gc.out).toMatch(/^gc: swept 1 of 1 blobs \(13 B\)/);
    expect(gc.out).toContain(`\nremoved 1 artifact:\n  ${s.short_ref}\n`);
    const cat = await run(["cat", s.short_ref, "--store", store]);
    expect(cat.code).toBe(3);
  });

  it("gc names a chunked artifact it removes by its artifact id (human and --json), never a referenced one", async () => {
    const store = tempStore();
    // Over 512 KiB each: stored in chunks, with no blob under the artifact's own id.
    const big = (tag: string) =>
      Array.from({ length: 20_000 }, (_, i) => `${tag} line ${i} ${"y".repeat(i % 23)}`).join("\n");
    const dropped = await stash(store, big("dropped"), "--session", "s1");
    const kept = await stash(store, big("kept"), "--session", "s2");
    expect((await run(["rm", dropped.short_ref, "--session", "s1", "--store", store])).code).toBe(0);
    const dry = GcReceiptSchema.parse(
      (await run(["gc", "--grace", "0", "--dry-run", "--store", store, "--json"])).json(),
    );
    expect(dry.dry_run).toBe(true);
    expect(dry.artifacts_swept).toEqual([dropped.artifact_id]);
    expect(dry.blobs_swept).toBeGreaterThan(1); // its manifest and chunks
    expect(dry.swept).not.toContain(dropped.artifact_id); // a chunked artifact has no blob of its own
    const dryHuman = await run(["gc", "--grace", "0", "--dry-run", "--store", store]);
    expect(dryHuman.out).toMatch(new RegExp(`\nwould remove 1 artifact:\n  ${dropped.short_ref}\n`));
    expect(dryHuman.out).not.toContain(kept.short_ref);
    expect((await run(["cat", dropped.short_ref, "--store", store])).code).toBe(0); // nothing deleted yet
    const gc = await run(["gc", "--grace", "0", "--store", store]);
    expect(gc.code).toBe(0);
    expect(gc.out).toMatch(
      new RegExp(`^gc: swept ${dry.blobs_swept} of \\d+ blobs .*\nremoved 1 artifact:\n  ${dropped.short_ref}\n$`),
    );
    expect((await run(["cat", dropped.short_ref, "--store", store])).code).toBe(3);
    expect((await run(["cat", kept.short_ref, "--store", store])).out).toBe(big("kept"));
    const again = GcReceiptSchema.parse((await run(["gc", "--grace", "0", "--store", store, "--json"])).json());
    expect(again).toMatchObject({ blobs_swept: 0, artifacts_swept: [] });
  });

  it("gc keeps fresh unreferenced blobs within the default grace and expires references past their TTL", async () => {
    const store = tempStore();
    const s = await stash(store, "short lived", "--session", "s1", "--ttl", "1ms");
    await new Promise((r) => setTimeout(r, 20));
    const gc = GcReceiptSchema.parse((await run(["gc", "--store", store, "--json"])).json());
    expect(gc.references_expired).toBe(1);
    expect(gc.blobs_swept).toBe(0); // younger than the 10-minute grace
    const swept = GcReceiptSchema.parse((await run(["gc", "--grace", "0", "--store", store, "--json"])).json());
    expect(swept.swept).toEqual([s.artifact_id]);
  });

  it("gc --dry-run reports the session records it would remove and removes none; gc removes them", async () => {
    const store = tempStore();
    await stash(store, "short lived", "--session", "ends", "--ttl", "1ms");
    const opened = await openStore(store);
    for (let i = 0; i < 3; i++) await opened.records.append("ends", "execution", { i });
    await opened.close();
    await new Promise((r) => setTimeout(r, 20));
    const dry = await run(["gc", "--dry-run", "--store", store]);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/would remove 0 temp files and 3 session records/);
    const dryJson = GcReceiptSchema.parse((await run(["gc", "--dry-run", "--store", store, "--json"])).json());
    expect(dryJson).toMatchObject({ dry_run: true, records_removed: 3, references_expired: 1 });
    const reopened = await openStore(store);
    expect((await reopened.records.page("ends", "execution")).records).toHaveLength(3);
    await reopened.close();
    const gc = await run(["gc", "--store", store]);
    expect(gc.out).toMatch(/removed 0 temp files and 3 session records/);
    const after = await openStore(store);
    expect((await after.records.page("ends", "execution")).records).toEqual([]);
    await after.close();
  });

  it("rm --purge --yes deletes the content and every session's reference", async () => {
    const store = tempStore();
    const s = await stash(store, "purge me", "--session", "s1");
    await stash(store, "purge me", "--session", "s2");
    const r = await run(["rm", s.short_ref, "--purge", "--yes", "--store", store, "--json"]);
    expect(r.code).toBe(0);
    expect(RmReceiptSchema.parse(r.json())).toMatchObject({
      artifact_id: s.artifact_id,
      references_removed: 2,
      blob_removed: true,
    });
    expect((await run(["cat", s.handle, "--store", store])).code).toBe(3);
    expect((await run(["list", "--store", store, "--json"])).json().sessions).toEqual([]);
  });
});

describe("aref verify and corruption on disk", () => {
  it("reports a blob whose byte was flipped (exit 5); cat and fetch refuse it; re-stashing heals it", async () => {
    const store = tempStore();
    const good = await stash(store, "good content\n");
    const bad = await stash(store, "this blob will be damaged on disk\n");
    flipByte(blobPath(store, bad.artifact_id), 3);
    const r = await run(["verify", "--store", store, "--json"]);
    expect(r.code).toBe(5);
    const v = VerifyReceiptSchema.parse(r.json());
    expect(v.ok).toBe(false);
    expect(v.blobs_checked).toBe(2);
    expect(v.problems).toHaveLength(1);
    expect(v.problems[0]).toMatchObject({ kind: "integrity", artifact_id: bad.artifact_id, repaired: false });
    const human = await run(["verify", "--store", store]);
    expect(human.code).toBe(5);
    expect(human.out).toMatch(new RegExp(`PROBLEM +integrity +art:${bad.artifact_id.slice(0, 12)}`));
    expect(human.err).toMatch(/stashing its original content again/);
    const cat = await run(["cat", bad.short_ref, "--store", store]);
    expect(cat.code).toBe(5);
    expect(cat.out).toBe("");
    expect(cat.err).toMatch(/^aref: artifact art:[0-9a-f]{12} failed its integrity check/);
    const fetch = await run(["fetch", bad.short_ref, "--store", store, "--json"]);
    expect(fetch.code).toBe(5);
    expect(fetch.json().error.code).toBe("INTEGRITY");
    expect((await run(["cat", good.short_ref, "--store", store])).out).toBe("good content\n");
    const heal = await run(["stash", "-", "--store", store], { stdin: "this blob will be damaged on disk\n" });
    expect(heal.err).toMatch(/a corrupt stored copy was replaced/);
    expect((await run(["verify", "--store", store])).code).toBe(0);
  });

  for (const [name, damage] of [
    ["truncated", (path: string) => truncateSync(path, 20)],
    ["garbage", (path: string) => writeFileSync(path, "\u0000\u0001 not json at all")],
    ["wrong-shaped", (path: string) => writeFileSync(path, JSON.stringify({ artifact_id: "nope", size_bytes: -1 }))],
  ] as const) {
    it(`${name} metadata: peek fails with CORRUPT_METADATA, list warns, verify reports and --repair rebuilds it`, async () => {
      const store = tempStore();
      const s = await stash(store, "content with a damaged record\n", "--label", "damaged");
      damage(metaPath(store, s.artifact_id));
      const peek = await run(["peek", s.short_ref, "--store", store, "--json"]);
      expect(peek.code).toBe(5);
      expect(peek.json().error.code).toBe("CORRUPT_METADATA");
      expect(peek.json().error.hint).toMatch(/aref verify --repair/);
      const list = await run(["list", "--session", "default", "--store", store, "--json"]);
      expect(list.code).toBe(0);
      expect(list.json().items[0].summary).toMatch(/metadata unreadable/);
      expect(list.json().items[0].size_bytes).toBe(30);
      expect(list.err).toMatch(/aref: warning: .*is corrupt/);
      const verify = await run(["verify", "--store", store, "--json"]);
      expect(verify.code).toBe(5);
      expect(verify.json().problems[0]).toMatchObject({
        kind: "corrupt_metadata",
        artifact_id: s.artifact_id,
        repaired: false,
      });
      const repair = await run(["verify", "--repair", "--store", store, "--json"]);
      expect(repair.code).toBe(0);
      expect(repair.json()).toMatchObject({ ok: true, repaired: 1 });
      expect((await run(["verify", "--store", store])).out).toMatch(/no problems/);
      expect((await run(["peek", s.short_ref, "--store", store])).code).toBe(0);
      expect((await run(["cat", s.short_ref, "--store", store])).out).toBe("content with a damaged record\n");
    });
  }

  it("a garbage reference file is reported by verify and dropped by --repair", async () => {
    const store = tempStore();
    const s = await stash(store, "referenced\n", "--session", "s1");
    const refFile = refPath(store, "s1", s.artifact_id);
    expect(JSON.parse(readFileSync(refFile, "utf8")).session_id).toBe("s1");
    writeFileSync(refFile, "{ truncated");
    const v = VerifyReceiptSchema.parse((await run(["verify", "--store", store, "--json"])).json());
    expect(v.problems.map((p) => p.kind)).toEqual(["corrupt_reference"]);
    expect((await run(["verify", "--repair", "--store", store])).code).toBe(0);
    expect((await run(["verify", "--store", store])).code).toBe(0);
  });
});

describe("aref stats", () => {
  it("counts blobs, bytes, references, sessions and the dedupe ratio", async () => {
    const store = tempStore();
    await stash(store, "12345", "--session", "s1");
    await stash(store, "12345", "--session", "s2");
    await stash(store, "abc", "--session", "s2");
    const r = await run(["stats", "--store", store, "--json"]);
    expect(r.code).toBe(0);
    expect(StatsReceiptSchema.parse(r.json())).toMatchObject({
      blobs: 2,
      bytes: 8,
      references: 3,
      sessions: 2,
      logical_bytes: 13,
      dedupe_ratio: 1.625,
    });
    const human = await run(["stats", "--store", store]);
    expect(human.out).toMatch(
      /^blobs +2\nbytes +8 B \(8\)\nreferences +3\nsessions +2\nlogical bytes +13 B \(13\)\ndedupe ratio +1\.625\n$/,
    );
  });
});

describe("progress bar", () => {
  async function largeStore(items: number): Promise<string> {
    const location = tempStore();
    const store = await openStore(location);
    for (let i = 0; i < items; i++) await store.put(`item ${i}\n`, { session: "bulk" });
    await store.close();
    return location;
  }

  it("shows on a terminal stderr for a large store, never on stdout", async () => {
    const store = await largeStore(80); // 80 blobs + 80 records + 80 references = 240 items
    const r = await run(["verify", "--store", store, "--json"], { stderrTTY: true });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/verify \[[█░]+\] 100% \| 240\/240/);
    expect(VerifyReceiptSchema.parse(r.json()).blobs_checked).toBe(80);
  });

  it("stays off when stderr is not a terminal, or the store is small", async () => {
    const big = await largeStore(80);
    const piped = await run(["verify", "--store", big]);
    expect(piped.err).toBe("");
    const small = await largeStore(10);
    const tty = await run(["verify", "--store", small], { stderrTTY: true });
    expect(tty.err).toBe("");
  });

  it("gc shows it when it has many candidates", async () => {
    const store = await largeStore(210);
    const location = await openStore(store);
    await location.cleanupSession("bulk");
    await location.close();
    const r = await run(["gc", "--grace", "0", "--store", store], { stderrTTY: true });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^gc: swept 210 of 210 blobs/);
    expect(r.err).toMatch(/gc \[[█░]+\] 100% \| 210\/210/);
  });
});

describe("aref verify and session records", () => {
  it("reports a hand-edited record object (exit 5), which listings skip with a warning", async () => {
    const store = tempStore();
    const opened = await openStore(store);
    const good = await opened.records.append("s1", "execution", { n: 1 });
    const edited = await opened.records.append("s1", "execution", { n: 2 });
    await opened.close();
    const key = `records/s1/execution/${edited.id.slice(0, 6)}/${edited.id.slice(6, 8)}/${edited.id.slice(8, 9)}/${edited.id}.json`;
    writeFileSync(`${store}/${key}`, '{"record": 1, "id": "hand-edited"');
    const r = await run(["verify", "--store", store, "--json"]);
    expect(r.code).toBe(5);
    const v = VerifyReceiptSchema.parse(r.json());
    expect(v.problems).toEqual([expect.objectContaining({ kind: "corrupt_record", key, repaired: false })]);
    expect((await run(["verify", "--store", store])).out).toMatch(/PROBLEM +corrupt_record/);
    const reopened = await openStore(store);
    const page = await reopened.records.page("s1", "execution");
    expect(page.records.map((x) => x.id)).toEqual([good.id]);
    expect(page.skipped).toEqual([expect.objectContaining({ key, message: "not valid JSON" })]);
    await reopened.close();
  });
});
