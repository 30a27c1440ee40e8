import type { Key } from '../../core/types.ts';

/** Fibonacci hashing: the top bits of key × 2^32/φ spread runs of integer keys over the table. */
const GOLDEN = 0x9e3779b1 | 0;
const FIRST_BITS = 6;
const NONE = -1;

const emptyBuckets = (bits: number): Int32Array => new Int32Array(2 << bits).fill(NONE);

/**
 * The key → slot index of a column table. Integer keys (the common GROUP BY key) live in an
 * open-addressing table of two Int32Arrays, which a lookup reads at one or two adjacent places;
 * V8's Map walks a bucket array, then an entry chain, and was the largest single cost of a keyed
 * count over 100k keys. Other keys (text, fractions, NaN, booleans, null) stay in a Map.
 *
 * Iteration follows the order a Map<Key, number> would give (insertion order; a removed key
 * that comes back goes last), kept as a list threaded through the slots, because snapshots and
 * the rows a reader sees list keys in that order. Each slot holds at most one key, and a key is
 * set only when absent (the table claims a slot once per key).
 */
export class KeySlots {
  private bits = FIRST_BITS;
  /**
   * Per bucket b, its integer key at 2b and its slot at 2b + 1 (side by side: a probe touches one
   * cache line); a slot of NONE marks an empty bucket.
   */
  private buckets = emptyBuckets(FIRST_BITS);
  private ints = 0;
  private readonly others = new Map<Key, number>();
  /** Per slot: its key and its neighbours in insertion order. */
  private keyAt: Key[] = [];
  private next = new Int32Array(0);
  private prev = new Int32Array(0);
  private head = NONE;
  private tail = NONE;

  get size(): number {
    return this.ints + this.others.size;
  }

  /** The key's slot, or -1. */
  get(key: Key): number {
    if (typeof key === 'number' && (key | 0) === key) {
      const bs = this.buckets;
      const mask = (bs.length >> 1) - 1;
      for (let h = Math.imul(key, GOLDEN) >>> (32 - this.bits); ; h = (h + 1) & mask) {
        const s = bs[2 * h + 1];
        if (s === NONE) return NONE;
        if (bs[2 * h] === key) return s;
      }
    }
    const s = this.others.get(key);
    return s === undefined ? NONE : s;
  }

  has(key: Key): boolean {
    return this.get(key) !== NONE;
  }

  /** Adds an absent key at a slot no other key holds. */
  set(key: Key, slot: number): void {
    if (typeof key === 'number' && (key | 0) === key) {
      if ((this.ints + 1) * 2 > 1 << this.bits) this.rehash(this.bits + 1);
      this.place(key, slot);
      this.ints++;
      // As a Map does, -0 is kept as 0.
      key = key | 0;
    } else this.others.set(key, slot);
    this.link(key, slot);
  }

  /** Removes the key; returns the slot it held, or -1. */
  delete(key: Key): number {
    let slot: number;
    if (typeof key === 'number' && (key | 0) === key) {
      slot = this.removeInt(key);
      if (slot === NONE) return NONE;
      this.ints--;
    } else {
      const s = this.others.get(key);
      if (s === undefined) return NONE;
      this.others.delete(key);
      slot = s;
    }
    this.unlink(slot);
    return slot;
  }

  clear(): void {
    this.bits = FIRST_BITS;
    this.buckets = emptyBuckets(FIRST_BITS);
    this.ints = 0;
    this.others.clear();
    this.keyAt = [];
    this.head = this.tail = NONE;
  }

  /** Every (slot, key) in insertion order; the index must not change during the walk. */
  forEach(visit: (slot: number, key: Key) => void): void {
    for (let s = this.head; s !== NONE; s = this.next[s]) visit(s, this.keyAt[s]);
  }

  *keys(): MapIterator<Key> {
    for (let s = this.head; s !== NONE; s = this.next[s]) yield this.keyAt[s];
  }

  *entries(): MapIterator<[Key, number]> {
    for (let s = this.head; s !== NONE; s = this.next[s]) yield [this.keyAt[s], s];
  }

  [Symbol.iterator](): MapIterator<[Key, number]> {
    return this.entries();
  }

  private place(key: number, slot: number): void {
    const bs = this.buckets;
    const mask = (1 << this.bits) - 1;
    let h = Math.imul(key, GOLDEN) >>> (32 - this.bits);
    while (bs[2 * h + 1] !== NONE) h = (h + 1) & mask;
    bs[2 * h] = key;
    bs[2 * h + 1] = slot;
  }

  private rehash(bits: number): void {
    const old = this.buckets;
    this.bits = bits;
    this.buckets = emptyBuckets(bits);
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== NONE) this.place(old[i], old[i + 1]);
  }

  /** Linear probing without tombstones: later entries of the run shift back into the gap. */
  private removeInt(key: number): number {
    const bs = this.buckets;
    const mask = (1 << this.bits) - 1;
    const shift = 32 - this.bits;
    let i = Math.imul(key, GOLDEN) >>> shift;
    while (bs[2 * i + 1] !== NONE && bs[2 * i] !== key) i = (i + 1) & mask;
    const slot = bs[2 * i + 1];
    if (slot === NONE) return NONE;
    bs[2 * i + 1] = NONE;
    for (let j = (i + 1) & mask; bs[2 * j + 1] !== NONE; j = (j + 1) & mask) {
      const home = Math.imul(bs[2 * j], GOLDEN) >>> shift;
      // The entry at j may fill the gap at i unless its home lies cyclically in (i, j].
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      bs[2 * i] = bs[2 * j];
      bs[2 * i + 1] = bs[2 * j + 1];
      bs[2 * j + 1] = NONE;
      i = j;
    }
    return slot;
  }

  private link(key: Key, slot: number): void {
    if (slot >= this.next.length) {
      const cap = Math.max(64, Math.ceil((slot + 1) * 1.5));
      const n = new Int32Array(cap);
      const p = new Int32Array(cap);
      n.set(this.next);
      p.set(this.prev);
      this.next = n;
      this.prev = p;
    }
    this.keyAt[slot] = key;
    this.next[slot] = NONE;
    this.prev[slot] = this.tail;
    if (this.tail === NONE) this.head = slot;
    else this.next[this.tail] = slot;
    this.tail = slot;
  }

  private unlink(slot: number): void {
    const p = this.prev[slot];
    const n = this.next[slot];
    if (p === NONE) this.head = n;
    else this.next[p] = n;
    if (n === NONE) this.tail = p;
    else this.prev[n] = p;
    // Let go of a text key.
    this.keyAt[slot] = null;
  }
}
