// The store operations whose requests are counted on the wire (bench/s3.bench.ts, bench/latency.bench.ts)
// and held to their documented counts (test/request-counts.test.ts). Each operation has a setup (not
// counted) and a run (counted); contents are unique per call, so a run never finds another run's state.
import { ArtifactStore, DEFAULT_REMOTE_GC_GRACE_FLOOR_MS } from "@artifact-refs/store";

/**
 * The store-wide gc grace floor the counted store records (layout.json): the default of a store created
 * over S3. With a floor, a put into a session that finishes within it skips the refresh after its
 * reference write. A store created with `gcGraceFloorMs: 0` keeps that request (`withoutFloor`), so that
 * a gc with grace 0 on another instance stays safe.
 */
export const GRACE_FLOOR_MS = DEFAULT_REMOTE_GC_GRACE_FLOOR_MS;

export interface OperationContext {
  /** Unique text for this call. */
  text(): string;
  /** Unique session id for this call. */
  session(): string;
}

export interface Operation {
  name: string;
  /** Requests in a store with a grace floor (GRACE_FLOOR_MS), as documented in docs/benchmarks/store-s3.md. */
  requests: number;
  /** Requests in a store without a floor, where they differ. */
  withoutFloor?: number;
  /** Prepares state; returns what `run` needs. Not counted. */
  setup(store: ArtifactStore, ctx: OperationContext): Promise<unknown>;
  /** The counted operation. */
  run(store: ArtifactStore, state: unknown): Promise<unknown>;
}

interface Stored {
  text: string;
  id: string;
  shortRef: string;
  session: string;
}

/** Another instance over the same driver (nothing cached): what a second server process sees. */
const elsewhere = (store: ArtifactStore) => new ArtifactStore({ driver: store.driver });

const stored = async (store: ArtifactStore, ctx: OperationContext, session = ctx.session()): Promise<Stored> => {
  const text = ctx.text();
  const put = await store.put(text, { session });
  return { text, id: put.id, shortRef: put.shortRef, session };
};

/** A bounded fetch in two calls: the access check (reused within 60 s), then the content by id. */
const fetchByShortRef = async (store: ArtifactStore, s: unknown) => {
  const { session, shortRef } = s as Stored;
  const reference = await store.reference(session, shortRef, { maxAgeMs: 60_000 });
  return store.get(reference.artifact_id);
};

export const OPERATIONS: Operation[] = [
  {
    name: "put, new content, no session",
    requests: 2,
    setup: async (_s, ctx) => ctx.text(),
    run: (store, text) => store.put(text as string),
  },
  {
    name: "put, existing content, no session",
    requests: 2,
    setup: async (store, ctx) => {
      const text = ctx.text();
      await store.put(text);
      return text;
    },
    run: (store, text) => store.put(text as string),
  },
  {
    name: "put, new content, into a session",
    requests: 3,
    withoutFloor: 4,
    setup: async (_s, ctx) => ({ text: ctx.text(), session: ctx.session() }),
    run: (store, s) => store.put((s as Stored).text, { session: (s as Stored).session }),
  },
  {
    name: "put, new content, into a session with a TTL",
    requests: 3,
    withoutFloor: 4,
    setup: async (_s, ctx) => ({ text: ctx.text(), session: ctx.session() }),
    run: (store, s) => store.put((s as Stored).text, { session: (s as Stored).session, ttlMs: 3_600_000 }),
  },
  {
    // This instance stored it a moment ago (within the floor): the blob and the reference at once.
    name: "put, content another session stored, into a new session",
    requests: 2,
    withoutFloor: 4,
    setup: async (store, ctx) => ({ ...(await stored(store, ctx)), session: ctx.session() }),
    run: (store, s) => store.put((s as Stored).text, { session: (s as Stored).session }),
  },
  {
    // Another instance stored it: the blob and the record's conditional write, then the reference.
    name: "put, content another session stored, into a new session, stored by another instance",
    requests: 3,
    withoutFloor: 4,
    setup: async (store, ctx) => ({ ...(await stored(elsewhere(store), ctx)), session: ctx.session() }),
    run: (store, s) => store.put((s as Stored).text, { session: (s as Stored).session }),
  },
  {
    // This instance wrote the session's reference: the blob and the reference over that version, at once.
    name: "put, content the same session already holds",
    requests: 2,
    setup: (store, ctx) => stored(store, ctx),
    run: (store, s) => store.put((s as Stored).text, { session: (s as Stored).session }),
  },
  {
    // Another instance wrote it (nothing remembered here): writes, the reference's 412, its read, the write over it.
    name: "put, content the same session already holds, stored by another instance",
    requests: 5,
    withoutFloor: 6,
    setup: (store, ctx) => stored(elsewhere(store), ctx),
    run: (store, s) => store.put((s as Stored).text, { session: (s as Stored).session }),
  },
  {
    // Another instance wrote it and this one read it since (listed the session, as a turn's stash list
    // does): the blob and the reference over the version read, at once.
    name: "put, content the same session already holds, stored by another instance, listed here",
    requests: 2,
    setup: async (store, ctx) => {
      const s = await stored(elsewhere(store), ctx);
      await store.listReferences(s.session);
      return s;
    },
    run: (store, s) => store.put((s as Stored).text, { session: (s as Stored).session }),
  },
  {
    name: "get by id",
    requests: 1,
    setup: (store, ctx) => stored(store, ctx),
    run: (store, s) => store.get((s as Stored).id),
  },
  {
    // This instance stashed it: the listing shows the reference in the version it wrote (no read of it).
    name: "get by short ref in a session",
    requests: 2,
    setup: (store, ctx) => stored(store, ctx),
    run: (store, s) => store.get((s as Stored).shortRef, { session: (s as Stored).session }),
  },
  {
    name: "get by short ref in a session, stored by another instance",
    requests: 3,
    setup: (store, ctx) => stored(elsewhere(store), ctx),
    run: (store, s) => store.get((s as Stored).shortRef, { session: (s as Stored).session }),
  },
  {
    name: "bounded fetch by short ref in a session, cold (access check + content)",
    requests: 3,
    // Stored by another instance: this one has nothing cached.
    setup: (store, ctx) => stored(elsewhere(store), ctx),
    run: fetchByShortRef,
  },
  {
    name: "bounded fetch cold through open() (access check and content at once)",
    requests: 3,
    setup: (store, ctx) => stored(elsewhere(store), ctx),
    run: (store, s) => store.open((s as Stored).shortRef, { session: (s as Stored).session, maxAgeMs: 60_000 }),
  },
  {
    // Another instance stored it; this one listed the session since (a turn's stash list): the listing was
    // the access check, reused within maxAgeMs.
    name: "bounded fetch through open() after this instance listed the session",
    requests: 1,
    setup: async (store, ctx) => {
      const s = await stored(elsewhere(store), ctx);
      await store.listReferences(s.session);
      return s;
    },
    run: (store, s) => store.open((s as Stored).shortRef, { session: (s as Stored).session, maxAgeMs: 60_000 }),
  },
  {
    // Read here before, its access check past the caller's age: the listing shows the version read, so the
    // reference is not read again (the listing and the content).
    name: "bounded fetch through open(), access check past its age, reference unchanged",
    requests: 2,
    setup: async (store, ctx) => {
      const s = await stored(elsewhere(store), ctx);
      await store.reference(s.session, s.shortRef);
      return s;
    },
    run: (store, s) => store.open((s as Stored).shortRef, { session: (s as Stored).session, maxAgeMs: 0 }),
  },
  {
    name: "bounded fetch by short ref, right after this instance stashed it",
    requests: 1,
    setup: (store, ctx) => stored(store, ctx),
    run: fetchByShortRef,
  },
  {
    name: "bounded fetch, access check reused (second fetch)",
    requests: 1,
    setup: async (store, ctx) => {
      const s = await stored(elsewhere(store), ctx);
      await store.reference(s.session, s.shortRef, { maxAgeMs: 60_000 });
      return s;
    },
    run: fetchByShortRef,
  },
  {
    // This instance wrote them: listed in the versions it wrote, none is read.
    name: "list a session of 3 references",
    requests: 1,
    setup: async (store, ctx) => {
      const session = ctx.session();
      for (let i = 0; i < 3; i++) await stored(store, ctx, session);
      return session;
    },
    run: (store, session) => store.listReferences(session as string),
  },
  {
    name: "list a session of 3 references, stored by another instance",
    requests: 4,
    setup: async (store, ctx) => {
      const session = ctx.session();
      const other = elsewhere(store);
      for (let i = 0; i < 3; i++) await stored(other, ctx, session);
      return session;
    },
    run: (store, session) => store.listReferences(session as string),
  },
  {
    // A turn lists the session's stashes again: only the references changed since are read.
    name: "list a session of 3 references again, one changed by another instance since",
    requests: 2,
    setup: async (store, ctx) => {
      const session = ctx.session();
      const other = elsewhere(store);
      const texts = [ctx.text(), ctx.text(), ctx.text()];
      for (const text of texts) await other.put(text, { session });
      await store.listReferences(session);
      await other.put(texts[1]!, { session, label: "relabelled" });
      return session;
    },
    run: (store, session) => store.listReferences(session as string),
  },
  {
    // The server's session listing (GET /api/sessions/:id/artifacts): references and their records.
    name: "list a session, unchanged, through the server (3 references with their records)",
    requests: 1,
    setup: async (store, ctx) => {
      const session = ctx.session();
      for (let i = 0; i < 3; i++) await stored(elsewhere(store), ctx, session);
      await store.listArtifacts(session);
      return session;
    },
    run: (store, session) => store.listArtifacts(session as string),
  },
  {
    name: "remove a reference (by short ref)",
    requests: 2,
    setup: (store, ctx) => stored(store, ctx),
    run: (store, s) => store.removeReference((s as Stored).session, (s as Stored).shortRef),
  },
];

/** Requests per unit of a store-wide job (gc, verify): counted at two sizes, the difference divided. */
export interface PerItem {
  name: string;
  /** Requests per item, as documented. */
  requests: number;
  measure(
    count: (fn: () => Promise<unknown>) => Promise<number>,
    store: ArtifactStore,
    ctx: OperationContext,
  ): Promise<number>;
}

const S3_TIME_PRECISION_MS = 1_100; // S3 LastModified has second precision: gc's cutoff must pass it

export const PER_ITEM: PerItem[] = [
  {
    name: "gc, per swept blob (unreferenced, past grace)",
    requests: 5,
    async measure(count, store, ctx) {
      const sweep = async (n: number) => {
        for (let i = 0; i < n; i++) await store.put(ctx.text());
        await new Promise((r) => setTimeout(r, S3_TIME_PRECISION_MS));
        return count(() => store.gc({ graceMs: 0 }));
      };
      await store.gc({ graceMs: 0 });
      const one = await sweep(1);
      const eleven = await sweep(11);
      return (eleven - one) / 10;
    },
  },
  {
    // Stored by another instance, then read here once by a gc: a repeated gc's mark knows each by its listed version.
    name: "gc mark, per unchanged reference (read here by an earlier gc)",
    requests: 0,
    async measure(count, store, ctx) {
      const session = ctx.session();
      const other = elsewhere(store);
      const added = async (n: number) => {
        for (let i = 0; i < n; i++) await stored(other, ctx, session);
        await store.gc();
        return count(() => store.gc());
      };
      const one = await added(1);
      const eleven = await added(10);
      return (eleven - one) / 10;
    },
  },
  {
    name: "verify, per artifact (referenced, one blob)",
    requests: 3,
    async measure(count, store, ctx) {
      const session = ctx.session();
      const a = await count(() => store.verify());
      for (let i = 0; i < 10; i++) await stored(store, ctx, session);
      const b = await count(() => store.verify());
      return (b - a) / 10;
    },
  },
];

export function operationContext(tag = "op"): OperationContext {
  let n = 0;
  const salt = Math.random().toString(36).slice(2);
  return {
    text: () => `${tag} ${salt} content ${n++} `.repeat(40),
    session: () => `${tag}-${salt}-${n++}`,
  };
}
