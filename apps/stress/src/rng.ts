import { rng, type Rng } from "@artifact-refs/tooling/testing/rng";

/** The seeded PRNG (mulberry32) shared with the other suites and the stress children. */
export { rng, type Rng };

/** A seed: AREF_STRESS_SEED when set (to replay a run), else a fresh one (printed by the suites). */
export const seedFromEnv = (): number => (process.env.AREF_STRESS_SEED ? Number(process.env.AREF_STRESS_SEED) : (Date.now() ^ (process.pid << 8)) >>> 0);
