import type { Key } from '../../core/types.ts';
import { keyGroupOf } from '../../core/keys.ts';
import type { Cell } from '../../state/memory/memoryBackend.ts';
import type { CellRecord } from './chunks.ts';
import type { ColumnChanges, ColumnTable, CopiedColumns } from '../../state/memory/columnTable.ts';

/**
 * A columns state as a checkpoint froze it: its columns copied by slot. A key that has not taken
 * or left a slot since is read from the copy at its live slot; one that has is in `moved`, with
 * the slot it had at the freeze (-1: none).
 */
export interface FrozenColumns {
  t: ColumnTable;
  copy: CopiedColumns;
  moved: Map<Key, number>;
}

/** What is remembered of an evicted key: which states it has and their latest touch (for TTL in `keys()`). */
export type EvictedKey = [state: string, touched: number][];

/**
 * The keys a checkpoint has frozen and not yet written. Until a key is written, the first
 * access to it (read or write, through any table) saves a copy of its cells as they were at
 * the freeze: copy-on-write, so freezing costs nothing and writing can proceed in slices.
 * The writer takes key groups lowest first, each whole within one task, so "written" is
 * `keyGroup < writtenBelow`: nothing is deleted per written key (deleting a million keys
 * from the set one by one cost ~1 s of a full checkpoint).
 */
export class Freeze {
  readonly saved = new Map<Key, CellRecord[]>();
  /** A copy that failed (a value that cannot be cloned): the checkpoint fails, the access does not. */
  failure: unknown = null;
  /** Key groups below this one are written. */
  writtenBelow = 0;
  /** The columns states, copied when the freeze began. */
  columns: FrozenColumns[] | null = null;
  /** @param frozen the frozen keys; an access takes its key out (its copy is saved then, if still unwritten). */
  constructor(readonly frozen: Set<Key>) {}

  /** Whether `key` (of key group `kg`) is frozen and not yet written. */
  holds(key: Key, kg: number): boolean {
    return kg >= this.writtenBelow && this.frozen.has(key);
  }
}

/**
 * Keys changed since the last checkpoint, listed per key group as they become dirty: a
 * checkpoint writes them group by group and so needs no hashing, sorting or copying of a
 * million keys in its synchronous part (a key is hashed once per checkpoint interval, when
 * it first changes in it).
 */
export class DirtyKeys {
  readonly keys = new Set<Key>();
  /** Index: key group; entries: its dirty keys in the order they became dirty. */
  readonly byKg: (Key[] | undefined)[] = [];

  constructor(private readonly maxParallelism: number) {}

  get size(): number {
    return this.keys.size;
  }

  has(key: Key): boolean {
    return this.keys.has(key);
  }

  add(key: Key): void {
    const before = this.keys.size;
    if (this.keys.add(key).size === before) return;
    const kg = keyGroupOf(key, this.maxParallelism);
    const list = this.byKg[kg];
    if (list) list.push(key);
    else this.byKg[kg] = [key];
  }

  /** Each key group with its keys, lowest group first. */
  groups(): [kg: number, keys: Key[]][] {
    const out: [number, Key[]][] = [];
    this.byKg.forEach((keys, kg) => keys && out.push([kg, keys]));
    return out;
  }
}

/** Per-backend bookkeeping shared by all of its tables. */
export class KeyTracker implements ColumnChanges {
  /** Keys changed since the last persist froze the set. */
  dirty: DirtyKeys;
  /**
   * Bumped whenever `dirty` is replaced. A cell stamped with the current generation is known to be
   * in `dirty`, so repeated writes to a hot key skip the set (see DirtyCell).
   */
  generation = 1;
  readonly evicted = new Map<Key, EvictedKey>();
  /** Resident keys, least recently prefetched or created first: eviction order (kept only under a budget). */
  readonly recency = new Map<Key, true>();
  trackRecency = false;
  freezes: Freeze[] = [];
  /** Copies a key's cells (deeply) for a freeze; set by the working set. */
  copyCells: (key: Key) => CellRecord[] = () => [];

  constructor(private readonly maxParallelism: number) {
    this.dirty = new DirtyKeys(maxParallelism);
  }

  /** Hands the dirty set to a checkpoint and starts a new one. */
  takeDirty(): DirtyKeys {
    const d = this.dirty;
    this.dirty = new DirtyKeys(this.maxParallelism);
    this.generation++;
    return d;
  }

  /** A columns state's key changed (ColumnChanges: the table asks once per generation). */
  changed(key: Key): void {
    this.dirty.add(key);
  }

  moving(table: ColumnTable, key: Key, slot: number): void {
    for (const f of this.freezes) {
      const fc = f.columns?.find((c) => c.t === table);
      // The first move since the freeze tells where the key was then.
      if (fc && !fc.moved.has(key)) fc.moved.set(key, slot);
    }
  }

  markDirty(key: Key, c?: DirtyCell): void {
    if (c === undefined) this.dirty.add(key);
    else if (c.dg !== this.generation) {
      c.dg = this.generation;
      this.dirty.add(key);
    }
  }

  beforeAccess(key: Key): void {
    for (const f of this.freezes) {
      if (!f.frozen.delete(key) || keyGroupOf(key, this.maxParallelism) < f.writtenBelow) continue;
      try {
        f.saved.set(key, this.copyCells(key));
      } catch (e) {
        f.failure ??= e;
      }
    }
  }

  isFrozen(key: Key): boolean {
    for (const f of this.freezes) if (f.holds(key, keyGroupOf(key, this.maxParallelism))) return true;
    return false;
  }
}

/**
 * A cell with the dirty generation it was last recorded in. Its own field: the heap backend keeps
 * the cell's key group in `g`, and a snapshot reads it from there.
 */
export type DirtyCell = Cell & { dg?: number };

export function evictedKeyError(state: string, key: Key): Error {
  return new Error(
    `state "${state}" for key ${JSON.stringify(key)} was evicted to IndexedDB and not prefetched: ` +
      'call `await backend.prefetch(keys)` with every key of a batch (and of due timers) before processing it',
  );
}

/**
 * A state table that records which keys change and refuses to touch evicted keys: reading one
 * would silently return "no state", and deleting one would let its persisted version come back.
 * `load`/`drop`/`peekCell` move and read keys without counting as accesses.
 */
export class TrackedTable extends Map<Key, Cell> {
  constructor(
    readonly state: string,
    private readonly tracker: KeyTracker,
  ) {
    super();
  }

  private guard(key: Key): void {
    if (this.tracker.evicted.size !== 0 && this.tracker.evicted.has(key)) throw evictedKeyError(this.state, key);
  }

  override get(key: Key): Cell | undefined {
    if (this.tracker.freezes.length !== 0) this.tracker.beforeAccess(key);
    const c = super.get(key);
    if (c === undefined) this.guard(key);
    return c;
  }

  override has(key: Key): boolean {
    if (this.tracker.freezes.length !== 0) this.tracker.beforeAccess(key);
    if (super.has(key)) return true;
    this.guard(key);
    return false;
  }

  override set(key: Key, c: Cell): this {
    this.guard(key);
    if (this.tracker.freezes.length !== 0) this.tracker.beforeAccess(key);
    (c as DirtyCell).dg = this.tracker.generation;
    this.tracker.dirty.add(key);
    if (this.tracker.trackRecency) this.tracker.recency.set(key, true);
    return super.set(key, c);
  }

  override delete(key: Key): boolean {
    if (this.tracker.freezes.length !== 0) this.tracker.beforeAccess(key);
    if (!super.delete(key)) {
      this.guard(key);
      return false;
    }
    this.tracker.dirty.add(key);
    return true;
  }

  load(key: Key, c: Cell): void {
    super.set(key, c);
  }

  drop(key: Key): Cell | undefined {
    const c = super.get(key);
    if (c) super.delete(key);
    return c;
  }

  peekCell(key: Key): Cell | undefined {
    return super.get(key);
  }
}
