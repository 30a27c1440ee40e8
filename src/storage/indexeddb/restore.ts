import type { ChunkRef, KeyedStateHandle } from '../../state/snapshotHandles.ts';
import type { KeyedStateSnapshot, SnapshotCell } from '../../state/backend.ts';
import { entryCells, entryCount, entryKey, entryLive, forEachLatest, mergeChunks, refsByKeyGroup, type ChunkRecord } from './chunks.ts';
import { raiseSerialFromDisk, type BackendCore } from './core.ts';
import { batchesOf, readChunks } from './compaction.ts';

/** How many entries one read transaction of a restore brings in. */
const RESTORE_BATCH_ENTRIES = 200_000;

/**
 * Loads the chunk handles' key groups that `owns` accepts (several handles when rescaling).
 * Keys are loaded as clean state until the memory budget is reached; the rest are registered
 * as evicted, so `prefetch` fetches them when a batch needs them. The layout adopts the
 * handles' chunks, so the next incremental checkpoint refers to them instead of rewriting.
 */
export async function restoreChunkHandles(core: BackendCore, handles: readonly KeyedStateHandle[], owns: (kg: number) => boolean): Promise<void> {
  for (const h of handles) {
    if (h.type === 'chunks' && h.store !== core.store) {
      throw new Error(`cannot restore chunks of IndexedDB "${h.store}" into "${core.store}": a job's state lives in its own namespace`);
    }
  }
  const epoch = core.epoch;
  let resident = core.ws.residentBytes();
  const load = (batch: [number, ChunkRef[]][], recs: Map<string, ChunkRecord>) => {
    if (core.epoch !== epoch) throw new Error('state restore was superseded by another restore');
    for (const [kg, refs] of batch) {
      const chunks = refs.map((r) => recs.get(r.id)!);
      if (!Number.isFinite(core.memoryBudgetBytes)) {
        applyInOrder(core, chunks);
        core.layout.setGroup(kg, refs);
        continue;
      }
      const perEntry = refs.map((r) => r.bytes / Math.max(1, r.entries));
      let sampled = 0;
      forEachLatest(chunks, (c, i) => {
        const rec = chunks[c];
        const key = entryKey(rec, i);
        core.layout.loc.set(key, rec.id);
        if (sampled < 64) {
          sampled++;
          core.ws.learnSizes(entryCells(rec, i)!);
        }
        if (resident < core.memoryBudgetBytes) {
          core.ws.loadEntry(key, rec, i);
          resident += perEntry[c];
        } else core.ws.markEvicted(key, entryCells(rec, i)!);
      });
      core.layout.setGroup(kg, refs);
    }
  };
  // The next batch is read while this one loads: the database reads and this thread decodes at the same time.
  let reading: Promise<Map<string, ChunkRecord>> | null = null;
  let pending: [number, ChunkRef[]][] | null = null;
  for (const batch of batchesOf(refsByKeyGroup(handles, owns), RESTORE_BATCH_ENTRIES)) {
    const next = readChunks(core, batch.flatMap(([, refs]) => refs));
    next.catch(() => {}); // awaited below; a failure while the previous batch loads must not go unhandled
    if (reading && pending) load(pending, await reading);
    reading = next;
    pending = batch;
  }
  if (reading && pending) load(pending, await reading);
  await raiseSerialFromDisk(core);
}

/**
 * Loads a key group's chunks (oldest first) when every key stays resident: each entry goes
 * straight into the tables, a later one replacing the key's cells and a tombstone dropping
 * them. Without a budget nothing needs each key's latest entry up front, so the index of
 * latest entries `forEachLatest` builds (a map insert per entry) is skipped.
 */
function applyInOrder(core: BackendCore, chunks: readonly ChunkRecord[]): void {
  const { loc } = core.layout;
  const { ws } = core;
  let sampled = 0;
  for (const rec of chunks) {
    for (let i = 0, n = entryCount(rec); i < n; i++) {
      const key = entryKey(rec, i);
      // Keys belong to one key group and the layout was cleared by the restore: a key in `loc` came from an older chunk here.
      if (loc.has(key)) ws.forget(key);
      if (!entryLive(rec, i)) {
        loc.delete(key);
        continue;
      }
      loc.set(key, rec.id);
      if (sampled < 64) {
        sampled++;
        ws.learnSizes(entryCells(rec, i)!);
      }
      ws.loadEntry(key, rec, i);
    }
  }
}

/** Reads a chunk handle into a heap snapshot (the memory backend's format: the cell encodings are the same). */
export async function chunksToSnapshot(core: BackendCore, handle: KeyedStateHandle): Promise<KeyedStateSnapshot> {
  const keyGroups: Record<number, SnapshotCell[]> = {};
  const groups = refsByKeyGroup([handle]);
  const recs = await readChunks(core, [...groups.values()].flat());
  for (const [kg, refs] of groups) {
    const cells: SnapshotCell[] = [];
    for (const [key, m] of mergeChunks(refs.map((r) => recs.get(r.id)!))) {
      for (const [state, kind, value, touched, eventTime] of m.cells) cells.push({ state, kind, key, value, touched, eventTime });
    }
    if (cells.length) keyGroups[kg] = cells;
  }
  return { maxParallelism: core.maxParallelism, keyGroups };
}
