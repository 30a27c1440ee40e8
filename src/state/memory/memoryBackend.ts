import type { Key } from '../../engine/types.ts';
import { DEFAULT_MAX_PARALLELISM, keyGroupOf } from '../../engine/keys.ts';
import type {
  AggregatingDescriptor,
  AggregatingState,
  AnyDescriptor,
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

/** A cell per (state, key). List and map cells hold per-entry timestamps so TTL can expire entries one by one. */
export interface Cell {
  v: unknown;
  t: number;
  et: number | null;
}
export interface Entry<T> {
  v: T;
  t: number;
}

/** The heap backend, like Flink's HashMapStateBackend: plain maps, copied on snapshot. */
export class MemoryStateBackend implements KeyedStateBackend {
  private key: Key = null;
  protected readonly tables = new Map<string, Map<Key, Cell>>();
  protected readonly descriptors = new Map<string, AnyDescriptor>();
  private readonly handles = new Map<string, unknown>();
  private ttlCleanups = 0;

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

  /** Reads a whole-value cell, expiring it if its TTL ran out. */
  private live(table: Map<Key, Cell>, ttl: TtlConfig | undefined): Cell | undefined {
    const c = table.get(this.key);
    if (!c || !ttl) return c;
    const now = ttlNow(ttl, this.time);
    if (isExpired(ttl, c.t, now)) {
      table.delete(this.key);
      this.ttlCleanups++;
      return undefined;
    }
    if (ttl.update === 'onReadAndWrite') {
      c.t = now;
      this.changed(c);
    }
    return c;
  }

  private write(table: Map<Key, Cell>, ttl: TtlConfig | undefined, v: unknown): void {
    const t = ttlNow(ttl, this.time);
    const et = this.time.eventTime();
    const c = table.get(this.key);
    if (c) {
      c.v = v;
      c.t = t;
      c.et = Number.isFinite(et) ? et : c.et;
      this.changed(c);
    } else {
      table.set(this.key, { v, t, et: Number.isFinite(et) ? et : null });
    }
  }

  value<T>(d: ValueDescriptor<T>): ValueState<T> {
    return this.cached(d, (table) => ({
      value: () => this.live(table, d.ttl)?.v as T | undefined,
      update: (v: T) => (v === undefined || v === null ? void table.delete(this.key) : this.write(table, d.ttl, v)),
      clear: () => void table.delete(this.key),
    }));
  }

  reducing<T>(d: ReducingDescriptor<T>): ReducingState<T> {
    return this.cached(d, (table) => ({
      get: () => this.live(table, d.ttl)?.v as T | undefined,
      add: (x: T) => {
        const c = this.live(table, d.ttl);
        this.write(table, d.ttl, c === undefined ? x : d.reduce(c.v as T, x));
      },
      clear: () => void table.delete(this.key),
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
      clear: () => void table.delete(this.key),
    }));
  }

  /** Live entries of a list or map cell; expired ones are removed and counted. */
  private liveEntries<T>(table: Map<Key, Cell>, ttl: TtlConfig | undefined, entries: Entry<T>[] | Map<MapKey, Entry<T>>): void {
    if (!ttl) return;
    const now = ttlNow(ttl, this.time);
    if (Array.isArray(entries)) {
      if (ttl.update === 'onReadAndWrite') this.changed();
      let w = 0;
      for (const e of entries) {
        if (isExpired(ttl, e.t, now)) this.ttlCleanups++;
        else {
          if (ttl.update === 'onReadAndWrite') e.t = now;
          entries[w++] = e;
        }
      }
      if (w !== entries.length) this.changed();
      entries.length = w;
      if (w === 0) table.delete(this.key);
    } else {
      for (const [k, e] of entries) {
        if (isExpired(ttl, e.t, now)) {
          entries.delete(k);
          this.ttlCleanups++;
          this.changed();
        }
      }
      if (entries.size === 0) table.delete(this.key);
    }
  }

  list<T>(d: ListDescriptor<T>): ListState<T> {
    const entriesOf = (table: Map<Key, Cell>): Entry<T>[] | undefined => {
      const c = table.get(this.key);
      if (!c) return undefined;
      this.liveEntries(table, d.ttl, c.v as Entry<T>[]);
      return table.has(this.key) ? (c.v as Entry<T>[]) : undefined;
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
        if (values.length === 0) table.delete(this.key);
        else {
          const t = ttlNow(d.ttl, this.time);
          this.write(table, undefined, values.map((v) => ({ v, t })));
        }
      },
      clear: () => void table.delete(this.key),
    }));
  }

  map<K extends MapKey, V>(d: MapDescriptor<K, V>): MapState<K, V> {
    const entriesOf = (table: Map<Key, Cell>): Map<K, Entry<V>> | undefined => {
      const c = table.get(this.key);
      if (!c) return undefined;
      this.liveEntries(table, d.ttl, c.v as Map<MapKey, Entry<V>>);
      return table.has(this.key) ? (c.v as Map<K, Entry<V>>) : undefined;
    };
    return this.cached(d, (table) => ({
      get: (k: K) => entriesOf(table)?.get(k)?.v,
      put: (k: K, v: V) => {
        const m = entriesOf(table) ?? new Map<K, Entry<V>>();
        m.set(k, { v, t: ttlNow(d.ttl, this.time) });
        this.write(table, undefined, m);
      },
      remove: (k: K) => {
        const m = entriesOf(table);
        if (!m) return;
        if (m.delete(k)) this.changed();
        if (m.size === 0) table.delete(this.key);
      },
      contains: (k: K) => entriesOf(table)?.has(k) ?? false,
      entries: () => [...(entriesOf(table) ?? new Map<K, Entry<V>>())].map(([k, e]) => [k, e.v] as [K, V]),
      keys: () => [...(entriesOf(table)?.keys() ?? [])],
      size: () => entriesOf(table)?.size ?? 0,
      isEmpty: () => (entriesOf(table)?.size ?? 0) === 0,
      clear: () => void table.delete(this.key),
    }));
  }

  keys(stateName: string): Key[] {
    const table = this.tables.get(stateName);
    if (!table) return [];
    const d = this.descriptors.get(stateName);
    if (!d?.ttl) return [...table.keys()];
    const saved = this.key;
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
      this.liveEntries(table, d.ttl, c.v as Entry<unknown>[]);
      return table.get(this.key)?.v;
    }
    const c = table.get(this.key);
    if (c && d.ttl && isExpired(d.ttl, c.t, ttlNow(d.ttl, this.time))) {
      table.delete(this.key);
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

  snapshot(): KeyedStateSnapshot {
    const keyGroups: Record<number, SnapshotCell[]> = {};
    for (const [state, table] of this.tables) {
      const kind = this.descriptors.get(state)?.kind;
      for (const [key, c] of table) {
        const kg = keyGroupOf(key, this.maxParallelism);
        (keyGroups[kg] ??= []).push({ state, kind: kind ?? 'value', key, value: structuredClone(toSnapshotValue(kind, c.v)), touched: c.t, eventTime: c.et });
      }
    }
    return { maxParallelism: this.maxParallelism, keyGroups };
  }

  restore(snapshots: readonly KeyedStateSnapshot[], owns: (keyGroup: number) => boolean = () => true): void {
    // Tables are emptied in place: operators hold handles bound to them since open().
    for (const t of this.tables.values()) t.clear();
    for (const snap of snapshots) {
      for (const [kgText, cells] of Object.entries(snap.keyGroups)) {
        if (!owns(Number(kgText))) continue;
        for (const cell of cells) {
          let table = this.tables.get(cell.state);
          if (!table) this.tables.set(cell.state, (table = this.newTable(cell.state)));
          table.set(cell.key, { v: fromSnapshotValue(cell.kind, structuredClone(cell.value)), t: cell.touched, et: cell.eventTime });
        }
      }
    }
  }

  metrics(): StateMetrics {
    const perState: StateMetrics['perState'] = {};
    const allKeys = new Set<Key>();
    let total = 0;
    for (const [name, table] of this.tables) {
      let bytes = 0;
      let seen = 0;
      const sampleEvery = table.size > 20_000 ? Math.ceil(table.size / 5_000) : 1;
      for (const [k, c] of table) {
        allKeys.add(k);
        if (seen++ % sampleEvery === 0) bytes += approxSize(k) + approxSize(c.v) + 24;
      }
      bytes *= sampleEvery;
      perState[name] = { keys: table.size, approxBytes: bytes };
      total += bytes;
    }
    return { keyCount: allKeys.size, approxBytes: total, ttlCleanups: this.ttlCleanups, perState };
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
    return [...rows.values()];
  }
}

/** Snapshots store lists as [value, touched] pairs and maps as [key, value, touched] triples (not cloned here). */
export function toSnapshotValue(kind: StateKind | undefined, v: unknown): unknown {
  if (kind === 'list') return (v as Entry<unknown>[]).map((e) => [e.v, e.t]);
  if (kind === 'map') return [...(v as Map<MapKey, Entry<unknown>>)].map(([k, e]) => [k, e.v, e.t]);
  return v;
}

/** The inverse of `toSnapshotValue`; takes ownership of `v` (clone it first if it is shared). */
export function fromSnapshotValue(kind: StateKind, v: unknown): unknown {
  if (kind === 'list') return (v as [unknown, number][]).map(([x, t]) => ({ v: x, t }));
  if (kind === 'map') return new Map((v as [MapKey, unknown, number][]).map(([k, x, t]) => [k, { v: x, t }]));
  return v;
}
