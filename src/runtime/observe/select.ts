/**
 * The first `k` of a stream in `cmp` order in O(n) whatever the input order: a buffer of a
 * few k is cut back to k by quickselect when full, and the item just past the cut becomes a
 * bound that rejects most later items with one comparison (no allocation: test `wants` first).
 * `cmp` must order distinct items strictly (ties broken), as the state table's does.
 */
export class FirstK<T> {
  private buf: T[] = [];
  private bound: T | undefined;
  private readonly cap: number;

  constructor(
    private readonly k: number,
    private readonly cmp: (a: T, b: T) => number,
  ) {
    this.cap = Math.max(4 * k, 1024);
  }

  wants(item: T): boolean {
    return this.k > 0 && (this.bound === undefined || this.cmp(item, this.bound) < 0);
  }

  offer(item: T): void {
    if (!this.wants(item)) return;
    this.buf.push(item);
    if (this.buf.length >= this.cap) {
      selectInPlace(this.buf, this.k, this.cmp);
      this.bound = this.buf[this.k];
      this.buf.length = this.k;
    }
  }

  sorted(): T[] {
    return firstK(this.buf, this.k, this.cmp);
  }
}

/**
 * The first `k` items of `items` in `cmp` order, sorted. Quickselect (median-of-three pivots,
 * deterministic) puts them in front in O(n) on average whatever the input order — a heap
 * degrades to O(n log k) when keys arrive already ordered, as update times usually do.
 * Reorders `items` in place.
 */
export function firstK<T>(items: T[], k: number, cmp: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  if (k < items.length) selectInPlace(items, k, cmp);
  return items.slice(0, k).sort(cmp);
}

/** Afterwards items[k] is the (k+1)-th smallest and every item before it is smaller. */
function selectInPlace<T>(items: T[], k: number, cmp: (a: T, b: T) => number): void {
  let lo = 0;
  let hi = items.length - 1;
  while (hi > lo) {
    const p = partition(items, lo, hi, cmp);
    if (p === k) return;
    if (p < k) lo = p + 1;
    else hi = p - 1;
  }
}

/** Hoare-style partition around a median-of-three pivot; returns the pivot's final index. */
function partition<T>(a: T[], lo: number, hi: number, cmp: (x: T, y: T) => number): number {
  const mid = (lo + hi) >> 1;
  if (cmp(a[mid], a[lo]) < 0) swap(a, mid, lo);
  if (cmp(a[hi], a[lo]) < 0) swap(a, hi, lo);
  if (cmp(a[mid], a[hi]) < 0) swap(a, mid, hi);
  const pivot = a[hi];
  let i = lo;
  for (let j = lo; j < hi; j++) if (cmp(a[j], pivot) < 0) swap(a, i++, j);
  swap(a, i, hi);
  return i;
}

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

