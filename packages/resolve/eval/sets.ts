// The reference sets both eval scripts score (this package's run-dev.ts and resolve-semantic's run-semantic.ts),
// and which of them are held out. One list, so a new held-out set is frozen everywhere at once.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const shared = resolve(here, "../../../../shared/data/references");

/** dev2's scenarios kept out of tuning: scored and reported apart, by kind only, texts never printed. */
export const HELD_DEV2 = ["s11", "s12", "s13", "s14"];

/** Frozen sets held out from tuning: scored by kind only, their misses listed by id, texts never printed. */
export const FROZEN_SETS = new Set([
  "heldout-r2.json",
  "heldout-r3.json",
  "heldout-r5.json",
  "heldout-r6.json",
  "heldout-r7.json",
  "heldout-r8.json",
  "heldout-r9.json",
  "heldout-r10.json",
  "heldout-r10b.json",
  "heldout-r11a.json",
  "heldout-r11b.json",
  "heldout-r11c.json",
  "none-probe-held.json",
]);

/** Every set scored by default, in report order. */
export const DEFAULT_SETS = [
  resolve(shared, "dev.json"),
  resolve(shared, "dev2.json"),
  resolve(here, "../test/fixtures/heldout.json"),
  resolve(here, "../test/fixtures/heldout-untuned.json"),
  resolve(here, "heldout-r2.json"),
  resolve(here, "dev-r3.json"),
  resolve(here, "heldout-r3.json"),
  resolve(here, "dev-r4.json"),
  resolve(here, "dev-r5.json"),
  resolve(here, "heldout-r5.json"),
  resolve(here, "dev-r6.json"),
  resolve(here, "heldout-r6.json"),
  resolve(here, "dev-r7.json"),
  resolve(here, "heldout-r7.json"),
  // Round 8: written blind to the resolver, scored on main before any round-8 change.
  resolve(here, "dev-r8.json"),
  resolve(here, "heldout-r8.json"),
  // Round 9: written blind to the resolver, scored on main before any round-9 change.
  resolve(here, "dev-r9.json"),
  resolve(here, "heldout-r9.json"),
  // Round 10: written blind to the resolver, scored on main before any round-10 change.
  resolve(here, "dev-r10.json"),
  resolve(here, "heldout-r10.json"),
  // Round 10, second pair: written blind in the shape of dev2.json (referents several executions back).
  resolve(here, "dev-r10b.json"),
  resolve(here, "heldout-r10b.json"),
  // Round 11: two more blind pairs in dev2's shape, scored on main before any round-11 change.
  resolve(here, "dev-r11a.json"),
  resolve(here, "heldout-r11a.json"),
  resolve(here, "dev-r11b.json"),
  resolve(here, "heldout-r11b.json"),
  // Round 11, a third writer: held out only, first scored on main after the time-of-day change (b9e9647).
  resolve(here, "heldout-r11c.json"),
  // Round 7's blind none-probe: 10 `none` messages in the session's own words + 4 referring ones per scenario,
  // over executions copied from tuned sets; p01-p06 tuned on, p07-p12 frozen.
  resolve(here, "none-probe-tune.json"),
  resolve(here, "none-probe-held.json"),
];
