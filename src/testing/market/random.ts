/**
 * Seeded randomness of the market simulation: integer-only hashing and generators, so the same seed gives the
 * same numbers on every JavaScript engine.
 */

/** Folds `value` (any safe integer, or a string) into a 32-bit hash state. */
function mix(state: number, value: number | string): number {
  let h = state >>> 0;
  if (typeof value === 'string') {
    for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193) >>> 0;
    return avalanche(h ^ value.length);
  }
  // Safe integers above 2^32 (ms timestamps, trade slots) contribute both halves.
  const low = value >>> 0;
  const high = Math.floor(value / 0x1_0000_0000) >>> 0;
  return avalanche(Math.imul(h ^ low, 0x9e3779b1) ^ high);
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function hashKey(seed: number, ...parts: Array<number | string>): number {
  let h = mix(0x811c9dc5, seed);
  for (const part of parts) h = mix(h, part);
  return h;
}

/** mulberry32: a tiny 32-bit generator; integer-only, so identical on every JavaScript engine. */
export function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Approximately standard normal (Irwin–Hall of 4 uniforms): only + and ×, so no engine-specific Math.log/cos. */
export function gaussian(rand: () => number): number {
  return (rand() + rand() + rand() + rand() - 2) * 1.7320508075688772;
}

export function rngFor(seed: number, ...parts: Array<number | string>): () => number {
  return mulberry32(hashKey(seed, ...parts));
}
