import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArtifactStore } from "../artifact-store.js";
import type { Driver } from "../driver.js";
import { recordKey } from "../record-keys.js";
import type { RecordWarning, StoredRecord } from "../session-records.js";
import { bytesOf, type DriverFactory, type DriverHarness } from "./harness.js";

const Turn = z.object({ n: z.number().int() });

/**
 * Session records over a driver: append-only, listed newest page first in order, bounded by
 * count and age, skipped (with a warning) when corrupt, removed by cleanupSession and gc.
 */
export function runRecordsContract(name: string, factory: DriverFactory): void {
  describe(`records contract: ${name}`, () => {
    let harness: DriverHarness;
    let driver: Driver;
    let clock: number;
    let warnings: RecordWarning[];
    let store: ArtifactStore;
    const open = (d: Driver, records = {}) =>
      new ArtifactStore({
        driver: d,
        now: () => new Date(clock),
        gcGraceMs: 0,
        gcGraceFloorMs: 0,
        records: { onWarning: (w) => warnings.push(w), ...records },
      });

    beforeEach(async () => {
      harness = await factory();
      driver = harness.driver;
      clock = Date.parse("2026-11-22T10:00:00.000Z");
      warnings = [];
      store = open(driver);
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    const appendMany = async (session: string, count: number, stepMs: number) => {
      const out: StoredRecord<{ n: number }>[] = [];
      for (let n = 0; n < count; n++) {
        out.push(await store.records.append(session, "turn", { n }));
        clock += stepMs;
      }
      return out;
    };

    it("lists in order, newest page first, and pages back to the first record", async () => {
      const written = await appendMany("s1", 25, 7_000); // spans several 100 s windows
      const seen: number[] = [];
      let before: string | undefined;
      let pages = 0;
      do {
        const page = await store.records.page("s1", "turn", { limit: 10, body: Turn, ...(before ? { before } : {}) });
        seen.unshift(...page.records.map((r) => r.body.n));
        before = page.before;
        pages++;
      } while (before !== undefined && pages < 10);
      expect(seen).toEqual(written.map((r) => r.body.n));
      expect(pages).toBe(3);
      const latest = await store.records.latest("s1", "turn", Turn);
      expect(latest?.body.n).toBe(24);
      expect(await store.records.sessions()).toEqual(["s1"]);
    });

    it("pages every record exactly once across gaps from 1 ms to days (windows of every size)", async () => {
      const gaps = [
        1, 1, 3, 900, 1_000, 9_999, 10_001, 99_000, 100_001, 5, 1_000_000, 7, 3_600_000, 1, 86_400_000, 2, 10_000_000,
        11, 999, 1,
      ];
      const written: string[] = [];
      for (let n = 0; n < 60; n++) {
        written.push((await store.records.append("s1", "turn", { n })).id);
        clock += gaps[(n * 7) % gaps.length]!;
      }
      // windowKeys 2 makes every listing split its windows down to the millisecond: the walk, not one listing.
      // (Few enough cases that a remote backend on a loaded machine stays well within the timeout.)
      for (const [limit, windowKeys] of [
        [1, 1000],
        [7, 1000],
        [60, 1000],
        [100, 1000],
        [7, 2],
        [5, 9],
      ] as const) {
        const reader = open(driver, { windowKeys });
        const seen: string[] = [];
        let before: string | undefined;
        for (let pages = 0; pages < 70; pages++) {
          const page = await reader.records.page("s1", "turn", { limit, ...(before ? { before } : {}) });
          seen.unshift(...page.records.map((r) => r.id));
          before = page.before;
          if (!before) break;
        }
        expect(seen, `limit ${limit}, windowKeys ${windowKeys}`).toEqual(written);
      }
    }, 180_000);

    it("orders records written in the same millisecond by the same writer", async () => {
      for (let n = 0; n < 5; n++) await store.records.append("s1", "turn", { n });
      expect((await store.records.page("s1", "turn", { body: Turn })).records.map((r) => r.body.n)).toEqual([
        0, 1, 2, 3, 4,
      ]);
    });

    it("another store instance on the same backend sees every record", async () => {
      if (!harness.reopen) return;
      await appendMany("s1", 3, 1_000);
      const other = open(await harness.reopen());
      try {
        await other.records.append("s1", "turn", { n: 3 });
        expect((await store.records.page("s1", "turn", { body: Turn })).records.map((r) => r.body.n)).toEqual([
          0, 1, 2, 3,
        ]);
      } finally {
        await other.close();
      }
    });

    it("skips a corrupt or hand-edited record with a warning, and verify reports it", async () => {
      const written = await appendMany("s1", 4, 1_000);
      await driver.put(recordKey("s1", "turn", written[1]!.id), bytesOf("{not json"));
      await driver.put(
        recordKey("s1", "turn", written[2]!.id),
        bytesOf(
          JSON.stringify({
            record: 1,
            id: written[2]!.id,
            session: "s1",
            kind: "turn",
            at: written[2]!.at,
            body: { n: "two" },
          }),
        ),
      );
      await driver.put(recordKey("s1", "turn", written[3]!.id).replace(/\.json$/, "x.json"), bytesOf("{}")); // a foreign key in the prefix
      const page = await store.records.page("s1", "turn", { body: Turn });
      expect(page.records.map((r) => r.body.n)).toEqual([0, 3]);
      expect(page.skipped.map((s) => s.message).join("\n")).toMatch(
        /not valid JSON[\s\S]*not a valid turn record|not a valid turn record[\s\S]*not valid JSON/,
      );
      expect(warnings.length).toBeGreaterThanOrEqual(3);
      const report = await store.verify();
      expect(report.ok).toBe(false);
      const kinds = report.problems.filter((p) => p.kind === "corrupt_record").map((p) => p.key);
      expect(kinds).toContain(recordKey("s1", "turn", written[1]!.id));
      // A body only the caller's schema rejects is a well-formed record for the store.
      expect(kinds).not.toContain(recordKey("s1", "turn", written[2]!.id));
      expect(kinds.length).toBe(2);
    });

    it("keeps at most maxRecords per session and kind, and hides and prunes records past maxAgeMs", async () => {
      await store.close();
      store = open(driver, { maxRecords: 5, pruneEvery: 4, maxAgeMs: 60_000 });
      await appendMany("s1", 8, 1_000); // the 4th and 8th appends prune
      expect((await store.records.page("s1", "turn", { body: Turn })).records.map((r) => r.body.n)).toEqual([
        3, 4, 5, 6, 7,
      ]);
      clock += 57_000; // now t0 + 65 s: records 3 (t0 + 3 s) and 4 (t0 + 4 s) are older than a minute
      expect((await store.records.page("s1", "turn", { body: Turn })).records.map((r) => r.body.n)).toEqual([5, 6, 7]);
      const report = await store.gc();
      expect(report.records_removed).toBe(2);
      expect((await store.records.page("s1", "turn", { body: Turn })).records.map((r) => r.body.n)).toEqual([5, 6, 7]);
    });

    it("cleanupSession removes the session's records, and only its", async () => {
      await store.put("content", { session: "s1" });
      await appendMany("s1", 3, 1_000);
      await appendMany("s2", 2, 1_000);
      await store.cleanupSession("s1");
      expect((await store.records.page("s1", "turn")).records).toEqual([]);
      expect((await store.records.page("s2", "turn")).records).toHaveLength(2);
      expect(await store.records.sessions()).toEqual(["s2"]);
    });

    it("gc removes the records of a session whose last reference expired", async () => {
      await store.put("short-lived", { session: "s1", ttlMs: 1_000 });
      await store.put("kept", { session: "s2" });
      await appendMany("s1", 3, 10);
      await appendMany("s2", 3, 10);
      clock += 5_000;
      const report = await store.gc();
      expect(report.records_removed).toBe(3);
      expect((await store.records.page("s1", "turn")).records).toEqual([]);
      expect((await store.records.page("s2", "turn")).records).toHaveLength(3);
    });

    it("rejects bad input with clear errors", async () => {
      await expect(store.records.append("../x", "turn", {})).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.records.append("s1", "Bad Kind", {})).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.records.page("s1", "turn", { limit: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await expect(store.records.page("s1", "turn", { before: "yesterday" })).rejects.toMatchObject({
        code: "INVALID_INPUT",
      });
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      await expect(store.records.append("s1", "turn", cyclic)).rejects.toMatchObject({ code: "INVALID_INPUT" });
      expect(() => new ArtifactStore({ driver, records: { maxRecords: 0 } })).toThrow(/maxRecords/);
    });
  });
}
