import { InvalidArgumentError } from "commander";
import { UsageError } from "./errors.js";

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
/** Longest TTL or grace accepted: 100 years. */
const MAX_DURATION_MS = 100 * 365 * 86_400_000;

/**
 * Parses a duration such as `30s`, `15m`, `2h`, `7d`, `1w`, `500ms` or `1h30m` to milliseconds.
 * Used as a commander argument parser: a bad value is a usage error naming the flag.
 */
export function parseDuration(value: string): number {
  const text = value.trim();
  const re = /(\d+)(ms|s|m|h|d|w)/gy;
  let total = 0;
  let at = 0;
  let parts = 0;
  for (let match = re.exec(text); match !== null; match = re.exec(text)) {
    total += Number(match[1]) * DURATION_UNITS[match[2]!]!;
    at = re.lastIndex;
    parts++;
  }
  if (parts === 0 || at !== text.length || text !== value) {
    throw new InvalidArgumentError("expected a duration such as 30s, 15m, 2h, 7d or 1h30m (units: ms, s, m, h, d, w).");
  }
  if (total <= 0) throw new InvalidArgumentError("the duration must be greater than zero.");
  if (total > MAX_DURATION_MS) throw new InvalidArgumentError("the duration must be at most 100 years.");
  return total;
}

/** Like parseDuration but accepts `0` (a GC grace of zero sweeps every unreferenced blob now). */
export function parseDurationOrZero(value: string): number {
  if (/^0+$/.test(value)) return 0;
  return parseDuration(value);
}

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** Parses a byte size: `1000`, `512KiB`, `2MiB`, `1G` (units are binary: 1 KiB = 1024 bytes). */
export function parseSize(value: string): number {
  const match = /^(\d+)([a-zA-Z]*)$/.exec(value);
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined)
    throw new InvalidArgumentError("expected a size in bytes such as 1048576, 512KiB or 2MiB.");
  const bytes = Number(match[1]) * unit;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new InvalidArgumentError("the size must be a positive whole number of bytes.");
  return bytes;
}

/** A whole number ≥ `min` (digits only: no signs, decimals or exponents). */
export function intParser(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number${min > 0 ? ` >= ${min}` : ""}.`);
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    return n;
  };
}

/** A whole number from `min` to `max` given to the flag `name`, checked when the command runs (a usage error otherwise). */
export function wholeNumberFlag(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
