import type { Key } from '../../core/types.ts';
import { DEFAULT_MAX_PARALLELISM, keyGroupOf } from '../../core/keys.ts';
import type {
  AggregatingDescriptor,
  AggregatingState,
  AnyDescriptor,
  ColumnsDescriptor,
  ColumnsState,
  ListDescriptor,
  ListState,
  MapDescriptor,
  MapKey,
  MapState,
  ReducingDescriptor,
  ReducingState,
  StateKind,
  TtlConfig,
  ValueDescriptor,
  ValueState,
} from '../descriptors.ts';
import type { KeyedStateBackend, KeyedStateSnapshot, SnapshotCell, StateMetrics, StateTime } from '../backend.ts';
import { isExpired, ttlNow } from '../ttl.ts';
import { approxSize } from '../size.ts';
import { cloneValue } from '../cloneValue.ts';
import { fromSnapshotValue, ownEntryValues, toSnapshotValue, type Entry } from './snapshotCells.ts';
import { ColumnTable } from './columnTable.ts';

export { fromSnapshotValue, toSnapshotValue, type Entry } from './snapshotCells.ts';

/** A cell per (state, key). List and map cells hold per-entry timestamps so TTL can expire entries one by one. */
export interface Cell {
  v: unknown;
  t: number;
  et: number | null;
  /** Processing time of the last write and the backend's write serial then (for the observatory). */
  u?: number;
  w?: number;
  /** The snapshot cell the last snapshot made of this cell; the next one reuses it while the cell is unchanged. */
  f?: SnapshotCell;
  /** The key's key group, hashed once rather than on every snapshot. */
  g?: number;
  /**
   * The value (for lists and maps: the entry values) is shared with a snapshot or a restored
   * snapshot, so it gets a private copy before anyone can mutate it (copy-on-write).
   */
  s?: boolean;
}

/**
 * The heap backend, like Flink's HashMapStateBackend: plain maps with copy-on-write snapshots.
 * A snapshot shares the cells' values instead of cloning them; the first read of a shared value
 * afterwards copies it (reads hand out objects that operators mutate before `update`), and
 * serialization happens when the checkpoint store or the worker boundary clones the snapshot.
 */
export class MemoryStateBackend implements KeyedStateBackend {
  private key: Key = null;
  protected readonly tables = new Map<string, Map<Key, Cell>>();
  protected readonly descriptors = new Map<string, AnyDescriptor>();
  private readonly handles = new Map<string, unknown>();
  /** Columns states (see ColumnsDescriptor): snapshot, inspected and observed as value states. */
  protected readonly columnTables = new Map<string, ColumnTable>();
  private watching = false;
  private ttlCleanups = 0;
  private writes = 0;
  /** Bumped whenever a key enters or leaves a table, so observers can keep a key ordering. */
  private keySet = 0;
  /**
   * The table and cell (or known absence) that the last whole-value read found for the current
   * key, so that the write of a read-modify-write (`value()` then `update()`) skips a second
   * lookup. Forgotten whenever the key changes or this class removes cells.
   */
  private hotTable: Map<Key, Cell> | null = null;
  private hotCell: Cell | undefined = undefined;
  /** Durable subclasses may move cells out of their tables between calls, so only the heap backend caches. */
  private readonly cacheReads = this.newTable === MemoryStateBackend.prototype.newTable;

  constructor(
    private readonly time: StateTime,
    private readonly maxParallelism = DEFAULT_MAX_PARALLELISM,
  ) {}

  /** Durable subclasses return tables that track writes and refuse reads of evicted keys. */
  protected newTable(_state: string): Map<Key, Cell> {
    return new Map();
  }

  /** Called after a cell of the current key was changed in place (no table.set/delete happened); `c` when known. */
  protected changed(_c?: Cell): void {}

  setCurrentKey(key: Key): void {
    // The same key again (a key's records in a row, a batch's prepare and apply passes): the hot cell
    // is still its cell. Keys equal as the tables compare them except by === (NaN) just forget it.
    if (key !== this.key) this.hotTable = null;
    this.key = key;
  }
  currentKey(): Key {
    return this.key;
  }

  private table(d: AnyDescriptor): Map<Key, Cell> {
    const known = this.descriptors.get(d.name);
    if (known && known.kind !== d.kind) {
      throw new Error(`state "${d.name}" is already registered as ${known.kind} state, not ${d.kind}`);
    }
    this.descriptors.set(d.name, d);
    let t = this.tables.get(d.name);
    if (!t) {
      t = this.newTable(d.name);
      this.tables.set(d.name, t);
    }
    return t;
  }

  private cached<H>(d: AnyDescriptor, make: (table: Map<Key, Cell>) => H): H {
    const h = this.handles.get(d.name);
    if (h) {
      this.table(d);
      return h as H;
    }
    const made = make(this.table(d));
    this.handles.set(d.name, made);
    return made;
  }

  /**
   * Reads a whole-value cell, expiring it if its TTL ran out. A value never changed in place
   * (`immutable`) stays shared with the snapshot, which keeps its snapshot cell.
   */
  private live(table: Map<Key, Cell>, ttl: TtlConfig | undefined, immutable?: boolean): Cell | undefined {
    // An empty heap table holds no key's cell: no lookup, and the hot cell of another table stays hot.
    if (this.cacheReads && table.size === 0) return undefined;
    const c = table.get(this.key);
    if (this.cacheReads) {
      this.hotTable = table;
      this.hotCell = c;
    }
    if (!c) return c;
    if (c.s && !immutable) {
      // An object read may be mutated in place without an update: the next snapshot must look again.
      if (typeof c.v === 'object' && c.v !== null) {
        c.v = cloneValue(c.v);
        if (c.f) c.f = undefined;
      }
      c.s = false;
    }
    if (!ttl) return c;
    const now = ttlNow(ttl, this.time);
    if (isExpired(ttl, c.t, now)) {
      table.delete(this.key);
      this.hotCell = undefined;
      this.ttlCleanups++;
      return undefined;
    }
    if (ttl.update === 'onReadAndWrite') {
      c.t = now;
      if (c.f) c.f = undefined;
      this.changed(c);
    }
    return c;
  }

  private write(table: Map<Key, Cell>, ttl: TtlConfig | undefined, v: unknown): void {
    const t = ttlNow(ttl, this.time);
    const et = this.time.eventTime();
    const u = this.time.processingTime();
    const c = table === this.hotTable ? this.hotCell : table.get(this.key);
    const w = ++this.writes;
    if (c) {
      c.v = v;
      // Only clear fields a snapshot set: adding them to every cell would change its shape.
      if (c.f) c.f = undefined;
      if (c.s) c.s = false;
      c.t = t;
      c.et = Number.isFinite(et) ? et : c.et;
      c.u = u;
      c.w = w;
      this.changed(c);
    } else {
      const made: Cell = { v, t, et: Number.isFinite(et) ? et : null, u, w };
      table.set(this.key, made);
      if (table === this.hotTable) this.hotCell = made;
    }
  }

  /** Removes the current key's cell (an explicit clear, not a TTL expiry). */
  private drop(table: Map<Key, Cell>): void {
    this.hotTable = null;
    if (table.delete(this.key)) {
      this.writes++;
      this.keySet++;
    }
  }

  /** How many writes and clears happened so far: a cheap "did this record change state" probe. */
  mutations(): number {
    return this.writes;
  }

  /** Entries dropped by TTL so far (what metrics() reports, without walking the keys). */
  ttlCleanupCount(): number {
    return this.ttlCleanups;
  }

  /** Changes whenever the set of keys of any state changes (not when values do). */
  keySetVersion(): number {
    return this.keySet;
  }

  /**
   * Columns states keep no write time or serial per key until someone watches (plain cells
   * always do): the observatory calls this as soon as it attaches, and observeTables() implies it.
   */
  watchWrites(): void {
    this.watching = true;
    for (const t of this.columnTables.values()) t.observe();
  }

  /** Raw cells per state for the observatory: no TTL expiry and no access-time update on read. */
  observeTables(): { name: string; kind: StateKind; ttl: TtlConfig | undefined; table: ReadonlyMap<Key, Cell> }[] {
    const tables = [...this.tables].map(([name, table]) => {
      const d = this.descriptors.get(name);
      return { name, kind: d?.kind ?? 'value', ttl: d?.ttl, table: table as ReadonlyMap<Key, Cell> };
    });
    this.watching = true;
    for (const [name, t] of this.columnTables) tables.push({ name, kind: 'value', ttl: undefined, table: t.observe() });
    return tables;
  }

  /** The clock a TTL is measured in, now. */
  ttlClock(ttl: TtlConfig): number {
    return ttlNow(ttl, this.time);
  }

  /**
   * Whether columns states are offered. Subclasses whose tables track or evict cells say so
   * themselves (a durable one that evicts per key keeps value states; an operator then falls back).
   */
  protected keepsColumns(): boolean {
    return this.cacheReads;
  }

  /** Called once per columns state as it is made (a durable subclass starts tracking its changes). */
  protected columnsMade(_t: ColumnTable): void {}

  columns(d: ColumnsDescriptor): ColumnsState | null {
    if (!this.keepsColumns()) return null;
    const h = this.handles.get(d.name);
    if (h && this.columnTables.has(d.name)) return h as ColumnsState;
    if (this.descriptors.has(d.name)) throw new Error(`state "${d.name}" is already registered as ${this.descriptors.get(d.name)!.kind} state, not columns`);
    const t = new ColumnTable(d);
    this.columnTables.set(d.name, t);
    this.columnsMade(t);
    if (this.watching) t.observe();
    // Cells restored before the operator declared this state wait in a plain table: take them in.
    const waiting = this.tables.get(d.name);
    if (waiting) {
      waiting.forEach((c, key) => t.adopt(key, c.v, c.et));
      this.tables.delete(d.name);
    }
    const claimKey = (key: Key): number => {
      const before = t.slots.size;
      const s = t.claim(key);
      if (t.slots.size !== before) this.keySet++;
      return s;
    };
    const state: ColumnsState = {
      find: () => t.find(this.key),
      claim: () => claimKey(this.key),
      claimKey,
      moves: () => t.moves,
      // As the key index tells keys apart (a Map's SameValueZero).
      isCurrent: (key) => key === this.key || (key !== key && this.key !== this.key),
      numbers: () => t.nums,
      ref: (slot) => t.ref(slot, this.key),
      written: (slot, ref) => {
        t.setRef(slot, this.key, ref);
        t.stamp(slot, this.time.eventTime(), t.observed ? this.time.processingTime() : 0, ++this.writes);
        t.noteChange(slot, this.key);
      },
      clear: () => {
        if (t.drop(this.key)) {
          this.writes++;
          this.keySet++;
        }
      },
      size: () => t.slots.size,
      each: (visit) => t.slots.forEach((slot, key) => visit(slot, t.ref(slot, key))),
      slotOf: (key) => t.find(key),
      refAt: (slot, key) => t.ref(slot, key),
    };
    this.handles.set(d.name, state);
    return state;
  }

  value<T>(d: ValueDescriptor<T>): ValueState<T> {
    return this.cached(d, (table) => ({
      value: () => this.live(table, d.ttl, d.immutableValues)?.v as T | undefined,
      update: (v: T) => (v === undefined || v === null ? this.drop(table) : this.write(table, d.ttl, v)),
      clear: () => this.drop(table),
    }));
  }

  reducing<T>(d: ReducingDescriptor<T>): ReducingState<T> {
    return this.cached(d, (table) => ({
      get: () => this.live(table, d.ttl)?.v as T | undefined,
      add: (x: T) => {
        const c = this.live(table, d.ttl);
        this.write(table, d.ttl, c === undefined ? x : d.reduce(c.v as T, x));
      },
      clear: () => this.drop(table),
    }));
  }

  aggregating<IN, ACC, OUT>(d: AggregatingDescriptor<IN, ACC, OUT>): AggregatingState<IN, OUT> {
    return this.cached(d, (table) => ({
      get: () => {
        const c = this.live(table, d.ttl);
        return c === undefined ? undefined : d.fn.get(c.v as ACC);
      },
      add: (x: IN) => {
        const c = this.live(table, d.ttl);
        this.write(table, d.ttl, d.fn.add(c === undefined ? d.fn.create() : (c.v as ACC), x));
      },
      clear: () => this.drop(table),
    }));
  }

  /** Live entries of a list or map cell; expired ones are removed and counted. False: none is left (the cell is gone). */
  private liveEntries(table: Map<Key, Cell>, ttl: TtlConfig | undefined, c: Cell): boolean {
    if (!ttl) return true;
    const now = ttlNow(ttl, this.time);
    const entries = c.v as Entry<unknown>[] | Map<MapKey, Entry<unknown>>;
    if (Array.isArray(entries)) {
      if (ttl.update === 'onReadAndWrite') {
        if (c.f) c.f = undefined;
        this.changed();
      }
      let w = 0;
      for (const e of entries) {
        if (isExpired(ttl, e.t, now)) this.ttlCleanups++;
        else {
          if (ttl.update === 'onReadAndWrite') e.t = now;
          entries[w++] = e;
        }
      }
      if (w !== entries.length) {
        if (c.f) c.f = undefined;
        this.changed();
      }
      entries.length = w;
      if (w === 0) return this.dropEmptied(table);
    } else {
      for (const [k, e] of entries) {
        if (isExpired(ttl, e.t, now)) {
          entries.delete(k);
          if (c.f) c.f = undefined;
          this.ttlCleanups++;
          this.changed();
        }
      }
      if (entries.size === 0) return this.dropEmptied(table);
    }
    return true;
  }

  /** Removes the current key's list or map cell that has no entries left. */
  private dropEmptied(table: Map<Key, Cell>): false {
    this.hotTable = null;
    if (table.delete(this.key)) this.keySet++;
    return false;
  }

  /**
   * The current key's list or map cell, its entry values made private if a snapshot shares them.
   * Values never changed in place stay shared, and a mere read then keeps the snapshot cell: only
   * add, put and remove change such a cell, and each of them drops it.
   */
  private ownedCell(table: Map<Key, Cell>, immutableValues: boolean | undefined): Cell | undefined {
    // One lookup per key context: get, then put or remove of the same key, reads the cell once.
    let c: Cell | undefined;
    if (table === this.hotTable) c = this.hotCell;
    else if (this.cacheReads && table.size === 0) return undefined;
    else {
      c = table.get(this.key);
      if (this.cacheReads) {
        this.hotTable = table;
        this.hotCell = c;
      }
    }
    if (c?.s && !immutableValues) {
      ownEntryValues(c.v as Entry<unknown>[] | Map<MapKey, Entry<unknown>>);
      c.s = false;
      if (c.f) c.f = undefined;
    }
    return c;
  }

  list<T>(d: ListDescriptor<T>): ListState<T> {
    const entriesOf = (table: Map<Key, Cell>): Entry<T>[] | undefined => {
      const c = this.ownedCell(table, d.immutableValues);
      return c && this.liveEntries(table, d.ttl, c) ? (c.v as Entry<T>[]) : undefined;
    };
    return this.cached(d, (table) => ({
      get: () => (entriesOf(table) ?? []).map((e) => e.v),
      add: (v: T) => {
        const list = entriesOf(table);
        const e = { v, t: ttlNow(d.ttl, this.time) };
        if (list) {
          list.push(e);
          this.write(table, undefined, list);
        } else this.write(table, undefined, [e]);
      },
      update: (values: T[]) => {
        if (values.length === 0) this.drop(table);
        else {
          const t = ttlNow(d.ttl, this.time);
          this.write(table, undefined, values.map((v) => ({ v, t })));
        }
      },
      clear: () => this.drop(table),
    }));
  }

  map<K extends MapKey, V>(d: MapDescriptor<K, V>): MapState<K, V> {
    const entriesOf = (table: Map<Key, Cell>): Map<K, Entry<V>> | undefined => {
      const c = this.ownedCell(table, d.immutableValues);
      return c && this.liveEntries(table, d.ttl, c) ? (c.v as Map<K, Entry<V>>) : undefined;
    };
    return this.cached(d, (table) => ({
      get: (k: K) => entriesOf(table)?.get(k)?.v,
      put: (k: K, v: V) => {
        const m = entriesOf(table) ?? new Map<K, Entry<V>>();
        const t = ttlNow(d.ttl, this.time);
        // Entry records are the cell's own (snapshots copy them into arrays): an existing one is reused.
        const e = m.get(k);
        if (e) {
          e.v = v;
          e.t = t;
        } else m.set(k, { v, t });
        this.write(table, undefined, m);
      },
      remove: (k: K) => {
        const m = entriesOf(table);
        if (!m) return;
        if (m.delete(k)) {
          this.writes++;
          const c = table === this.hotTable ? this.hotCell : table.get(this.key);
          if (c?.f) c.f = undefined;
          this.changed();
        }
        if (m.size === 0) this.dropEmptied(table);
      },
      contains: (k: K) => entriesOf(table)?.has(k) ?? false,
      entries: () => {
        const out: [K, V][] = [];
        const m = entriesOf(table);
        if (m) for (const [k, e] of m) out.push([k, e.v]);
        return out;
      },
      keys: () => [...(entriesOf(table)?.keys() ?? [])],
      size: () => entriesOf(table)?.size ?? 0,
      isEmpty: () => (entriesOf(table)?.size ?? 0) === 0,
      clear: () => this.drop(table),
    }));
  }

  keys(stateName: string): Key[] {
    const columns = this.columnTables.get(stateName);
    if (columns) return [...columns.slots.keys()];
    const table = this.tables.get(stateName);
    if (!table) return [];
    const d = this.descriptors.get(stateName);
    if (!d?.ttl) return [...table.keys()];
    const saved = this.key;
    this.hotTable = null;
    const out: Key[] = [];
    for (const k of [...table.keys()]) {
      this.key = k;
      if (this.peek(d, table) !== undefined) out.push(k);
    }
    this.key = saved;
    return out;
  }

  /** Reads a cell for the current key through its TTL rules, without changing its access time. */
  private peek(d: AnyDescriptor, table: Map<Key, Cell>): unknown {
    if (d.kind === 'list' || d.kind === 'map') {
      const c = table.get(this.key);
      if (!c) return undefined;
      this.liveEntries(table, d.ttl, c);
      return table.get(this.key)?.v;
    }
    const c = table.get(this.key);
    if (c && d.ttl && isExpired(d.ttl, c.t, ttlNow(d.ttl, this.time))) {
      table.delete(this.key);
      this.keySet++;
      this.ttlCleanups++;
      return undefined;
    }
    return c?.v;
  }

  prefetch(_keys?: readonly Key[]): void | Promise<void> {
    // Everything is already on the heap.
  }

  cleanupExpired(): number {
    const before = this.ttlCleanups;
    const saved = this.key;
    this.hotTable = null;
    for (const [name, table] of this.tables) {
      const d = this.descriptors.get(name);
      if (!d?.ttl) continue;
      for (const k of [...table.keys()]) {
        this.key = k;
        this.peek(d, table);
      }
    }
    this.key = saved;
    return this.ttlCleanups - before;
  }

  /**
   * Copy-on-write: no value is cloned here. Cells unchanged since the last snapshot hand over
   * the snapshot cell made then; changed ones get a new snapshot cell sharing their value, and
   * are marked shared so the next read copies the value before the operator can mutate it.
   */
  snapshot(): KeyedStateSnapshot {
    const groups: SnapshotCell[][] = [];
    const maxParallelism = this.maxParallelism;
    for (const [state, table] of this.tables) {
      const kind = this.descriptors.get(state)?.kind ?? 'value';
      // forEach, unlike for-of over entries, allocates no [key, cell] pair per key.
      table.forEach((c, key) => {
        let f = c.f;
        if (!f) {
          f = c.f = { state, kind, key, value: toSnapshotValue(kind, c.v), touched: c.t, eventTime: c.et };
          c.s = true;
        }
        let g = c.g;
        if (g === undefined) g = c.g = keyGroupOf(key, maxParallelism);
        (groups[g] ??= []).push(f);
      });
    }
    for (const t of this.columnTables.values()) t.snapshotInto(groups, maxParallelism);
    const keyGroups: Record<number, SnapshotCell[]> = {};
    groups.forEach((cells, kg) => (keyGroups[kg] = cells));
    return { maxParallelism, keyGroups };
  }

  restore(snapshots: readonly KeyedStateSnapshot[], owns: (keyGroup: number) => boolean = () => true): void {
    // Tables are emptied in place: operators hold handles bound to them since open().
    this.hotTable = null;
    for (const t of this.tables.values()) t.clear();
    for (const t of this.columnTables.values()) t.clear();
    for (const snap of snapshots) {
      for (const [kgText, cells] of Object.entries(snap.keyGroups)) {
        if (!owns(Number(kgText))) continue;
        for (const cell of cells) {
          const columns = this.columnTables.get(cell.state);
          if (columns) {
            columns.adopt(cell.key, cell.value, cell.eventTime);
            continue;
          }
          let table = this.tables.get(cell.state);
          if (!table) this.tables.set(cell.state, (table = this.newTable(cell.state)));
          // Values stay shared with the snapshot (which may be restored again) until first read.
          table.set(cell.key, { v: fromSnapshotValue(cell.kind, cell.value), t: cell.touched, et: cell.eventTime, s: true });
        }
      }
    }
  }

  metrics(): StateMetrics {
    const perState: StateMetrics['perState'] = {};
    // One state means its keys are all the keys: skip the union set (100k inserts per call).
    const single = this.tables.size === 1;
    const allKeys = new Set<Key>();
    let total = 0;
    for (const [name, table] of this.tables) {
      let bytes = 0;
      let seen = 0;
      const sampleEvery = table.size > 20_000 ? Math.ceil(table.size / 5_000) : 1;
      if (single) {
        for (const [k, c] of table) if (seen++ % sampleEvery === 0) bytes += approxSize(k) + approxSize(c.v) + 24;
      } else
        for (const [k, c] of table) {
          allKeys.add(k);
          if (seen++ % sampleEvery === 0) bytes += approxSize(k) + approxSize(c.v) + 24;
        }
      bytes *= sampleEvery;
      perState[name] = { keys: table.size, approxBytes: bytes };
      total += bytes;
    }
    for (const [name, t] of this.columnTables) {
      const bytes = t.slots.size * t.approxBytesPerKey();
      perState[name] = { keys: t.slots.size, approxBytes: bytes };
      total += bytes;
    }
    const keyCount = this.columnTables.size === 0 ? (single ? [...this.tables.values()][0].size : allKeys.size) : this.unionKeyCount(allKeys, single);
    return { keyCount, approxBytes: total, ttlCleanups: this.ttlCleanups, perState };
  }

  private unionKeyCount(allKeys: Set<Key>, single: boolean): number {
    if (this.tables.size === 0 && this.columnTables.size === 1) return [...this.columnTables.values()][0].slots.size;
    if (single) for (const k of [...this.tables.values()][0].keys()) allKeys.add(k);
    for (const t of this.columnTables.values()) for (const k of t.slots.keys()) allKeys.add(k);
    return allKeys.size;
  }

  inspect(limit = 1000): { key: Key; states: Record<string, unknown>; eventTime: number | null }[] {
    const rows = new Map<Key, { key: Key; states: Record<string, unknown>; eventTime: number | null }>();
    for (const [name, table] of this.tables) {
      const kind = this.descriptors.get(name)?.kind;
      for (const [k, c] of table) {
        let r = rows.get(k);
        if (!r) {
          if (rows.size >= limit) continue;
          rows.set(k, (r = { key: k, states: {}, eventTime: c.et }));
        }
        r.states[name] = kind === 'list' ? (c.v as Entry<unknown>[]).map((e) => e.v) : kind === 'map' ? Object.fromEntries([...(c.v as Map<MapKey, Entry<unknown>>)].map(([mk, e]) => [String(mk), e.v])) : c.v;
        if (c.et !== null && (r.eventTime === null || c.et > r.eventTime)) r.eventTime = c.et;
      }
    }
    for (const [name, t] of this.columnTables) {
      t.slots.forEach((slot, k) => {
        let r = rows.get(k);
        const et = t.eventTime(slot);
        if (!r) {
          if (rows.size >= limit) return;
          rows.set(k, (r = { key: k, states: {}, eventTime: et }));
        }
        r.states[name] = t.value(slot, k);
        if (et !== null && (r.eventTime === null || et > r.eventTime)) r.eventTime = et;
      });
    }
    return [...rows.values()];
  }
}
