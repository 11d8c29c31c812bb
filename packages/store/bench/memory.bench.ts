// The memory store at growing sizes: a session-scoped access check (resolve a short ref within
// the session, read and validate the reference) and a put with a session should not grow with
// the store. Run: pnpm --filter @artifact-refs/store bench
import { ArtifactStore, MemoryDriver } from "../src/index.js";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";

console.log(`machine: ${machine()}`);
const SIZES = [1_000, 10_000, 50_000] as const;
const stores = new Map<number, { store: ArtifactStore; refs: string[] }>();
for (const n of SIZES) {
  const store = new ArtifactStore({ driver: new MemoryDriver() });
  const refs: string[] = [];
  for (let i = 0; i < n; i++)
    refs.push((await store.put(`artifact number ${i} of ${n}`, { session: `s${i % 20}` })).shortRef);
  stores.set(n, { store, refs });
}
const label = (n: number) => `${n.toLocaleString("en-US")} artifacts`;
let i = 0;
const rows = await compare({
  title: "reference(session, shortRef): the strict access check, by store size",
  baseline: `reference, ${label(1_000)}`,
  cases: Object.fromEntries(
    SIZES.map((n) => {
      const { store, refs } = stores.get(n)!;
      return [`reference, ${label(n)}`, () => store.reference(`s${i % 20}`, refs[i++ % n]!)];
    }),
  ),
  time: Number(process.env.BENCH_TIME_MS ?? 1_500),
});
const mean = (n: number) =>
  (rows as Array<{ name: string; meanMs: number }>).find((r) => r.name === `reference, ${label(n)}`)!.meanMs;
console.log(`\ntime(50k) / time(1k): ${(mean(50_000) / mean(1_000)).toFixed(2)} (a listing is O(log n + matches))`);
