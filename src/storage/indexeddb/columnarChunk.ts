import type { Key } from '../../core/types.ts';
import type { StateKind } from '../../state/descriptors.ts';
import { approxSize } from '../../state/size.ts';

/**
 * The columnar chunk value (format 2). The row format (format 1, no `v` field) stored every
 * entry as `[key, [[state, kind, value, touched, eventTime], …]]`: three arrays and two strings
 * per key that the structured clone writes and reads one by one. Here a chunk is a few columns:
 * the keys (a Float64Array when they are all numbers), where each entry's cells end, a table of
 * state names, and per cell its state, touched time, event time and value (a Float64Array when
 * every value is a number). Only the values themselves remain objects for the clone to walk.
 */
export interface ColumnarChunk {
  id: string;
  kg: number;
  writtenBy: number;
  v: typeof COLUMNAR_FORMAT;
  keys: Float64Array | Key[];
  /** Entry i's cells are cells [ends[i-1], ends[i]); an entry without cells is a tombstone. */
  ends: Uint32Array;
  states: string[];
  kinds: StateKind[];
  /** Per cell: its index in `states`; null when the chunk holds a single state. */
  state: Uint16Array | null;
  touched: Float64Array;
  /** NaN stands for null; a plain array when some event time is NaN itself. */
  eventTime: Float64Array | (number | null)[];
  /** Per cell: the snapshot value (see toSnapshotValue). */
  values: Float64Array | unknown[];
}

export const COLUMNAR_FORMAT = 2;

/** Values sampled for a chunk's byte estimate (the estimate walks objects; the write should not wait for it). */
const SIZE_SAMPLE = 8;

/**
 * Collects entries column by column and seals them into chunk values. Cells are appended in
 * the order `cell()` is called between `beginEntry()` and `endEntry()`; values are shared, not
 * copied: the IndexedDB put clones them in the same task.
 */
export class ColumnarChunkBuilder {
  // Columns are filled in place and copied out at the exact length when sealed: a chunk value
  // must not carry spare capacity (the clone writes a view's whole buffer).
  private n = 0;
  private cells = 0;
  private keys: Key[] = [];
  private numKeys: Float64Array;
  private numericKeys = true;
  private ends: Uint32Array;
  private stateIndex = new Map<string, number>();
  private states: string[] = [];
  private kinds: StateKind[] = [];
  private cellState: Uint16Array;
  private touched: Float64Array;
  private eventTime: Float64Array;
  /** Set once some event time is NaN itself (then NaN cannot stand for null). */
  private eventTimes: (number | null)[] | null = null;
  private values: unknown[] = [];
  private numericValues = true;
  private stateChars = 0;

  constructor(private readonly capacity = 256) {
    this.numKeys = new Float64Array(capacity);
    this.ends = new Uint32Array(capacity);
    this.cellState = new Uint16Array(capacity);
    this.touched = new Float64Array(capacity);
    this.eventTime = new Float64Array(capacity);
  }

  get entries(): number {
    return this.n;
  }

  beginEntry(key: Key): void {
    if (this.n === this.ends.length) {
      this.ends = grow(this.ends);
      this.numKeys = grow(this.numKeys);
    }
    if (typeof key === 'number' && this.numericKeys) {
      this.numKeys[this.n] = key;
      return;
    }
    if (this.numericKeys) {
      this.numericKeys = false;
      for (let i = 0; i < this.n; i++) this.keys.push(this.numKeys[i]);
    }
    this.keys.push(key);
  }

  cell(state: string, kind: StateKind, value: unknown, touched: number, eventTime: number | null): void {
    let s = this.stateIndex.get(state);
    if (s === undefined) {
      s = this.states.length;
      if (s > 0xffff) throw new Error(`a state chunk holds at most ${0xffff + 1} states`);
      this.stateIndex.set(state, s);
      this.states.push(state);
      this.kinds.push(kind);
    }
    const c = this.cells++;
    if (c === this.touched.length) {
      this.cellState = grow(this.cellState);
      this.touched = grow(this.touched);
      this.eventTime = grow(this.eventTime);
    }
    this.cellState[c] = s;
    this.stateChars += state.length;
    this.touched[c] = touched;
    this.eventTime[c] = eventTime === null ? NaN : eventTime;
    if (this.eventTimes) this.eventTimes.push(eventTime);
    else if (eventTime !== null && eventTime !== eventTime) {
      this.eventTimes = [];
      for (let i = 0; i < c; i++) this.eventTimes.push(this.eventTime[i] !== this.eventTime[i] ? null : this.eventTime[i]);
      this.eventTimes.push(eventTime);
    }
    if (typeof value !== 'number') this.numericValues = false;
    this.values.push(value);
  }

  /** Ends the entry; returns false for one without cells (a tombstone). */
  endEntry(): boolean {
    const i = this.n++;
    this.ends[i] = this.cells;
    return this.cells !== (i > 0 ? this.ends[i - 1] : 0);
  }

  /** Takes back the entry just ended (a removed key no chunk holds needs no tombstone). */
  dropLastEntry(): void {
    if (this.ends[this.n - 1] !== (this.n > 1 ? this.ends[this.n - 2] : 0)) throw new Error('only an entry without cells can be dropped');
    this.n--;
    if (!this.numericKeys) this.keys.pop();
  }

  /** Seals the collected entries into a chunk value and starts over; null when there are none. */
  seal(id: string, kg: number, writtenBy: number): { record: ColumnarChunk; bytes: number } | null {
    const n = this.n;
    if (n === 0) return null;
    const cells = this.cells;
    const record: ColumnarChunk = {
      id,
      kg,
      writtenBy,
      v: COLUMNAR_FORMAT,
      keys: this.numericKeys ? this.numKeys.slice(0, n) : this.keys,
      ends: this.ends.slice(0, n),
      states: this.states,
      kinds: this.kinds,
      state: this.states.length > 1 ? this.cellState.slice(0, cells) : null,
      touched: this.touched.slice(0, cells),
      eventTime: this.eventTimes ?? this.eventTime.slice(0, cells),
      values: this.numericValues ? Float64Array.from(this.values as number[]) : this.values,
    };
    const bytes = this.estimateBytes();
    this.n = 0;
    this.cells = 0;
    this.keys = [];
    this.numericKeys = true;
    this.stateIndex = new Map();
    this.states = [];
    this.kinds = [];
    this.eventTimes = null;
    this.values = [];
    this.numericValues = true;
    this.stateChars = 0;
    return { record, bytes };
  }

  /** The row format's estimate (entry: key + 16, cell: name + value + 40) with values sampled. */
  private estimateBytes(): number {
    const n = this.n;
    let keyBytes = 0;
    if (this.numericKeys) keyBytes = 8 * n;
    else for (const k of this.keys) keyBytes += approxSize(k);
    const cells = this.cells;
    let valueBytes = 8 * cells;
    if (!this.numericValues) {
      const step = Math.max(1, cells / SIZE_SAMPLE);
      let sampled = 0;
      let sum = 0;
      for (let i = 0; i < cells; i += step, sampled++) sum += approxSize(this.values[Math.floor(i)]);
      valueBytes = Math.round((sum / sampled) * cells);
    }
    return 64 + keyBytes + 16 * n + 2 * this.stateChars + valueBytes + 40 * cells;
  }
}

function grow<T extends Float64Array | Uint32Array | Uint16Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(16, a.length * 2));
  b.set(a);
  return b;
}

/** Reads cell `c` of a columnar chunk. */
export const cellStateOf = (r: ColumnarChunk, c: number): number => (r.state === null ? 0 : r.state[c]);
export function cellEventTime(r: ColumnarChunk, c: number): number | null {
  const t = r.eventTime[c];
  return t !== t && r.eventTime instanceof Float64Array ? null : t;
}
export const cellsStart = (r: ColumnarChunk, i: number): number => (i === 0 ? 0 : r.ends[i - 1]);
