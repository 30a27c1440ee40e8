import type { Key } from '../../core/types.ts';
import type { ColumnsDescriptor } from '../descriptors.ts';
import type { SnapshotCell } from '../backend.ts';
import type { Cell } from './memoryBackend.ts';
import { KeySlots } from './keySlots.ts';
import { keyGroupOf } from '../../core/keys.ts';

const FIRST_CAPACITY = 64;

/**
 * Who hears of changed keys: a durable backend, whose checkpoints write only those. Told once per
 * key per `generation` (a checkpoint starts a new one), so a hot key costs one number compare a write.
 */
export interface ColumnChanges {
  readonly generation: number;
  changed(key: Key): void;
  /** A key takes a new slot (`slot` -1: it had none) or leaves `slot`: what a frozen copy's reader must know. */
  moving(table: ColumnTable, key: Key, slot: number): void;
}

/** A copy of a table's columns as they were, indexed by slot (see ColumnTable.copyColumns). */
export interface CopiedColumns {
  nums: Float64Array;
  eventTimes: Float64Array;
  /** Per slot: its ref where it is not the key; null when none is. */
  refs: unknown[] | null;
}

/**
 * A key as the index holds it: -0 and 0 are one key, held as 0. A ref left out because it is the
 * key must come back as that one value, not as whichever of the two the current record carried.
 */
export const heldKey = (key: Key): Key => (key === 0 ? 0 : key);
const held = heldKey;

/**
 * One columns state of the heap backend: a key → slot map and typed arrays indexed by slot.
 * A key costs its map entry, `width` doubles and its event time, where a value state costs a
 * map entry, a cell record and the value object. The numbers of one slot sit side by side
 * (slot × width), so an update touches one cache line rather than one per column.
 */
export class ColumnTable {
  readonly slots = new KeySlots();
  nums: Float64Array;
  /** Event time of each slot's last write that had one; NaN for none. */
  private eventTimes: Float64Array;
  /** Refs that are not the key itself; most groups' ref is their key, so no array until one differs. */
  private refs: unknown[] | null = null;
  /** Processing time and write serial of each slot's last write: kept only once the observatory looks. */
  private writeTimes: Float64Array | null = null;
  private serials: Float64Array | null = null;
  /**
   * Each slot's snapshot cell while the slot is unchanged since it was made (as a value state's
   * cell keeps `f`), and its key group, hashed once: a checkpoint of a large, mostly idle state
   * then builds and hashes only the keys written since the last one.
   */
  private cells: (SnapshotCell | undefined)[] = [];
  private groups: Int32Array;
  /** The maxParallelism `groups` was hashed for. */
  private groupsOf = 0;
  private readonly free: number[] = [];
  private used = 0;
  private capacity = FIRST_CAPACITY;
  /** How many times keys left their slots (drops and clears): see ColumnsState.moves. */
  moves = 0;
  /** Set by a durable backend (see track); null in the heap backend, which snapshots every slot. */
  private changes: ColumnChanges | null = null;
  /** Per slot: the generation of `changes` its key was last reported in. */
  private reportedIn: Int32Array | null = null;

  constructor(readonly d: ColumnsDescriptor) {
    this.nums = new Float64Array(FIRST_CAPACITY * d.width);
    this.eventTimes = new Float64Array(FIRST_CAPACITY).fill(Number.NaN);
    this.groups = new Int32Array(FIRST_CAPACITY).fill(-1);
  }

  find(key: Key): number {
    return this.slots.get(key);
  }

  /** The key's slot, a new one if it has none; `report` false for a key restored as it was persisted. */
  claim(key: Key, report = true): number {
    const known = this.slots.get(key);
    if (known >= 0) return known;
    let s = this.free.pop();
    if (s === undefined) {
      if (this.used === this.capacity) this.grow();
      s = this.used++;
    }
    // A freed slot, or one below the mark after clear(), still holds its last numbers.
    this.nums.fill(0, s * this.d.width, (s + 1) * this.d.width);
    this.eventTimes[s] = Number.NaN;
    if (this.refs) this.refs[s] = undefined;
    if (this.serials) this.serials[s] = 0;
    this.cells[s] = undefined;
    this.groups[s] = -1;
    this.slots.set(key, s);
    if (this.reportedIn) {
      this.changes!.moving(this, key, -1);
      // A new key is state from now on, written or not (a heap snapshot lists it too).
      this.reportedIn[s] = 0;
      if (report) this.noteChange(s, key);
    }
    return s;
  }

  /** Reports every key claimed, written or dropped from now on to `changes`. */
  track(changes: ColumnChanges): void {
    this.changes = changes;
    this.reportedIn ??= new Int32Array(this.capacity);
  }

  /** Reports the slot's key as changed, once per generation. */
  noteChange(slot: number, key: Key): void {
    const c = this.changes;
    if (c === null || this.reportedIn![slot] === c.generation) return;
    this.reportedIn![slot] = c.generation;
    c.changed(key);
  }

  /** Grows by half, not by doubling: the slack of a million-key state is a quarter, not a half. */
  private grow(): void {
    const cap = Math.ceil(this.capacity * 1.5);
    const widen = (a: Float64Array, per: number, fill: number) => {
      const b = new Float64Array(cap * per);
      if (fill !== 0) b.fill(fill, a.length);
      b.set(a);
      return b;
    };
    this.nums = widen(this.nums, this.d.width, 0);
    this.eventTimes = widen(this.eventTimes, 1, Number.NaN);
    const groups = new Int32Array(cap).fill(-1);
    groups.set(this.groups);
    this.groups = groups;
    if (this.writeTimes) this.writeTimes = widen(this.writeTimes, 1, 0);
    if (this.serials) this.serials = widen(this.serials, 1, 0);
    if (this.reportedIn) {
      const r = new Int32Array(cap);
      r.set(this.reportedIn);
      this.reportedIn = r;
    }
    this.capacity = cap;
  }

  /** Removes the key; `report` false for a restore replacing it (not a change a checkpoint must write). */
  drop(key: Key, report = true): boolean {
    const s = this.slots.delete(key);
    if (s < 0) return false;
    this.moves++;
    if (this.refs) this.refs[s] = undefined;
    this.cells[s] = undefined;
    this.free.push(s);
    if (this.reportedIn) {
      this.changes!.moving(this, key, s);
      this.reportedIn[s] = 0;
      if (report) this.changes!.changed(key);
    }
    return true;
  }

  ref(slot: number, key: Key): unknown {
    const r = this.refs?.[slot];
    return r === undefined ? held(key) : r;
  }

  /**
   * The numbers, event times and refs of every slot in use, copied (a few memcpy-like copies, no
   * walk over keys): a checkpoint's frozen state. A key keeps its slot until it is dropped, so
   * the copy answers for every key that has not moved since (ColumnChanges.moving tells which did).
   */
  copyColumns(): CopiedColumns {
    return { nums: this.nums.slice(0, this.used * this.d.width), eventTimes: this.eventTimes.slice(0, this.used), refs: this.refs ? this.refs.slice(0, this.used) : null };
  }

  setRef(slot: number, key: Key, ref: unknown): void {
    const same = Object.is(ref, held(key));
    if (this.refs) this.refs[slot] = same ? undefined : ref;
    else if (!same) {
      this.refs = [];
      this.refs[slot] = ref;
    }
  }

  /** Stamps a write; `eventTime` only when the record had one (a cell keeps its last known one). */
  stamp(slot: number, eventTime: number, processingTime: number, serial: number): void {
    this.cells[slot] = undefined;
    if (Number.isFinite(eventTime)) this.eventTimes[slot] = eventTime;
    if (this.serials) {
      this.serials[slot] = serial;
      this.writeTimes![slot] = processingTime;
    }
  }

  /** The slot's event time as stored: NaN for none. */
  eventTimeOr(slot: number): number {
    return this.eventTimes[slot];
  }

  eventTime(slot: number): number | null {
    const et = this.eventTimes[slot];
    return Number.isNaN(et) ? null : et;
  }

  value(slot: number, key: Key): unknown {
    return this.d.encode(this.nums, slot * this.d.width, this.ref(slot, key));
  }

  snapshotCell(slot: number, key: Key): SnapshotCell {
    return (this.cells[slot] ??= { state: this.d.name, kind: 'value', key, value: this.value(slot, key), touched: 0, eventTime: this.eventTime(slot) });
  }

  /** Adds every slot's snapshot cell to its key group's list. */
  snapshotInto(groups: SnapshotCell[][], maxParallelism: number): void {
    if (this.groupsOf !== maxParallelism) {
      this.groups.fill(-1);
      this.groupsOf = maxParallelism;
    }
    this.slots.forEach((slot, key) => {
      let g = this.groups[slot];
      if (g < 0) g = this.groups[slot] = keyGroupOf(key, maxParallelism);
      (groups[g] ??= []).push(this.snapshotCell(slot, key));
    });
  }

  /** Takes in a value-state cell (from a snapshot, or restored before this state was declared). */
  adopt(key: Key, value: unknown, eventTime: number | null): void {
    const s = this.claim(key, false);
    this.setRef(s, key, this.d.decode(value, this.nums, s * this.d.width));
    this.eventTimes[s] = eventTime ?? Number.NaN;
    this.cells[s] = undefined;
  }

  clear(): void {
    this.moves++;
    this.slots.clear();
    this.free.length = 0;
    this.used = 0;
    this.refs = null;
    this.cells = [];
  }

  get observed(): boolean {
    return this.serials !== null;
  }

  /** From now on every write records its time and serial, which the observatory's State tab shows. */
  observe(): ReadonlyMap<Key, Cell> {
    if (!this.serials) {
      this.serials = new Float64Array(this.capacity);
      this.writeTimes = new Float64Array(this.capacity);
    }
    return new ObservedColumns(this);
  }

  /** The observatory's cell for a slot: what a value state's cell would hold. */
  cell(slot: number, key: Key): Cell {
    const w = this.serials?.[slot];
    return { v: this.value(slot, key), t: 0, et: this.eventTime(slot), u: w ? this.writeTimes![slot] : undefined, w: w || undefined };
  }

  approxBytesPerKey(): number {
    return (this.d.width + 1) * 8 + (this.serials ? 16 : 0) + 40;
  }
}

/** A column table seen as the map of cells the observatory reads for value states; cells are built on demand. */
class ObservedColumns implements ReadonlyMap<Key, Cell> {
  constructor(private readonly t: ColumnTable) {}
  get size(): number {
    return this.t.slots.size;
  }
  get(key: Key): Cell | undefined {
    const s = this.t.slots.get(key);
    return s < 0 ? undefined : this.t.cell(s, key);
  }
  has(key: Key): boolean {
    return this.t.slots.has(key);
  }
  forEach(visit: (value: Cell, key: Key, map: ReadonlyMap<Key, Cell>) => void): void {
    this.t.slots.forEach((s, key) => visit(this.t.cell(s, key), key, this));
  }
  keys(): MapIterator<Key> {
    return this.t.slots.keys();
  }
  *entries(): MapIterator<[Key, Cell]> {
    for (const [key, s] of this.t.slots) yield [key, this.t.cell(s, key)];
  }
  *values(): MapIterator<Cell> {
    for (const [key, s] of this.t.slots) yield this.t.cell(s, key);
  }
  [Symbol.iterator](): MapIterator<[Key, Cell]> {
    return this.entries();
  }
}
