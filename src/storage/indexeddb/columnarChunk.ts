import type { Key } from '../../core/types.ts';
import type { StateKind } from '../../state/descriptors.ts';
import { approxSize } from '../../state/size.ts';

/**
 * The columnar chunk value. The row format (format 1, no `v` field) stored every entry as
 * `[key, [[state, kind, value, touched, eventTime], …]]`: three arrays and two strings per key
 * that the structured clone writes and reads one by one. Here a chunk is a few columns: the
 * keys, where each entry's cells end, a table of state names, and per cell its state, touched
 * time, event time and value. Format 3 (written now) keeps every column a plain array and
 * leaves out what carries nothing: `ends` when each entry has exactly one cell, `state` when
 * the chunk holds one state, and a touched or event-time column whose cells all agree is that
 * one value. Format 2 (still read) packed numbers into typed arrays, one per column and chunk:
 * the clone of many small typed arrays cost more than it saved.
 */
export interface ColumnarChunk {
  id: string;
  kg: number;
  writtenBy: number;
  v: 2 | 3;
  keys: Float64Array | Key[];
  /** Entry i's cells are cells [ends[i-1], ends[i]); an entry without cells is a tombstone. Null: entry i is cell i. */
  ends: Uint32Array | number[] | null;
  states: string[];
  kinds: StateKind[];
  /** Per cell: its index in `states`; null when the chunk holds a single state. */
  state: Uint16Array | number[] | null;
  /** Per cell, or one number for all. */
  touched: Float64Array | number[] | number;
  /** Per cell, or one value for all (format 2: NaN stands for null in a Float64Array). */
  eventTime: Float64Array | (number | null)[] | number | null;
  /** Per cell: the snapshot value (see toSnapshotValue). */
  values: Float64Array | unknown[];
}

/** The format written; readers accept this and format 2. */
export const COLUMNAR_FORMAT = 3;
export const READABLE_COLUMNAR_FORMATS: readonly number[] = [2, 3];

/** Values sampled for a chunk's byte estimate (the estimate walks objects; the write should not wait for it). */
const SIZE_SAMPLE = 8;

/**
 * Collects entries column by column and seals them into chunk values. Cells are appended in
 * the order `cell()` is called between `beginEntry()` and `endEntry()`; values are shared, not
 * copied: the IndexedDB put clones them in the same task.
 */
export class ColumnarChunkBuilder {
  private n = 0;
  private cells = 0;
  private keys: Key[] = [];
  /** Filled in once some entry has other than one cell (until then entry i is cell i). */
  private ends: number[] | null = null;
  private stateIndex = new Map<string, number>();
  private states: string[] = [];
  private kinds: StateKind[] = [];
  private cellState: number[] = [];
  private firstTouched = 0;
  /** Filled in once some cell's touched time differs from the first. */
  private touched: number[] | null = null;
  private firstEventTime: number | null = null;
  private eventTimes: (number | null)[] | null = null;
  private values: unknown[] = [];
  private stateChars = 0;
  private lastState = '';
  private lastStateIndex = -1;

  get entries(): number {
    return this.n;
  }

  beginEntry(key: Key): void {
    this.keys.push(key);
  }

  cell(state: string, kind: StateKind, value: unknown, touched: number, eventTime: number | null): void {
    let s = this.lastStateIndex;
    if (state !== this.lastState || s < 0) {
      s = this.stateIndex.get(state) ?? -1;
      if (s < 0) {
        s = this.states.length;
        if (s > 0xffff) throw new Error(`a state chunk holds at most ${0xffff + 1} states`);
        this.stateIndex.set(state, s);
        this.states.push(state);
        this.kinds.push(kind);
      }
      this.lastState = state;
      this.lastStateIndex = s;
    }
    const c = this.cells++;
    this.cellState.push(s);
    this.stateChars += state.length;
    if (c === 0) {
      this.firstTouched = touched;
      this.firstEventTime = eventTime;
    } else {
      if (this.touched) this.touched.push(touched);
      else if (!Object.is(touched, this.firstTouched)) this.touched = spread(this.firstTouched, c, touched);
      if (this.eventTimes) this.eventTimes.push(eventTime);
      else if (!Object.is(eventTime, this.firstEventTime)) this.eventTimes = spread(this.firstEventTime, c, eventTime);
    }
    this.values.push(value);
  }

  /** Ends the entry; returns false for one without cells (a tombstone). */
  endEntry(): boolean {
    const i = this.n++;
    const start = this.ends ? (i > 0 ? this.ends[i - 1] : 0) : i;
    if (this.ends) this.ends.push(this.cells);
    else if (this.cells !== i + 1) {
      this.ends = [];
      for (let e = 1; e <= i; e++) this.ends.push(e);
      this.ends.push(this.cells);
    }
    return this.cells !== start;
  }

  /** Takes back the entry just ended (a removed key no chunk holds needs no tombstone). */
  dropLastEntry(): void {
    const i = this.n - 1;
    const ends = this.ends;
    if (!ends || ends[i] !== (i > 0 ? ends[i - 1] : 0)) throw new Error('only an entry without cells can be dropped');
    this.n--;
    ends.pop();
    this.keys.pop();
  }

  /** Seals the collected entries into a chunk value and starts over; null when there are none. */
  seal(id: string, kg: number, writtenBy: number): { record: ColumnarChunk; bytes: number } | null {
    const n = this.n;
    if (n === 0) return null;
    const record: ColumnarChunk = {
      id,
      kg,
      writtenBy,
      v: COLUMNAR_FORMAT,
      keys: this.keys,
      ends: this.ends,
      states: this.states,
      kinds: this.kinds,
      state: this.states.length > 1 ? this.cellState : null,
      touched: this.touched ?? this.firstTouched,
      eventTime: this.eventTimes ?? this.firstEventTime,
      values: this.values,
    };
    const bytes = this.estimateBytes();
    this.n = 0;
    this.cells = 0;
    this.keys = [];
    this.ends = null;
    this.stateIndex = new Map();
    this.states = [];
    this.kinds = [];
    this.cellState = [];
    this.touched = null;
    this.eventTimes = null;
    this.values = [];
    this.stateChars = 0;
    this.lastState = '';
    this.lastStateIndex = -1;
    return { record, bytes };
  }

  /** The row format's estimate (entry: key + 16, cell: name + value + 40) with keys and values sampled. */
  private estimateBytes(): number {
    const n = this.n;
    const cells = this.cells;
    return 64 + sampledBytes(this.keys, n) + 16 * n + 2 * this.stateChars + sampledBytes(this.values, cells) + 40 * cells;
  }
}

/** `count` copies of `first`, then `next`: a constant column turned into a list. */
function spread<T>(first: T, count: number, next: T): T[] {
  const out = new Array<T>(count + 1).fill(first);
  out[count] = next;
  return out;
}

/** The summed approxSize of `n` items, from an even sample. */
function sampledBytes(items: readonly unknown[], n: number): number {
  if (n === 0) return 0;
  const step = Math.max(1, n / SIZE_SAMPLE);
  let sampled = 0;
  let sum = 0;
  for (let i = 0; i < n; i += step, sampled++) sum += approxSize(items[Math.floor(i)]);
  return Math.round((sum / sampled) * n);
}

/** Reads cell `c` of a columnar chunk (either format). */
export const cellStateOf = (r: ColumnarChunk, c: number): number => (r.state === null ? 0 : r.state[c]);
export const cellTouched = (r: ColumnarChunk, c: number): number => (typeof r.touched === 'number' ? r.touched : r.touched[c]);
export function cellEventTime(r: ColumnarChunk, c: number): number | null {
  const e = r.eventTime;
  if (e === null || typeof e === 'number') return e;
  const t = e[c];
  return t !== t && e instanceof Float64Array ? null : t;
}
/** Entry i's cells are [cellsStart, cellsEnd). */
export const cellsStart = (r: ColumnarChunk, i: number): number => (r.ends === null ? i : i === 0 ? 0 : r.ends[i - 1]);
export const cellsEnd = (r: ColumnarChunk, i: number): number => (r.ends === null ? i + 1 : r.ends[i]);
