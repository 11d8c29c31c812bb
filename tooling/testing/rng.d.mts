export interface Rng {
  /** The next number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty array. */
  pick<T>(xs: readonly T[]): T;
  /** n pseudo-random bytes. */
  bytes(n: number): Buffer;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence. */
export declare function rng(seed: number): Rng;
