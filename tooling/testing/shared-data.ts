// Tests that read the real data sets of ../shared/data (beside the checkout, read in place, never
// copied) go through these helpers. With the data present they run as usual. Without them:
// - when CI is set, they fail, each block naming the missing data set and where it goes;
// - elsewhere (a fresh clone), they are skipped, their titles carrying SHARED_DATA_SKIP_MARK so
//   that tooling/scripts/run-tests.mjs prints one line per skipped test naming the data set and
//   where it goes, and counts them. No other test may skip.
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type TestFunction, describe, it } from "vitest";

/** The checkout's root (this file is tooling/testing/shared-data.ts). */
const ROOT = resolve(import.meta.dirname, "../..");

/** ../shared/data beside the checkout. */
export const SHARED_DATA_DIR = resolve(ROOT, "../shared/data");

/** The title suffix of a test skipped for missing data; run-tests.mjs reads the data set from it. */
export const SHARED_DATA_SKIP_MARK = "[skipped: needs ../shared/data/";

/** A data set (a directory or file) under ../shared/data, e.g. "trajectories", "references/dev.json". */
export type SharedDataSet = string;

/** Absolute path of a data set under ../shared/data. */
export function sharedDataPath(set: SharedDataSet, ...rest: string[]): string {
  return join(SHARED_DATA_DIR, set, ...rest);
}

/** Whether the data set is there. */
export function hasSharedData(set: SharedDataSet): boolean {
  return existsSync(sharedDataPath(set));
}

const required = (): boolean => Boolean(process.env.CI);

function missingMessage(set: SharedDataSet): string {
  return `data set ../shared/data/${set} is missing: it goes at ${sharedDataPath(set)} (beside the checkout); CI requires it`;
}

function skipTitle(name: string, set: SharedDataSet): string {
  return `${name} ${SHARED_DATA_SKIP_MARK}${set} at ${sharedDataPath(set)}]`;
}

/**
 * The sorted file names in a data set directory ending with `ext`; [] when the data set is absent
 * outside CI (its tests are skipped by describeWithData/itWithData), an error naming it in CI.
 */
export function sharedDataFiles(set: SharedDataSet, ext = ""): string[] {
  if (!hasSharedData(set)) {
    if (required()) throw new Error(missingMessage(set));
    return [];
  }
  return readdirSync(sharedDataPath(set))
    .filter((f) => f.endsWith(ext))
    .sort();
}

/** describe() for a block that reads `set`: runs, fails in CI without the data, or is skipped. */
export function describeWithData(set: SharedDataSet, name: string, fn: () => void): void {
  if (hasSharedData(set)) describe(name, fn);
  else if (required()) {
    describe(name, () => {
      it(`has ../shared/data/${set}`, () => {
        throw new Error(missingMessage(set));
      });
    });
  } else describe.skip(skipTitle(name, set), fn);
}

/** it() for a test that reads `set`: runs, fails in CI without the data, or is skipped. */
export function itWithData(set: SharedDataSet, name: string, fn: TestFunction, timeout?: number): void {
  if (hasSharedData(set)) it(name, fn, timeout);
  else if (required()) {
    it(name, () => {
      throw new Error(missingMessage(set));
    });
  } else it.skip(skipTitle(name, set), fn, timeout);
}

/** it.each for tests that read `set`: one itWithData per case, `%s` in the name replaced by the case. */
export function eachWithData<T extends string | number>(set: SharedDataSet, cases: readonly T[]) {
  return (name: string, fn: (value: T) => unknown, timeout?: number): void => {
    for (const value of cases)
      itWithData(
        set,
        name.replace("%s", String(value)),
        async () => {
          await fn(value);
        },
        timeout,
      );
  };
}
