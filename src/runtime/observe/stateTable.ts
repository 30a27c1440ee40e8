import type { Key } from '../../core/types.ts';
import type { SubtaskRunner } from '../subtaskRunner.ts';
import type { ObserveRequest, StateRow, StateTable } from './types.ts';
import type { ObservableBackend, ObservedTable } from './stateSource.ts';
import type { Cell } from '../../state/memory/memoryBackend.ts';
import { cellValue, compareKeys, compareValues, isObservable, ttlRemaining } from './stateSource.ts';
import { FirstK } from './select.ts';

/** States with more keys than this re-sort by value at most every STALE_FRAMES + 1 frames. */
const BIG_STATE = 20_000;
const STALE_FRAMES = 3;

interface Candidate {
  key: Key;
  part: number;
  sortValue: SortValue;
}

type SortValue = number | string | boolean | null | undefined;

interface Part {
  runner: SubtaskRunner;
  backend: ObservableBackend;
  tables: ObservedTable[];
}

/**
 * The virtualized state table: one pass over the keys to filter, count and pick the window
 * (a linear-time first-k selection when sorting), then full rows only for the window. The ordering is reused
 * while neither the request nor the state changed (a paused job costs only the window).
 */
export class StateTableObserver {
  /** Each backend's write serial at the previous frame: rows written after it are `changed`. */
  private seen = new WeakMap<ObservableBackend, number>();
  private cache: { sig: string; request: string; parts: ObservableBackend[]; ordered: Candidate[]; total: number; age: number } | null = null;

  observe(node: string, runners: readonly SubtaskRunner[], req: ObserveRequest): StateTable {
    const parts: Part[] = [];
    for (const r of runners) {
      if (req.subtask !== null && r.index !== req.subtask) continue;
      const b = r.task?.state;
      if (b && isObservable(b)) parts.push({ runner: r, backend: b, tables: b.observeTables() });
    }
    const descriptors = [...new Set(parts.flatMap((p) => p.tables.map((t) => t.name)))].sort();
    // Key order and search depend only on which keys exist; other sorts on the values too.
    const byKeysOnly = !req.sort || req.sort.column === 'key';
    const versions = parts.map((p) => (byKeysOnly ? p.backend.keySetVersion() : p.backend.mutations()) + ':' + p.tables.map((t) => t.table.size).join(','));
    const request = JSON.stringify([node, req.subtask, req.search, req.sort, req.pinned, req.stateOffset, req.stateLimit]);
    const sig = request + JSON.stringify(versions);
    const c = this.cache;
    const sameParts = c !== null && c.parts.length === parts.length && c.parts.every((b, i) => b === parts[i].backend);
    // A big state sorted by its values re-sorts every few frames while it changes; rows stay fresh.
    const reuse = c !== null && sameParts && c.request === request && (c.sig === sig || (!byKeysOnly && c.total > BIG_STATE && c.age < STALE_FRAMES));
    const { ordered, total } = reuse ? c : this.order(parts, req);
    if (reuse) c.age++;
    else this.cache = { sig, request, parts: parts.map((p) => p.backend), ordered, total, age: 0 };
    const rows = ordered.slice(req.stateOffset, req.stateOffset + req.stateLimit).map((x) => this.row(parts[x.part], x.key));
    for (const p of parts) this.seen.set(p.backend, p.backend.mutations());
    return { node, descriptors, total, offset: req.stateOffset, rows };
  }

  /**
   * Rows written from now on show as `changed`, as if a frame had shown these subtasks now: a
   * replay to an earlier point marks each node where the run's own frames last showed it.
   */
  markSeen(runners: readonly SubtaskRunner[]): void {
    for (const r of runners) {
      const b = r.task?.state;
      if (b && isObservable(b)) this.seen.set(b, b.mutations());
    }
  }

  /** Pinned keys, then the first offset + limit of the rest in the requested order. */
  private order(parts: Part[], req: ObserveRequest): { ordered: Candidate[]; total: number } {
    const pinned = this.pinned(parts, req.pinned);
    // Keys are primitives, so a Set per subtask finds pinned ones without building strings.
    const pinnedKeys = parts.map((_, pi) => new Set(pinned.filter((c) => c.part === pi).map((c) => c.key)));
    const want = Math.max(0, req.stateOffset + req.stateLimit - pinned.length);
    const sortBy = sorter(req.sort);
    const search = req.search.toLowerCase();
    const firstOnes: Candidate[] = [];
    const top = sortBy ? new FirstK<Candidate>(want, sortBy.cmp) : null;
    const probe: Candidate = { key: null, part: 0, sortValue: undefined };
    let total = 0;
    if (!sortBy && !search) {
      // Insertion order: count by table size and read only the first `want` keys.
      parts.forEach((p, pi) => {
        const pins = pinnedKeys[pi];
        if (p.tables.length !== 1) {
          forEachKey(p.tables, (key) => {
            if (pins.has(key)) return;
            total++;
            if (firstOnes.length < want) firstOnes.push({ key, part: pi, sortValue: undefined });
          });
          return;
        }
        total += p.tables[0].table.size - pins.size;
        for (const key of p.tables[0].table.keys()) {
          if (firstOnes.length >= want) break;
          if (!pins.has(key)) firstOnes.push({ key, part: pi, sortValue: undefined });
        }
      });
      return { ordered: [...pinned, ...firstOnes], total: total + pinned.length };
    }
    parts.forEach((p, pi) => {
      const pins = pinnedKeys[pi];
      forEachKey(p.tables, (key, first) => {
        if (search && !String(key).toLowerCase().includes(search)) return;
        if (pins.size && pins.has(key)) return;
        total++;
        if (!top) {
          if (firstOnes.length < want) firstOnes.push({ key, part: pi, sortValue: undefined });
          return;
        }
        // Most keys fall past the bound: test with a reused probe before allocating.
        probe.key = key;
        probe.part = pi;
        probe.sortValue = sortBy!.value(p.tables, key, first);
        if (top.wants(probe)) top.offer({ key, part: pi, sortValue: probe.sortValue });
      });
    });
    return { ordered: [...pinned, ...(top ? top.sorted() : firstOnes)], total: total + pinned.length };
  }

  private pinned(parts: Part[], pinned: readonly string[]): Candidate[] {
    const out: Candidate[] = [];
    for (const text of pinned) {
      let key: Key;
      try {
        key = JSON.parse(text) as Key;
      } catch {
        continue; // A pin from an older state shape; it simply matches nothing.
      }
      parts.forEach((p, part) => {
        if (p.tables.some((t) => t.table.has(key))) out.push({ key, part, sortValue: undefined });
      });
    }
    return out;
  }

  private row(p: Part, key: Key): StateRow {
    const states: Record<string, unknown> = {};
    const ttlMs: Record<string, number | null> = {};
    let updatedAt: number | null = null;
    let lastWrite = 0;
    for (const t of p.tables) {
      const c = t.table.get(key);
      if (!c) continue;
      states[t.name] = cellValue(t.kind, c);
      ttlMs[t.name] = t.ttl ? ttlRemaining(t, c, p.backend.ttlClock(t.ttl)) : null;
      if (c.u !== undefined && (updatedAt === null || c.u > updatedAt)) updatedAt = c.u;
      if (c.w !== undefined && c.w > lastWrite) lastWrite = c.w;
    }
    const before = this.seen.get(p.backend);
    return { key, keyText: JSON.stringify(key), states, ttlMs, updatedAt, subtask: p.runner.index, changed: before !== undefined && lastWrite > before };
  }
}

type Cmp = (a: Candidate, b: Candidate) => number;

/** Every key once, across the node's states (a key in several states is visited for the first). */
function forEachKey(tables: ObservedTable[], visit: (key: Key, first: Cell) => void): void {
  tables.forEach((t, i) => {
    if (i === 0) {
      for (const [key, c] of t.table) visit(key, c);
      return;
    }
    for (const [key, c] of t.table) {
      let earlier = false;
      for (let j = 0; j < i && !earlier; j++) earlier = tables[j].table.has(key);
      if (!earlier) visit(key, c);
    }
  });
}

interface Sorter {
  value: (tables: ObservedTable[], key: Key, first: Cell) => SortValue;
  cmp: Cmp;
}

function sorter(sort: ObserveRequest['sort']): Sorter | null {
  if (!sort) return null;
  const dir = sort.dir === 'desc' ? -1 : 1;
  const tie = (a: Candidate, b: Candidate) => compareKeys(a.key, b.key) || a.part - b.part;
  const make = (value: Sorter['value'], primary: (a: SortValue, b: SortValue) => number): Sorter => ({ value, cmp: (a, b) => primary(a.sortValue, b.sortValue) || dir * tie(a, b) });
  if (sort.column === 'key') return make(() => undefined, () => 0);
  if (sort.column === 'updated') {
    return make(
      (tables, key, first) => {
        if (tables.length === 1) return first.u ?? -Infinity;
        let u = -Infinity;
        for (const t of tables) {
          const c = t.table.get(key);
          if (c?.u !== undefined && c.u > u) u = c.u;
        }
        return u;
      },
      (a, b) => dir * ((a as number) - (b as number)),
    );
  }
  const column = sort.column;
  return make(
    (tables, key) => {
      const t = tables.find((x) => x.name === column);
      const c = t?.table.get(key);
      if (!c || !t) return undefined;
      const v = t.kind === 'list' || t.kind === 'map' ? cellValue(t.kind, c) : c.v;
      // Structured values compare by their JSON text, computed once per key rather than per comparison.
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : (v as SortValue);
    },
    (a, b) => dir * compareValues(a, b),
  );
}
