import type { Key } from '../../core/types.ts';
import type { AnyDescriptor, StateKind } from '../../state/descriptors.ts';
import { fromSnapshotValue, toSnapshotValue, type Cell, type Entry } from '../../state/memory/memoryBackend.ts';
import { isColumnar, latestTouched, type CellRecord, type ChunkRecord } from './chunks.ts';
import { approxSize } from '../../state/size.ts';
import { cellEventTime, cellsEnd, cellsStart, cellStateOf, cellTouched, type ColumnarChunkBuilder } from './columnarChunk.ts';
import { KeyTracker, TrackedTable, type EvictedKey, type FrozenColumns } from './trackedTable.ts';
import { heldKey, type ColumnTable } from '../../state/memory/columnTable.ts';

function cellLatest(kind: StateKind, c: Cell): number {
  let t = c.t;
  if (kind === 'list' || kind === 'map') for (const e of (c.v as Entry<unknown>[] | Map<unknown, Entry<unknown>>).values()) if (e.t > t) t = e.t;
  return t;
}

/**
 * The key-level view of a backend's tables: encode a key's cells for a chunk, load them back,
 * evict them, and estimate how much memory the resident keys take.
 */
export class WorkingSet {
  readonly tracker: KeyTracker;
  private readonly kinds = new Map<string, StateKind>();
  /** Average bytes of one cell per state, learnt from what was persisted or loaded. */
  private readonly cellBytes = new Map<string, number>();
  private listed: { stamp: number; list: [string, TrackedTable, StateKind][] } | null = null;

  constructor(
    private readonly tables: Map<string, Map<Key, Cell>>,
    private readonly descriptors: Map<string, AnyDescriptor>,
    maxParallelism: number,
    /** Columns states (offered only without a memory budget: their keys are never evicted). */
    private readonly columns: ReadonlyMap<string, ColumnTable> = new Map(),
  ) {
    this.tracker = new KeyTracker(maxParallelism);
    this.tracker.copyCells = (key) => structuredClone(this.cellsOf(key));
  }

  newTable(state: string): TrackedTable {
    return new TrackedTable(state, this.tracker);
  }

  private table(state: string, kind: StateKind): TrackedTable {
    if (!this.kinds.has(state)) this.kinds.set(state, kind);
    let t = this.tables.get(state) as TrackedTable | undefined;
    if (!t) this.tables.set(state, (t = this.newTable(state)));
    return t;
  }

  private kindOf(state: string): StateKind {
    return this.descriptors.get(state)?.kind ?? this.kinds.get(state) ?? 'value';
  }

  /** The key's cells as chunk records. Values are shared, not copied: the IndexedDB put clones them. */
  cellsOf(key: Key): CellRecord[] {
    const out: CellRecord[] = [];
    for (const [state, table] of this.tables) {
      const c = (table as TrackedTable).peekCell(key);
      if (!c) continue;
      const kind = this.kindOf(state);
      out.push([state, kind, toSnapshotValue(kind, c.v), c.t, c.et]);
    }
    return out;
  }

  /** The key's cells straight into a chunk builder (no record per cell); values are shared as in `cellsOf`. */
  appendCells(key: Key, into: ColumnarChunkBuilder): void {
    this.appendTableCells(key, into);
    if (this.columns.size === 0) return;
    for (const t of this.columns.values()) {
      const slot = t.find(key);
      if (slot >= 0) into.cell(t.d.name, 'value', t.value(slot, key), 0, t.eventTime(slot));
    }
  }

  /** The key's cells of the value, list and map states (what `cellsOf` copies), columns states left out. */
  appendTableCells(key: Key, into: ColumnarChunkBuilder): void {
    const tables = this.tableList();
    for (let i = 0; i < tables.length; i++) {
      const [state, table, kind] = tables[i];
      const c = table.peekCell(key);
      if (c) into.cell(state, kind, toSnapshotValue(kind, c.v), c.t, c.et);
    }
  }

  /** Copies every columns state for a checkpoint's freeze (null without any): see FrozenColumns. */
  freezeColumns(): FrozenColumns[] | null {
    if (this.columns.size === 0) return null;
    return [...this.columns.values()].map((t) => ({ t, copy: t.copyColumns(), moved: new Map() }));
  }

  /** The key's columns cells as they were at the freeze (what `appendCells` would have added then). */
  appendFrozen(frozen: readonly FrozenColumns[], key: Key, into: ColumnarChunkBuilder): void {
    for (let i = 0; i < frozen.length; i++) {
      const { t, copy, moved } = frozen[i];
      const slot = moved.size !== 0 && moved.has(key) ? moved.get(key)! : t.find(key);
      if (slot < 0) continue;
      const ref = copy.refs?.[slot];
      const et = copy.eventTimes[slot];
      into.cell(t.d.name, 'value', t.d.encode(copy.nums, slot * t.d.width, ref === undefined ? heldKey(key) : ref), 0, Number.isNaN(et) ? null : et);
    }
  }

  /** Forgets the cached table list (a columns state took over a table's name). */
  tablesChanged(): void {
    this.listed = null;
  }

  /** The tables with their kinds, rebuilt when a table or descriptor is added (a checkpoint asks once per key). */
  private tableList(): [string, TrackedTable, StateKind][] {
    const stamp = this.tables.size * 65_536 + this.descriptors.size;
    if (this.listed?.stamp !== stamp) this.listed = { stamp, list: [...this.tables].map(([state, t]) => [state, t as TrackedTable, this.kindOf(state)]) };
    return this.listed.list;
  }

  isResident(key: Key): boolean {
    for (const table of this.tables.values()) if ((table as TrackedTable).peekCell(key)) return true;
    for (const t of this.columns.values()) if (t.find(key) >= 0) return true;
    return false;
  }

  /** Puts one persisted cell back as clean state: into its columns state if the operator declared one. */
  private loadCell(key: Key, state: string, kind: StateKind, value: unknown, t: number, et: number | null): void {
    const columns = this.columns.size === 0 ? undefined : this.columns.get(state);
    if (columns) columns.adopt(key, fromSnapshotValue(kind, value), et);
    else this.table(state, kind).load(key, { v: fromSnapshotValue(kind, value), t, et });
  }

  /** Puts persisted cells back as clean, resident state (the records must not be shared). */
  load(key: Key, cells: readonly CellRecord[]): void {
    this.tracker.evicted.delete(key);
    for (const [state, kind, value, t, et] of cells) this.loadCell(key, state, kind, value, t, et);
    if (this.tracker.trackRecency) this.tracker.recency.set(key, true);
  }

  /** Loads entry `i` of a chunk read from disk as clean, resident state, straight from its columns. */
  loadEntry(key: Key, rec: ChunkRecord, i: number): void {
    if (!isColumnar(rec)) {
      const cells = rec.entries[i][1];
      if (cells) this.load(key, cells);
      return;
    }
    this.tracker.evicted.delete(key);
    for (let c = cellsStart(rec, i), end = cellsEnd(rec, i); c < end; c++) {
      const s = cellStateOf(rec, c);
      this.loadCell(key, rec.states[s], rec.kinds[s], rec.values[c], cellTouched(rec, c), cellEventTime(rec, c));
    }
    if (this.tracker.trackRecency) this.tracker.recency.set(key, true);
  }

  /** Registers a persisted key as living only on disk. */
  markEvicted(key: Key, cells: readonly CellRecord[]): void {
    for (const [state, kind] of cells) this.table(state, kind);
    this.tracker.evicted.set(key, cells.map((c) => [c[0], latestTouched(c)]));
  }

  /** Drops a key's resident cells without recording it as evicted (a restore replacing them). */
  forget(key: Key): void {
    for (const table of this.tables.values()) (table as TrackedTable).drop(key);
    for (const t of this.columns.values()) t.drop(key, false);
  }

  /** Drops a clean key from memory; returns the estimated bytes freed. */
  evict(key: Key): number {
    const summary: EvictedKey = [];
    let freed = 0;
    for (const [state, table] of this.tables) {
      const c = (table as TrackedTable).drop(key);
      if (!c) continue;
      summary.push([state, cellLatest(this.kindOf(state), c)]);
      freed += this.cellBytes.get(state) ?? 64;
    }
    this.tracker.recency.delete(key);
    if (summary.length) this.tracker.evicted.set(key, summary);
    return freed;
  }

  learnSizes(cells: readonly CellRecord[]): void {
    for (const c of cells) {
      const bytes = approxSize(c[2]) + 2 * c[0].length + 40;
      const old = this.cellBytes.get(c[0]);
      this.cellBytes.set(c[0], old === undefined ? bytes : old * 0.9 + bytes * 0.1);
    }
  }

  /** Estimated bytes held by resident cells. */
  residentBytes(): number {
    let n = 0;
    for (const [state, table] of this.tables) n += table.size * (this.cellBytes.get(state) ?? 64);
    for (const t of this.columns.values()) n += t.slots.size * t.approxBytesPerKey();
    return n;
  }

  /** Empties every table without marking keys dirty (restore replaces the whole state). */
  reset(): void {
    for (const t of this.tables.values()) (t as TrackedTable).clear();
    for (const t of this.columns.values()) t.clear();
    this.tracker.takeDirty();
    this.tracker.freezes = [];
    this.tracker.evicted.clear();
    this.tracker.recency.clear();
  }
}
