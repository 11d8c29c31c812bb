import { existsSync } from "node:fs";
import {
  FetchReceiptSchema,
  GcReceiptSchema,
  ListReceiptSchema,
  StashReceiptSchema,
  StatsReceiptSchema,
  VerifyReceiptSchema,
} from "@artifact-refs/schema";
import { useS3Server } from "@artifact-refs/tooling/testing/s3";
import { describe, expect, it } from "vitest";
import { BIN, run, spawnCli } from "./helpers.js";

// aref against a real S3-compatible server (fauxqs on 127.0.0.1, started here):
// `--store s3://bucket/prefix?endpoint=…&forcePathStyle=true`, and the same in AREF_STORE.
// The AWS SDK's default credential chain reads the test credentials from the environment.
const s3 = useS3Server();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("aref --store s3://…", () => {
  it("stash, fetch, list, gc, verify and stats work against the S3 server", async () => {
    // gc runs with grace 0 below: the store opts out of S3's default 60 s grace floor.
    const store = `${s3.storeSpec(s3.createBucket(), "cli/acceptance")}&gcGraceFloorMs=0`;
    const log = Array.from({ length: 400 }, (_, i) => `line ${i}: ${i % 50 === 0 ? "ERROR disk full" : "ok"}`).join(
      "\n",
    );
    const stashed = StashReceiptSchema.parse(
      (
        await run(["stash", "-", "--store", store, "--session", "s1", "--label", "build.log", "--json"], { stdin: log })
      ).json(),
    );
    expect(stashed.deduped).toBe(false);
    const again = StashReceiptSchema.parse(
      (await run(["stash", "-", "--store", store, "--session", "s2", "--json"], { stdin: log })).json(),
    );
    // Another session never learns that these bytes were stored before (per-session dedupe).
    expect(again).toMatchObject({ artifact_id: stashed.artifact_id, deduped: false });
    const same = StashReceiptSchema.parse(
      (await run(["stash", "-", "--store", store, "--session", "s1", "--json"], { stdin: log })).json(),
    );
    expect(same).toMatchObject({ artifact_id: stashed.artifact_id, deduped: true });

    const grep = FetchReceiptSchema.parse(
      (await run(["fetch", stashed.short_ref, "--store", store, "--grep", "ERROR", "--json"])).json(),
    );
    expect(grep.short_ref).toBe(stashed.short_ref);
    expect(JSON.stringify(grep)).toContain("ERROR disk full");

    const list = ListReceiptSchema.parse((await run(["list", "--session", "s1", "--store", store, "--json"])).json());
    expect(list.items.map((i) => [i.artifact_id, i.label])).toEqual([[stashed.artifact_id, "build.log"]]);

    // A blob whose only reference is removed becomes garbage; the referenced log stays.
    const orphan = StashReceiptSchema.parse(
      (await run(["stash", "-", "--store", store, "--session", "tmp", "--json"], { stdin: "orphan" })).json(),
    );
    expect((await run(["rm", orphan.short_ref, "--session", "tmp", "--store", store])).code).toBe(0);
    await sleep(1_100); // S3 times have one-second precision
    const gc = GcReceiptSchema.parse((await run(["gc", "--grace", "0", "--store", store, "--json"])).json());
    expect(gc.swept).toEqual([orphan.artifact_id]);
    expect((await run(["fetch", stashed.artifact_id, "--store", store, "--json"])).code).toBe(0);

    const verify = VerifyReceiptSchema.parse((await run(["verify", "--store", store, "--json"])).json());
    expect(verify).toMatchObject({ ok: true, blobs_checked: 1, problems: [] });
    const stats = StatsReceiptSchema.parse((await run(["stats", "--store", store, "--json"])).json());
    expect(stats).toMatchObject({ blobs: 1, references: 2, sessions: 2, dedupe_ratio: 2 });
  });

  it("AREF_STORE names the S3 store when --store is absent", async () => {
    const spec = s3.storeSpec(s3.createBucket(), "from-env");
    const stashed = StashReceiptSchema.parse(
      (
        await run(["stash", "-", "--session", "env", "--json"], { stdin: "via AREF_STORE", env: { AREF_STORE: spec } })
      ).json(),
    );
    const list = ListReceiptSchema.parse(
      (await run(["list", "--session", "env", "--json"], { env: { AREF_STORE: spec } })).json(),
    );
    expect(list.items.map((i) => i.artifact_id)).toEqual([stashed.artifact_id]);
  });

  it("a bucket that does not exist is a clear error and a non-zero exit", async () => {
    const r = await run(["stash", "-", "--store", s3.storeSpec("no-such-bucket-for-cli", "x")], { stdin: "x" });
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("bucket no-such-bucket-for-cli does not exist");
  });

  it("the built aref binary: separate processes share one bucket", async () => {
    expect(existsSync(BIN), `${BIN} is missing: build first (pnpm --filter @artifact-refs/cli... build)`).toBe(true);
    const store = s3.storeSpec(s3.createBucket(), "processes");
    const env = { ...s3.env };
    const stash = await spawnCli(["stash", "-", "--store", store, "--session", "p", "--json"], {
      stdin: "from the first process\n",
      env,
    });
    expect(stash.err).toBe("");
    expect(stash.code).toBe(0);
    const receipt = StashReceiptSchema.parse(JSON.parse(stash.out));
    const fetch = await spawnCli(["fetch", receipt.short_ref, "--store", store, "--session", "p", "--json"], { env });
    expect(fetch.code).toBe(0);
    expect(fetch.out).toContain("from the first process");
    const list = await spawnCli(["list", "--store", store, "--json"], {
      env: { ...env, AREF_STORE: "./ignored-because-flag-wins" },
    });
    expect(ListReceiptSchema.parse(JSON.parse(list.out)).sessions).toEqual([{ session: "p", references: 1 }]);
    const gc = await spawnCli(["gc", "--store", store, "--json"], { env });
    expect(GcReceiptSchema.parse(JSON.parse(gc.out)).blobs_swept).toBe(0);
    const verify = await spawnCli(["verify", "--store", store, "--json"], { env });
    expect(VerifyReceiptSchema.parse(JSON.parse(verify.out)).ok).toBe(true);
  });
});
