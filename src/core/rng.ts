/** A seeded generator (mulberry32). The engine never calls Math.random: runs must replay exactly. */
export interface Rng {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  state(): number;
  /** Starts over from `seed`, as `seededRng(seed)` would: a reader reuses one rng for all its records. */
  reset(seed: number): void;
}

/**
 * Methods on the prototype rather than closures: generators make one rng per record, and one
 * object is a quarter of the garbage of an object holding four fresh closures. The 32-bit state
 * is kept as two 16-bit halves: both stay small integers, where one field above 2^30 would be a
 * boxed double, stored anew at every draw (about 2.5 times the cost of a draw).
 */
class Mulberry32 implements Rng {
  private hi: number;
  private lo: number;

  constructor(a: number) {
    this.hi = a >>> 16;
    this.lo = a & 0xffff;
  }

  next(): number {
    const a = (((this.hi << 16) | this.lo) + 0x6d2b79f5) | 0;
    this.hi = a >>> 16;
    this.lo = a & 0xffff;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  state(): number {
    return ((this.hi << 16) | this.lo) >>> 0;
  }

  reset(seed: number): void {
    this.hi = seed >>> 16;
    this.lo = seed & 0xffff;
  }
}

export function seededRng(seed: number): Rng {
  return new Mulberry32(seed >>> 0);
}

/** FNV-1a of a name, mixed into the job seed so each node or subtask gets its own stable stream. */
export function derivedSeed(seed: number, name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return seed ^ (h >>> 0);
}
