import type { Key } from '../../core/types.ts';
import { entryCells, entryCount, entryKey, type ChunkRecord } from './chunks.ts';
import type { BackendCore } from './core.ts';

/**
 * Moving keys between memory and disk. Only clean keys are evicted (their latest version is in
 * a chunk whose write completed); `prefetch` brings evicted keys of a batch back with one read
 * transaction, then evicts the least recently used clean keys down to the budget.
 */

/** Bounds the eviction scan per call, so a state full of dirty keys costs little per batch. */
const SCAN_LIMIT = 4096;

export async function prefetchKeys(core: BackendCore, keys: readonly Key[]): Promise<void> {
  const { tracker } = core.ws;
  const budgeted = Number.isFinite(core.memoryBudgetBytes);
  let missing: Key[] = [];
  for (const k of keys) {
    if (tracker.evicted.has(k)) missing.push(k);
    else if (budgeted) {
      tracker.recency.delete(k);
      tracker.recency.set(k, true);
    }
  }
  const epoch = core.epoch;
  // A key's chunk may be compacted away between reading `loc` and reading the chunk: retry once more.
  for (let attempt = 0; missing.length && attempt < 3; attempt++) {
    const byChunk = new Map<string, Set<Key>>();
    for (const k of new Set(missing)) {
      const id = core.layout.loc.get(k);
      if (id === undefined) throw new Error(`evicted key ${JSON.stringify(k)} has no chunk: state bookkeeping is broken`);
      let set = byChunk.get(id);
      if (!set) byChunk.set(id, (set = new Set()));
      set.add(k);
    }
    const ids = [...byChunk.keys()];
    const tx = core.db().transaction('chunks', 'readonly');
    const recs = await Promise.all(ids.map((id) => tx.store.get(id)));
    await tx.done;
    if (core.epoch !== epoch) return;
    for (const rec of recs) if (rec) loadWanted(core, rec, byChunk.get(rec.id)!);
    missing = missing.filter((k) => tracker.evicted.has(k));
  }
  if (missing.length) throw new Error(`could not load ${missing.length} evicted keys from IndexedDB "${core.store}" (their chunks are gone)`);
  if (budgeted) enforceBudget(core, new Set(keys));
}

function loadWanted(core: BackendCore, rec: ChunkRecord, wanted: Set<Key>): void {
  const { ws } = core;
  for (let i = 0, n = entryCount(rec); i < n; i++) {
    const key = entryKey(rec, i);
    // An evicted key cannot change, so any chunk holding its latest version is good, even if compaction moved `loc`.
    if (!wanted.has(key) || !ws.tracker.evicted.has(key)) continue;
    const cells = entryCells(rec, i);
    if (cells) ws.load(key, cells);
  }
}

/** Evicts clean, least recently used keys (never those in `protect`) until the estimate fits the budget. */
export function enforceBudget(core: BackendCore, protect: ReadonlySet<Key>): number {
  const { ws, layout } = core;
  const { tracker } = ws;
  let over = ws.residentBytes() - core.memoryBudgetBytes;
  let evicted = 0;
  let scanned = 0;
  for (const key of tracker.recency.keys()) {
    if (over <= 0 || ++scanned > SCAN_LIMIT) break;
    if (protect.has(key)) continue;
    const loc = layout.loc.get(key);
    if (tracker.dirty.has(key) || loc === undefined || layout.pending.has(loc) || tracker.isFrozen(key)) {
      // Not evictable until the next checkpoint lands: look at it again later, not first.
      tracker.recency.delete(key);
      tracker.recency.set(key, true);
      continue;
    }
    if (!ws.isResident(key)) {
      tracker.recency.delete(key);
      continue;
    }
    over -= ws.evict(key);
    evicted++;
  }
  return evicted;
}
