import type { Key } from '../../core/types.ts';

export type TimeDomain = 'event' | 'processing';

export interface Timer {
  domain: TimeDomain;
  key: Key;
  ts: number;
  /** What the timer is for, such as a window's end; operators choose. */
  namespace: string | number | null;
}

/**
 * Whether a timer id is registered, shared by every heap entry of that id: an id deleted and
 * registered again while its first entry is still queued fires at that first entry, as it did when
 * liveness was a set of ids. `queued` counts the id's heap entries so the cell can be dropped.
 */
interface IdCell {
  id: string;
  live: boolean;
  queued: number;
}

interface Queued extends Timer {
  seq: number;
  cell: IdCell;
  /** Left the heap (fired or skipped as dead). */
  popped?: boolean;
  /** This entry as a snapshot shows it, made once: unchanged timers cost a checkpoint nothing new. */
  shown?: Timer;
}

const before = (a: Queued, b: Queued): boolean => a.ts < b.ts || (a.ts === b.ts && a.seq < b.seq);

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
    return before(a, b);
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
 * Live entries of one domain in snapshot order (ts, then registration), kept between snapshots:
 * the next snapshot drops what fired or was deleted and merges in what was registered since, so
 * a checkpoint costs a pass over the timers instead of a sort of all of them.
 */
class SnapshotOrder {
  private ordered: Queued[] = [];
  private added: Queued[] = [];

  add(q: Queued, queued: number): void {
    this.added.push(q);
    // Without snapshots (a run that never checkpoints) the list must not keep every timer ever set.
    if (this.added.length > 2 * queued + 1024) this.added = this.added.filter((x) => !x.popped);
  }

  clear(): void {
    this.ordered = [];
    this.added = [];
  }

  /**
   * Appends every queued entry whose id is live to `out`, in (ts, seq) order, as a snapshot shows
   * it: an id deleted and registered again while its first entry is queued shows both entries, as
   * the heap holds them. Entries whose id is dead stay in the order while queued, since registering
   * the id again revives them. One pass: the merge, the liveness filter and the output are fused,
   * since at a checkpoint this walks every timer.
   */
  appendLive(out: Timer[]): void {
    const fresh = this.added.filter((q) => !q.popped).sort((a, b) => (before(a, b) ? -1 : 1));
    const old = this.ordered;
    const queued: Queued[] = [];
    let j = 0;
    for (let i = 0; i < old.length; i++) {
      const q = old[i];
      if (q.popped) continue;
      while (j < fresh.length && before(fresh[j], q)) {
        const f = fresh[j++];
        queued.push(f);
        if (f.cell.live) out.push(shown(f));
      }
      queued.push(q);
      if (q.cell.live) out.push(shown(q));
    }
    while (j < fresh.length) {
      const f = fresh[j++];
      queued.push(f);
      if (f.cell.live) out.push(shown(f));
    }
    this.ordered = queued;
    this.added = [];
  }
}

/** The entry as snapshots show it, made once: unchanged timers cost a checkpoint nothing new. */
const shown = (q: Queued): Timer => (q.shown ??= { domain: q.domain, key: q.key, ts: q.ts, namespace: q.namespace });

/**
 * Keyed timers in event and processing time. Registering the same (key, time, namespace)
 * twice keeps one timer, as in Flink; deletion is lazy (the heap skips dead ids).
 */
export class TimerService {
  private readonly heaps: Record<TimeDomain, TimerHeap> = { event: new TimerHeap(), processing: new TimerHeap() };
  private readonly order: Record<TimeDomain, SnapshotOrder> = { event: new SnapshotOrder(), processing: new SnapshotOrder() };
  private readonly cells = new Map<string, IdCell>();
  private liveCount = 0;
  private seq = 0;

  register(t: Timer): void {
    const id = idOf(t);
    let cell = this.cells.get(id);
    if (cell?.live) return;
    if (!cell) this.cells.set(id, (cell = { id, live: false, queued: 0 }));
    cell.live = true;
    cell.queued++;
    this.liveCount++;
    const q: Queued = { domain: t.domain, key: t.key, ts: t.ts, namespace: t.namespace, seq: this.seq++, cell };
    this.heaps[t.domain].push(q);
    this.order[t.domain].add(q, this.heaps[t.domain].size);
  }

  /** Whether the timer is registered and has neither fired nor been deleted. */
  has(t: Timer): boolean {
    return this.cells.get(idOf(t))?.live ?? false;
  }

  delete(t: Timer): void {
    const cell = this.cells.get(idOf(t));
    if (!cell?.live) return;
    cell.live = false;
    this.liveCount--;
  }

  /** An entry left the heap: its id's cell goes once no entry and no registration holds it. */
  private dequeued(q: Queued): void {
    q.popped = true;
    const cell = q.cell;
    if (--cell.queued === 0 && !cell.live) this.cells.delete(cell.id);
  }

  /** Removes and returns the earliest live timer at or before `upTo`, if any. */
  pollDue(domain: TimeDomain, upTo: number): Timer | undefined {
    const heap = this.heaps[domain];
    for (;;) {
      const top = heap.peek();
      if (!top || top.ts > upTo) return undefined;
      heap.pop();
      const cell = top.cell;
      if (!cell.live) {
        this.dequeued(top);
        continue;
      }
      cell.live = false;
      this.liveCount--;
      this.dequeued(top);
      return { domain: top.domain, key: top.key, ts: top.ts, namespace: top.namespace };
    }
  }

  nextTime(domain: TimeDomain): number | undefined {
    const heap = this.heaps[domain];
    while (heap.size && !heap.peek()!.cell.live) this.dequeued(heap.pop()!);
    return heap.peek()?.ts;
  }

  count(): number {
    return this.liveCount;
  }

  snapshot(): Timer[] {
    const out: Timer[] = [];
    this.order.event.appendLive(out);
    this.order.processing.appendLive(out);
    return out;
  }

  restore(timers: readonly Timer[], owns: (key: Key) => boolean = () => true): void {
    this.heaps.event.clear();
    this.heaps.processing.clear();
    this.order.event.clear();
    this.order.processing.clear();
    this.cells.clear();
    this.liveCount = 0;
    for (const t of timers) if (owns(t.key)) this.register(t);
  }
}
