/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))),
  };
}
export type Rng = ReturnType<typeof rng>;

/** A seed: AREF_STRESS_SEED when set (to replay a run), else a fresh one (printed by the suites). */
export const seedFromEnv = (): number => (process.env.AREF_STRESS_SEED ? Number(process.env.AREF_STRESS_SEED) : (Date.now() ^ (process.pid << 8)) >>> 0);
