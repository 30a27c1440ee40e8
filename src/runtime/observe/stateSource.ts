import type { Key } from '../../core/types.ts';
import type { KeyedStateBackend } from '../../state/backend.ts';
import type { StateKind, TtlConfig } from '../../state/descriptors.ts';
import type { Cell } from '../../state/memory/memoryBackend.ts';

export interface ObservedTable {
  name: string;
  kind: StateKind;
  ttl: TtlConfig | undefined;
  table: ReadonlyMap<Key, Cell>;
}

/** What the heap backend (and its durable subclass) offers the observatory; see MemoryStateBackend. */
export interface ObservableBackend extends KeyedStateBackend {
  observeTables(): ObservedTable[];
  ttlClock(ttl: TtlConfig): number;
  mutations(): number;
  keySetVersion(): number;
  ttlCleanupCount(): number;
  /** From now on, record each write's time and serial also where a state keeps them only on demand. */
  watchWrites?(): void;
}

export const isObservable = (b: KeyedStateBackend): b is ObservableBackend => typeof (b as Partial<ObservableBackend>).observeTables === 'function';

/** Decodes a raw cell into what the table shows: lists as arrays, maps as objects. */
export function cellValue(kind: StateKind, c: Cell): unknown {
  if (kind === 'list') return (c.v as { v: unknown }[]).map((e) => e.v);
  if (kind === 'map') return Object.fromEntries([...(c.v as Map<unknown, { v: unknown }>)].map(([k, e]) => [String(k), e.v]));
  return c.v;
}

/** Time left before the cell (or its oldest list/map entry) expires. */
export function ttlRemaining(t: ObservedTable, c: Cell, now: number): number | null {
  if (!t.ttl) return null;
  let touched = c.t;
  // List and map entries expire one by one: the oldest one goes first.
  if (t.kind === 'list' || t.kind === 'map') {
    let oldest = Infinity;
    const entries = t.kind === 'list' ? (c.v as { t: number }[]) : (c.v as Map<unknown, { t: number }>).values();
    for (const e of entries) oldest = Math.min(oldest, e.t);
    if (Number.isFinite(oldest)) touched = oldest;
  }
  return Math.max(0, t.ttl.ttlMs - (now - touched));
}

/** Keys first by type (null, boolean, number, string), then by value. */
export function compareKeys(a: Key, b: Key): number {
  if (typeof a === typeof b && (typeof a === 'string' || typeof a === 'number')) return a! < b! ? -1 : a! > b! ? 1 : 0;
  const ta = typeRank(a);
  const tb = typeRank(b);
  if (ta !== tb) return ta - tb;
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

const typeRank = (v: unknown): number => (v === null || v === undefined ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : 3);

/** Orders state values: numbers and strings naturally, anything else by its JSON text. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = valueRank(a);
  const rb = valueRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 4) {
    const ja = JSON.stringify(a);
    const jb = JSON.stringify(b);
    return ja < jb ? -1 : ja > jb ? 1 : 0;
  }
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

const valueRank = (v: unknown): number => (v === undefined ? -1 : v === null ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : typeof v === 'string' ? 3 : 4);
