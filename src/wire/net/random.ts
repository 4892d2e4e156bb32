/**
 * Seeded randomness (CONTRIBUTING.md, 'Time'). Everything random in a simulation (packet loss, for now)
 * draws from one of these, so a seed in a share link replays the same losses.
 *
 * The generator is mulberry32: a 32-bit state advanced by a Weyl increment (0x6D2B79F5) and mixed by two
 * multiply-xorshift rounds. It is tiny, fast and passes common statistical batteries well enough for a
 * teaching simulator; it is not cryptographic. Seeds are hashed first so that nearby seeds (1, 2, 3)
 * start far apart.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound). */
  int(bound: number): number;
  /** A new independent generator derived from this one's stream, e.g. one per link direction. */
  fork(label: string): Random;
}

/** Turns a string or number seed into a 32-bit state (FNV-1a over the decimal/text form). */
export function hashSeed(seed: number | string): number {
  const text = String(seed);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function createRandom(seed: number | string): Random {
  let state = hashSeed(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (bound) => Math.floor(next() * bound),
    fork: (label) => createRandom(`${seed}/${label}`),
  };
}
