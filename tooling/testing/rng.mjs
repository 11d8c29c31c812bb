// A small seeded PRNG (mulberry32): the same seed gives the same sequence. One copy for every
// test and stress suite (the stress children import it as plain JS, hence .mjs).

/** @param {number} seed */
export function rng(seed) {
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
    /** @param {number} n */
    int: (n) => Math.floor(next() * n),
    /** One element of a non-empty array. */
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    /** @param {number} n */
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))),
  };
}
