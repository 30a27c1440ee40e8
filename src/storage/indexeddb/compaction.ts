import type { ChunkRef, KeyedStateHandle } from '../../state/snapshotHandles.ts';
import type { PersistResult } from '../../state/backend.ts';
import { buildChunks, mergeChunks, type ChunkEntry, type ChunkRecord } from './chunks.ts';
import type { ColumnarChunk } from './columnarChunk.ts';
import { withRewriteLock, type BackendCore } from './core.ts';
import { storageError } from './errors.ts';

/** How many entries a rewrite reads at once: bounds its memory on large states. */
const REWRITE_BATCH_ENTRIES = 100_000;

/**
 * Reads chunks in one transaction. Chunk ids of a subtask sort by serial, and a checkpoint's
 * chunks are mostly consecutive serials (a persist numbers its chunks in a row): each run of
 * consecutive serials is read with one `getAll` over its id range, one request instead of one
 * per chunk, and no chunk outside the wanted ones is read.
 */
export async function readChunks(core: BackendCore, refs: readonly ChunkRef[]): Promise<Map<string, ChunkRecord>> {
  const tx = core.db().transaction('chunks', 'readonly');
  const wanted = new Set(refs.map((r) => r.id));
  const reads: Promise<ChunkRecord | ChunkRecord[] | undefined>[] = [];
  for (const run of consecutiveRuns([...wanted])) {
    if (run.length > 2) reads.push(tx.store.getAll(IDBKeyRange.bound(run[0], run[run.length - 1])));
    else for (const id of run) reads.push(tx.store.get(id));
  }
  const got = await Promise.all(reads);
  await tx.done;
  const out = new Map<string, ChunkRecord>();
  for (const g of got) {
    if (Array.isArray(g)) {
      for (const rec of g) if (wanted.has(rec.id)) out.set(rec.id, rec);
    } else if (g) out.set(g.id, g);
  }
  for (const r of refs) {
    if (!out.has(r.id)) throw new Error(`state chunk ${r.id} is missing from IndexedDB "${core.store}": the checkpoint that refers to it is damaged`);
  }
  return out;
}

/** Ids grouped per subtask prefix into runs of consecutive serials (ids of another shape stand alone). */
function consecutiveRuns(ids: readonly string[]): string[][] {
  const parsed = ids.map((id) => {
    const at = id.lastIndexOf('~');
    return { id, prefix: id.slice(0, at + 1), serial: at < 0 ? NaN : Number(id.slice(at + 1)) };
  });
  const runs: string[][] = parsed.filter((p) => !Number.isInteger(p.serial)).map((p) => [p.id]);
  const ok = parsed.filter((p) => Number.isInteger(p.serial)).sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : a.serial - b.serial));
  let run: string[] = [];
  ok.forEach((p, i) => {
    const prev = ok[i - 1];
    if (run.length && !(prev.prefix === p.prefix && prev.serial + 1 === p.serial)) {
      runs.push(run);
      run = [];
    }
    run.push(p.id);
  });
  if (run.length) runs.push(run);
  return runs;
}

/** Key groups in batches of about `maxEntries` entries: what one read transaction brings in. */
export function* batchesOf(groups: Map<number, ChunkRef[]>, maxEntries: number): Generator<[number, ChunkRef[]][]> {
  let batch: [number, ChunkRef[]][] = [];
  let size = 0;
  for (const g of groups) {
    batch.push(g);
    size += g[1].reduce((n, r) => n + r.entries, 0);
    if (size >= maxEntries) {
      yield batch;
      batch = [];
      size = 0;
    }
  }
  if (batch.length) yield batch;
}

/**
 * Merges each group's chunks (oldest first, so tombstones can be dropped) into fresh chunks,
 * writes them in new records (referenced chunks are never mutated) and swaps them in for the
 * same prefix of the layout. The caller holds the rewrite lock.
 */
async function rewriteGroups(core: BackendCore, groups: Map<number, ChunkRef[]>, writtenBy: number | null): Promise<Map<number, ChunkRef[]>> {
  const { layout } = core;
  const epoch = core.epoch;
  const out = new Map<number, ChunkRef[]>();
  for (const batch of batchesOf(groups, REWRITE_BATCH_ENTRIES)) {
    const recs = await readChunks(core, batch.flatMap(([, refs]) => refs));
    const written: { kg: number; old: ChunkRef[]; records: ColumnarChunk[]; refs: ChunkRef[] }[] = [];
    for (const [kg, old] of batch) {
      const merged = mergeChunks(old.map((r) => recs.get(r.id)!));
      const entries: ChunkEntry[] = [...merged].map(([key, m]) => [key, m.cells]);
      const by = writtenBy ?? Math.max(...old.map((r) => r.writtenBy));
      written.push({ kg, old, ...buildChunks(kg, entries, core.chunkEntries, by, () => layout.nextId()) });
    }
    const tx = core.db().transaction('chunks', 'readwrite', { durability: 'strict' });
    for (const w of written) for (const r of w.records) tx.store.put(r, r.id).catch(() => {});
    try {
      await tx.done;
    } catch (e) {
      throw storageError(e, 'rewriting state chunks');
    }
    for (const w of written) {
      for (const r of w.refs) layout.known.add(r.id);
      out.set(w.kg, w.refs);
      if (core.epoch !== epoch || !layout.replacePrefix(w.kg, w.old.map((r) => r.id), w.refs)) continue;
      // Keys whose latest version was in a merged chunk now live in the new one.
      for (const rec of w.records) {
        for (const key of rec.keys) {
          const was = layout.loc.get(key);
          if (was !== undefined && w.old.some((r) => r.id === was)) layout.loc.set(key, rec.id);
        }
      }
    }
  }
  return out;
}

/** A full checkpoint: the whole state as fresh chunks written by `checkpointId`. */
export function rewriteAll(core: BackendCore, chunks: readonly ChunkRef[], checkpointId: number): Promise<PersistResult> {
  return withRewriteLock(core, async () => {
    const groups = new Map<number, ChunkRef[]>();
    for (const r of chunks) {
      let list = groups.get(r.keyGroup);
      if (!list) groups.set(r.keyGroup, (list = []));
      list.push(r);
    }
    const fresh = [...(await rewriteGroups(core, groups, checkpointId))].sort((a, b) => a[0] - b[0]).flatMap(([, refs]) => refs);
    const bytes = fresh.reduce((n, r) => n + r.bytes, 0);
    // Registered before the lock is released, so a collection cannot delete them before the checkpoint commits.
    core.recentHandles.push({ checkpointId, ids: new Set(fresh.map((r) => r.id)) });
    return { handle: { type: 'chunks', store: core.store, chunks: fresh }, fullBytes: bytes, writtenBytes: bytes };
  });
}

/**
 * Compacts key groups whose chain of chunks got long (more than `maxChunksPerKeyGroup`) or
 * mostly dead (under half the entries are a key's latest version: overwritten or deleted keys),
 * when merging makes the chain shorter. A restore then reads fewer, fuller chunks.
 */
export function compact(core: BackendCore): Promise<number> {
  return withRewriteLock(core, async () => {
    const liveByChunk = new Map<string, number>();
    for (const id of core.layout.loc.values()) liveByChunk.set(id, (liveByChunk.get(id) ?? 0) + 1);
    const groups = new Map<number, ChunkRef[]>();
    for (const kg of core.layout.keyGroups()) {
      const prefix = core.layout.confirmedPrefix(kg);
      const entries = prefix.reduce((n, r) => n + r.entries, 0);
      const live = prefix.reduce((n, r) => n + (liveByChunk.get(r.id) ?? 0), 0);
      const long = prefix.length > core.maxChunksPerKeyGroup && Math.ceil(entries / core.chunkEntries) < prefix.length;
      const mostlyDead = prefix.length > 1 && live * 2 < entries && Math.ceil(live / core.chunkEntries) < prefix.length;
      if (long || mostlyDead) groups.set(kg, prefix);
    }
    if (groups.size) await rewriteGroups(core, groups, null);
    return groups.size;
  });
}

/**
 * Deletes the chunks this backend knows of that nothing needs any more: not in its layout,
 * not being written, not in a retained handle and not in a recent handle whose checkpoint may
 * still complete. `retained` should be every retained handle of the operator (all subtasks).
 */
export function collectGarbage(core: BackendCore, retained: readonly KeyedStateHandle[]): Promise<number> {
  return withRewriteLock(core, async () => {
    const { layout } = core;
    const referenced = new Set<string>();
    for (const h of retained) {
      if (h.type !== 'chunks' || h.store !== core.store) continue;
      for (const r of h.chunks) {
        referenced.add(r.id);
        // A chunk of a group we own is ours to delete once nothing retains it.
        if (core.owns(r.keyGroup)) layout.known.add(r.id);
      }
    }
    // Recent handles up to the newest retained one are settled: completed and retained, or dropped.
    const settled = Math.max(-Infinity, ...core.recentHandles.filter((h) => [...h.ids].every((id) => referenced.has(id))).map((h) => h.checkpointId));
    core.recentHandles = core.recentHandles.filter((h) => h.checkpointId > settled);
    const keep = layout.ids();
    for (const id of layout.pending) keep.add(id);
    for (const h of core.recentHandles) for (const id of h.ids) keep.add(id);
    const garbage = [...layout.known].filter((id) => !referenced.has(id) && !keep.has(id));
    if (!garbage.length) return 0;
    const tx = core.db().transaction('chunks', 'readwrite');
    for (const id of garbage) tx.store.delete(id).catch(() => {});
    await tx.done;
    for (const id of garbage) layout.known.delete(id);
    return garbage.length;
  });
}
