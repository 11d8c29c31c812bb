import { isArefError, type ErrorCode } from "@artifact-refs/schema";
import { expect } from "vitest";
import type { Driver } from "../driver.js";

export interface DriverHarness {
  driver: Driver;
  /** A second, independent driver instance over the same backend (another process's view). */
  reopen?: () => Promise<Driver>;
  /** Backend time precision in ms (S3: 1000); tests that need an "old" blob wait this long. */
  timePrecisionMs?: number;
  cleanup?: () => Promise<void>;
}

export type DriverFactory = () => Promise<DriverHarness>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const bytesOf = (text: string) => new TextEncoder().encode(text);
export const textOf = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

/** Awaits `promise` and asserts it failed with an ArefError of `code`; returns the error. */
export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<Error> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(isArefError(caught), `expected an ArefError ${code}, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  return caught as Error;
}
