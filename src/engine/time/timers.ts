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
 * One queued registration. Most are their id's cell itself (`cell === this`); an id deleted and
 * registered again while its first entry is still queued queues a second entry sharing the cell,
 * so that the id fires at its first entry and a snapshot shows both, as a heap of entries did.
 */
interface Entry {
  key: Key;
  ts: number;
  namespace: string | number | null;
  cell: Cell;
  /** This entry as a snapshot shows it, made once: unchanged timers cost a checkpoint nothing new. */
  shown?: Timer;
}

/** Whether an id (time, namespace, key) is registered and has neither fired nor been deleted. */
interface Cell extends Entry {
  live: boolean;
}

/**
 * Every registration at one time, in registration order: timers of equal time fire in the order
 * they were set, so a time's queue is an array read from `next` on, and the ids are found by
 * namespace, then key (a `Map` keeps the string "1" and the number 1 apart, as ids must).
 */
interface Bucket {
  ts: number;
  entries: Entry[];
  next: number;
  ids: Map<string, Map<Key, Cell>>;
}

/** Namespaces compare as their text, as the string ids of timers did (`1` and `"1"` are one namespace). */
const nsId = (ns: string | number | null): string => (typeof ns === 'string' ? ns : String(ns));

/** A min-heap of the distinct times that have a bucket. */
class TimeHeap {
  private readonly items: number[] = [];
  peek(): number | undefined {
    return this.items[0];
  }
  // Sifts move a hole instead of swapping: one write per level.
  push(x: number): void {
    const a = this.items;
    let i = a.length;
    a.push(x);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!(x < a[p])) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }
  pop(): void {
    const a = this.items;
    const last = a.pop()!;
    const n = a.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const m = l + 1 < n && a[l + 1] < a[l] ? l + 1 : l;
      if (!(a[m] < last)) break;
      a[i] = a[m];
      i = m;
    }
    a[i] = last;
  }
}

/**
 * The timers of one domain as a calendar: a bucket per distinct time, a heap over the times.
 * Timers cluster on few times (window ends, eviction times at a watermark's pace), so a
 * registration is an append to its time's bucket rather than a heap sift, an id needs no string,
 * and a snapshot walks the buckets in time order without keeping a second copy of the order.
 */
class Calendar {
  private readonly buckets = new Map<number, Bucket>();
  private readonly times = new TimeHeap();

  constructor(private readonly domain: TimeDomain) {}

  /** The cell of an id, if its time has a bucket that has not been drained. */
  cell(t: Timer): Cell | undefined {
    return this.buckets.get(t.ts)?.ids.get(nsId(t.namespace))?.get(t.key);
  }

  /** Queues a registration of an id that is not live; false when it was live already. */
  register(t: Timer): boolean {
    let b = this.buckets.get(t.ts);
    if (!b) {
      this.buckets.set(t.ts, (b = { ts: t.ts, entries: [], next: 0, ids: new Map() }));
      this.times.push(t.ts);
    }
    const ns = nsId(t.namespace);
    let byKey = b.ids.get(ns);
    if (!byKey) b.ids.set(ns, (byKey = new Map()));
    let c = byKey.get(t.key);
    if (c?.live) return false;
    if (!c) {
      c = { key: t.key, ts: t.ts, namespace: t.namespace, cell: null as unknown as Cell, live: true };
      c.cell = c;
      byKey.set(t.key, c);
      b.entries.push(c);
      return true;
    }
    c.live = true;
    // The same id written differently (-0 for 0, 1 for "1") shows as written, as before.
    const same = Object.is(c.key, t.key) && Object.is(c.ts, t.ts) && Object.is(c.namespace, t.namespace);
    b.entries.push(same ? c : { key: t.key, ts: t.ts, namespace: t.namespace, cell: c });
    return true;
  }

  /** The earliest queued entry at or before `upTo`, dequeued; dead ones are returned too. */
  shift(upTo: number): Entry | undefined {
    const ts = this.times.peek();
    if (ts === undefined || ts > upTo) return undefined;
    const b = this.buckets.get(ts)!;
    const e = b.entries[b.next++];
    if (b.next === b.entries.length) this.drop(b);
    return e;
  }

  /** The time of the earliest live entry, dropping dead ones before it. */
  nextTime(): number | undefined {
    for (;;) {
      const ts = this.times.peek();
      if (ts === undefined) return undefined;
      const b = this.buckets.get(ts)!;
      while (b.next < b.entries.length && !b.entries[b.next].cell.live) b.next++;
      if (b.next < b.entries.length) return ts;
      this.drop(b);
    }
  }

  private drop(b: Bucket): void {
    this.buckets.delete(b.ts);
    this.times.pop();
  }

  /** Appends every queued entry whose id is live, in (time, registration) order. */
  appendLive(out: Timer[]): void {
    const times = [...this.buckets.keys()].sort((a, b) => a - b);
    for (const ts of times) {
      const b = this.buckets.get(ts)!;
      for (let i = b.next; i < b.entries.length; i++) {
        const e = b.entries[i];
        if (e.cell.live) out.push((e.shown ??= { domain: this.domain, key: e.key, ts: e.ts, namespace: e.namespace }));
      }
    }
  }
}

/**
 * Keyed timers in event and processing time. Registering the same (key, time, namespace)
 * twice keeps one timer, as in Flink; deletion is lazy (a dead entry is skipped when its time comes).
 */
export class TimerService {
  private calendars: Record<TimeDomain, Calendar> = { event: new Calendar('event'), processing: new Calendar('processing') };
  private liveCount = 0;

  register(t: Timer): void {
    if (this.calendars[t.domain].register(t)) this.liveCount++;
  }

  /** Whether the timer is registered and has neither fired nor been deleted. */
  has(t: Timer): boolean {
    return this.calendars[t.domain].cell(t)?.live ?? false;
  }

  delete(t: Timer): void {
    const cell = this.calendars[t.domain].cell(t);
    if (!cell?.live) return;
    cell.live = false;
    this.liveCount--;
  }

  /** Removes and returns the earliest live timer at or before `upTo`, if any. */
  pollDue(domain: TimeDomain, upTo: number): Timer | undefined {
    const calendar = this.calendars[domain];
    for (let e = calendar.shift(upTo); e; e = calendar.shift(upTo)) {
      const cell = e.cell;
      if (!cell.live) continue;
      cell.live = false;
      this.liveCount--;
      return { domain, key: e.key, ts: e.ts, namespace: e.namespace };
    }
    return undefined;
  }

  nextTime(domain: TimeDomain): number | undefined {
    return this.calendars[domain].nextTime();
  }

  count(): number {
    return this.liveCount;
  }

  snapshot(): Timer[] {
    const out: Timer[] = [];
    this.calendars.event.appendLive(out);
    this.calendars.processing.appendLive(out);
    return out;
  }

  restore(timers: readonly Timer[], owns: (key: Key) => boolean = () => true): void {
    this.calendars = { event: new Calendar('event'), processing: new Calendar('processing') };
    this.liveCount = 0;
    for (const t of timers) if (owns(t.key)) this.register(t);
  }
}
