/**
 * A seed for the suites' PRNG (`rng` of @artifact-refs/tooling/testing/rng): AREF_STRESS_SEED when
 * set (to replay a run), else a fresh one (printed by the suites).
 */
export const seedFromEnv = (): number =>
  process.env.AREF_STRESS_SEED ? Number(process.env.AREF_STRESS_SEED) : (Date.now() ^ (process.pid << 8)) >>> 0;
