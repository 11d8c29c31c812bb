import sizes from "bytes-iec";
import { InvalidArgumentError } from "commander";
import parseDurationText from "parse-duration";
import { UsageError } from "./errors.js";

/** Longest TTL or grace accepted: 100 years. */
const MAX_DURATION_MS = 100 * 365 * 86_400_000;
/** One `<number><unit>` part of a duration: `30s`, `1.5h`, `2 hours`. */
const DURATION_PART = /(\d+(?:\.\d+)?)\s*([a-zA-Zµ]+)\s*/y;

/**
 * Parses a duration such as `30s`, `15m`, `2h`, `7d`, `1w`, `500ms`, `1h30m`, `1.5h` or `2 hours` to
 * milliseconds (the units are parse-duration's). Stricter than the library: every part needs a unit
 * the library knows and nothing else may follow (it would read `30` as 30 ms and `1h foo` as 1 h).
 * Used as a commander argument parser: a bad value is a usage error naming the flag.
 */
export function parseDuration(value: string): number {
  const bad = () =>
    new InvalidArgumentError("expected a duration such as 30s, 15m, 2h, 7d or 1h30m (units: ms, s, m, h, d, w).");
  const text = value.trim();
  if (text === "" || text !== value) throw bad();
  DURATION_PART.lastIndex = 0;
  let at = 0;
  for (let match = DURATION_PART.exec(text); match !== null; match = DURATION_PART.exec(text)) {
    const part = parseDurationText(`${match[1]}${match[2]}`);
    if (part === null || part === undefined || (part > 0 && part < 1)) throw bad(); // an unknown unit, or below a millisecond
    at = DURATION_PART.lastIndex;
  }
  const total = at === text.length ? parseDurationText(text) : null;
  if (total === null || total === undefined || !Number.isFinite(total)) throw bad();
  if (total <= 0) throw new InvalidArgumentError("the duration must be greater than zero.");
  if (total > MAX_DURATION_MS) throw new InvalidArgumentError("the duration must be at most 100 years.");
  return Math.round(total);
}

/** Like parseDuration but accepts `0` (a GC grace of zero sweeps every unreferenced blob now). */
export function parseDurationOrZero(value: string): number {
  if (/^0+$/.test(value)) return 0;
  return parseDuration(value);
}

/**
 * Parses a byte size: `1000`, `512KiB`, `2MiB`, `1GB`, `1.5MiB`, `1G` (bytes-iec in JEDEC mode: every
 * unit is binary, 1 KB = 1 KiB = 1024 bytes; a one-letter unit k/m/g/t means the same with B).
 */
export function parseSize(value: string): number {
  const bad = () => new InvalidArgumentError("expected a size in bytes such as 1048576, 512KiB or 2MiB.");
  if (!/^\d+(?:\.\d+)?\s?[a-zA-Z]*$/.test(value)) throw bad();
  const bytes = sizes.parse(value.replace(/^([\d.]+\s?)([kmgt])$/i, "$1$2B"), { mode: "jedec" });
  if (bytes === null) throw bad();
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
