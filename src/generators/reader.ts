import type { RawRecord, RowMemo, SourceReader } from '../core/source.ts';
import type { Row } from '../core/types.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { recordSeed, slot, streamSeed } from './scenario.ts';
import { seededRng } from '../core/rng.ts';

/**
 * Reads a scenario from index 0 (or any offset) to the end of its `count` units. With `memo`, a
 * record made on an earlier pass of the run is taken from it instead of made again.
 */
export function scenarioReader(s: Scenario, ctx: ScenarioContext, memo?: RowMemo): SourceReader {
  return s.arrival ? arrivalOrderReader(s, ctx, memo) : indexOrderReader(s, ctx, memo);
}

const total = (s: Scenario, ctx: ScenarioContext): number => ctx.count * (s.recordsPerUnit ?? 1);

/**
 * Record i of a scenario, with the rng `rngFor(ctx, s.name, i)` would give it. One rng, reset per
 * record, serves the whole reader: a scenario's `row` uses its rng only while it runs, so a fresh
 * one per record was garbage only.
 */
function recordMaker(s: Scenario, ctx: ScenarioContext, memo?: RowMemo): (i: number) => Row | null {
  const stream = streamSeed(ctx, s.name);
  const rng = seededRng(0);
  const make = (i: number): Row | null => {
    rng.reset(recordSeed(stream, i));
    return s.row(i, rng, ctx);
  };
  if (!memo) return make;
  return (i) => {
    const kept = memo.get(i);
    if (kept !== undefined) return kept;
    const row = make(i);
    memo.keep(i, row);
    return row;
  };
}

/**
 * How many records the stream holds: its indexes less those that yield none (a visit without an
 * order, an unpaid order). Exact, so the run, the inspector and the export can say the same number.
 */
export function recordCount(s: Scenario, ctx: ScenarioContext): number {
  const end = total(s, ctx);
  const make = recordMaker(s, ctx);
  let n = 0;
  for (let i = 0; i < end; i++) if (s.arrival ? s.arrival(i, ctx) !== null : make(i) !== null) n++;
  return n;
}

/** Records in index order: the offset is the index, so seeking is free. */
function indexOrderReader(s: Scenario, ctx: ScenarioContext, memo: RowMemo | undefined): SourceReader {
  const end = total(s, ctx);
  const make = recordMaker(s, ctx, memo);
  let pos = 0;
  return {
    read(max) {
      const out: RawRecord[] = [];
      while (pos < end && out.length < max) {
        const row = make(pos++);
        if (row) out.push({ value: row });
      }
      return out;
    },
    done: () => pos >= end,
    offset: () => pos,
    seek(o) {
      pos = Math.max(0, Math.min(Math.floor(o), end));
    },
  };
}

/**
 * Records in order of nominal arrival (payments trail their orders). Index i never arrives
 * before slot(unit of i), so a buffered record is released once every index not yet looked at
 * must arrive later. Only (arrival, index) pairs are buffered; rows are built on release.
 * The offset counts released records; seeking replays the cheap arrival computation only.
 */
function arrivalOrderReader(s: Scenario, ctx: ScenarioContext, memo: RowMemo | undefined): SourceReader {
  const end = total(s, ctx);
  const make = recordMaker(s, ctx, memo);
  const perUnit = s.recordsPerUnit ?? 1;
  const arrival = s.arrival!;
  let next = 0;
  let released = 0;
  const heap = new ArrivalHeap();

  /** Index of the next record to release, or -1 at the end. */
  const advance = (): number => {
    while (next < end && (heap.size() === 0 || heap.minArrival() > slot(ctx, Math.floor(next / perUnit)))) {
      const a = arrival(next, ctx);
      if (a !== null) heap.push(a, next);
      next++;
    }
    if (heap.size() === 0) return -1;
    released++;
    return heap.pop();
  };

  return {
    read(max) {
      const out: RawRecord[] = [];
      while (out.length < max) {
        const i = advance();
        if (i < 0) break;
        const row = make(i);
        if (row) out.push({ value: row });
      }
      return out;
    },
    done: () => next >= end && heap.size() === 0,
    offset: () => released,
    seek(o) {
      if (o < released) {
        next = 0;
        released = 0;
        heap.clear();
      }
      while (released < o && advance() >= 0);
    },
  };
}

/** A binary min-heap of (arrival, index), ties broken by index so that the order is total. */
class ArrivalHeap {
  private readonly at: number[] = [];
  private readonly idx: number[] = [];

  size = (): number => this.at.length;
  minArrival = (): number => this.at[0];

  clear(): void {
    this.at.length = 0;
    this.idx.length = 0;
  }

  push(a: number, i: number): void {
    let c = this.at.length;
    this.at.push(a);
    this.idx.push(i);
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (!this.less(c, p)) break;
      this.swap(c, p);
      c = p;
    }
  }

  pop(): number {
    const top = this.idx[0];
    const lastA = this.at.pop()!;
    const lastI = this.idx.pop()!;
    if (this.at.length) {
      this.at[0] = lastA;
      this.idx[0] = lastI;
      let p = 0;
      for (;;) {
        const l = 2 * p + 1;
        const r = l + 1;
        let m = p;
        if (l < this.at.length && this.less(l, m)) m = l;
        if (r < this.at.length && this.less(r, m)) m = r;
        if (m === p) break;
        this.swap(m, p);
        p = m;
      }
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    return this.at[a] < this.at[b] || (this.at[a] === this.at[b] && this.idx[a] < this.idx[b]);
  }

  /** With temporaries: a destructuring swap allocates an array per call on this hot path. */
  private swap(a: number, b: number): void {
    const at = this.at[a];
    this.at[a] = this.at[b];
    this.at[b] = at;
    const i = this.idx[a];
    this.idx[a] = this.idx[b];
    this.idx[b] = i;
  }
}
