import type { Key } from '../../core/types.ts';

export type TimeDomain = 'event' | 'processing';

export interface Timer {
  domain: TimeDomain;
  key: Key;
  ts: number;
  /** What the timer is for, such as a window's end; operators choose. */
  namespace: string | number | null;
}

interface Queued extends Timer {
  seq: number;
  id: string;
}

/** A min-heap by (ts, registration order) so that equal timers fire in the order they were set. */
class TimerHeap {
  private readonly items: Queued[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Queued | undefined {
    return this.items[0];
  }
  private less(a: Queued, b: Queued): boolean {
    return a.ts < b.ts || (a.ts === b.ts && a.seq < b.seq);
  }
  // Sifts move a hole instead of swapping: one write per level, no pair to destructure.
  push(x: Queued): void {
    const a = this.items;
    let i = a.length;
    a.push(x);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(x, a[p])) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }
  pop(): Queued | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      const n = a.length;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const m = l + 1 < n && this.less(a[l + 1], a[l]) ? l + 1 : l;
        if (!this.less(a[m], last)) break;
        a[i] = a[m];
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
  all(): Queued[] {
    return [...this.items];
  }
  clear(): void {
    this.items.length = 0;
  }
}

/**
 * Strings and numbers (nearly every key) tagged by type instead of JSON-encoded. The key goes
 * last: a user's key may hold any character, the operator-chosen namespace never holds NUL.
 */
const keyPart = (k: Key): string => (typeof k === 'string' ? `s${k}` : typeof k === 'number' ? `n${k}` : JSON.stringify(k));
const idOf = (t: Timer) => `${t.domain}\u0000${t.ts}\u0000${t.namespace}\u0000${keyPart(t.key)}`;

/**
 * Keyed timers in event and processing time. Registering the same (key, time, namespace)
 * twice keeps one timer, as in Flink; deletion is lazy (the heap skips dead ids).
 */
export class TimerService {
  private readonly heaps: Record<TimeDomain, TimerHeap> = { event: new TimerHeap(), processing: new TimerHeap() };
  private readonly live = new Set<string>();
  private seq = 0;

  register(t: Timer): void {
    const id = idOf(t);
    if (this.live.has(id)) return;
    this.live.add(id);
    this.heaps[t.domain].push({ ...t, seq: this.seq++, id });
  }

  delete(t: Timer): void {
    this.live.delete(idOf(t));
  }

  /** Removes and returns the earliest live timer at or before `upTo`, if any. */
  pollDue(domain: TimeDomain, upTo: number): Timer | undefined {
    const heap = this.heaps[domain];
    for (;;) {
      const top = heap.peek();
      if (!top || top.ts > upTo) return undefined;
      heap.pop();
      if (!this.live.delete(top.id)) continue;
      return { domain: top.domain, key: top.key, ts: top.ts, namespace: top.namespace };
    }
  }

  nextTime(domain: TimeDomain): number | undefined {
    const heap = this.heaps[domain];
    while (heap.size && !this.live.has(heap.peek()!.id)) heap.pop();
    return heap.peek()?.ts;
  }

  count(): number {
    return this.live.size;
  }

  snapshot(): Timer[] {
    const out: Timer[] = [];
    for (const d of ['event', 'processing'] as const)
      for (const q of this.heaps[d].all().sort((a, b) => a.ts - b.ts || a.seq - b.seq))
        if (this.live.has(q.id)) out.push({ domain: q.domain, key: q.key, ts: q.ts, namespace: q.namespace });
    return out;
  }

  restore(timers: readonly Timer[], owns: (key: Key) => boolean = () => true): void {
    this.heaps.event.clear();
    this.heaps.processing.clear();
    this.live.clear();
    for (const t of timers) if (owns(t.key)) this.register(t);
  }
}
