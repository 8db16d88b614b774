// Seeded pseudo-random numbers for the generators (demo prices, synthetic photos): the same seed
// gives the same sequence on every machine. Each caller hashes its string seed its own way.

/** mulberry32: a uniform number in [0, 1) per call, from a 32-bit state. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
