/**
 * Short or full run. The same test files serve both: `vitest run` (CI) runs the short
 * sizes, `AREF_STRESS=full` (the `stress` script) the full ones.
 */
export const FULL = process.env.AREF_STRESS === "full";

/** `short` in the CI run, `full` in the stress run. */
export const scale = <T>(short: T, full: T): T => (FULL ? full : short);
