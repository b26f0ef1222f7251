/** A seeded random source in [0, 1), so every run generates the same world. */
export type Random = () => number;

/** mulberry32: small, fast and good enough for test data. */
export function prng(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rnd: Random, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;

/** `n` random decimal digits. */
export const digits = (rnd: Random, n: number): string => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join("");
