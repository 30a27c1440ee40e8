import type { IDBPTransaction } from 'idb';
import type { Key } from '../../core/types.ts';
import type { ChunkRef } from '../../state/snapshotHandles.ts';
import type { PersistResult } from '../../state/backend.ts';
import { entryCells, type StateChunksDb } from './chunks.ts';
import { cellsEnd, cellsStart, ColumnarChunkBuilder } from './columnarChunk.ts';
import type { BackendCore } from './core.ts';
import { storageError } from './errors.ts';
import { rewriteAll } from './compaction.ts';
import { Freeze, type DirtyKeys } from './trackedTable.ts';

const RECENT_HANDLES_KEPT = 64;
/** Entries per write transaction when a checkpoint is written in slices. */
const SLICE_ENTRIES = 4096;
/** Slice transactions issued and not yet committed before the writer waits for the oldest. */
const SLICES_IN_FLIGHT = 2;

type ChunkTx = IDBPTransaction<StateChunksDb, ['chunks'], 'readwrite'>;

interface Written {
  refs: ChunkRef[];
  tombstones: [Key, string][];
  sampled: number;
}

/** Appends a key's cells (as they are to be written) to the builder. */
type CellSource = (key: Key, into: ColumnarChunkBuilder) => void;

/** Puts one key group's entries into `tx` as columnar chunks; the put clones them on the spot. Returns the entry count. */
function putKeyGroup(core: BackendCore, tx: ChunkTx, kg: number, keys: readonly Key[], cellsOf: CellSource, checkpointId: number, out: Written): number {
  const { layout } = core;
  const builder = new ColumnarChunkBuilder();
  let count = 0;
  const seal = () => {
    const sealed = builder.seal(layout.nextId(), kg, checkpointId);
    if (!sealed) return;
    const r = sealed.record;
    out.refs.push({ id: r.id, keyGroup: kg, entries: r.keys.length, bytes: sealed.bytes, writtenBy: checkpointId });
    layout.pending.add(r.id);
    layout.known.add(r.id);
    tx.store.put(r, r.id).catch(() => {}); // a failed put fails tx.done
    for (let i = 0; i < r.keys.length; i++) {
      const key = r.keys[i];
      layout.loc.set(key, r.id);
      if (cellsEnd(r, i) === cellsStart(r, i)) out.tombstones.push([key, r.id]);
      else if (out.sampled < 256) {
        out.sampled++;
        core.ws.learnSizes(entryCells(r, i)!);
      }
    }
  };
  for (const key of keys) {
    builder.beginEntry(key);
    cellsOf(key, builder);
    // A removed key needs a tombstone only if some chunk may still hold it.
    if (!builder.endEntry() && !layout.loc.has(key)) {
      builder.dropLastEntry();
      continue;
    }
    count++;
    if (builder.entries >= core.chunkEntries) seal();
  }
  seal();
  return count;
}

function chunkTx(core: BackendCore, durability: 'strict' | 'relaxed' = 'strict'): ChunkTx {
  const tx = core.db().transaction('chunks', 'readwrite', { durability });
  tx.done.catch(() => {}); // awaited later through `durable`; never an unhandled rejection meanwhile
  return tx;
}

/** Small checkpoints: everything in this task, one transaction. */
function writeAtOnce(core: BackendCore, dirty: DirtyKeys, checkpointId: number, out: Written): Promise<void>[] {
  const tx = chunkTx(core);
  try {
    for (const [kg, list] of dirty.groups()) putKeyGroup(core, tx, kg, list, (k, into) => core.ws.appendCells(k, into), checkpointId, out);
  } catch (e) {
    tx.abort();
    throw e;
  }
  return [tx.done];
}

/**
 * Large checkpoints: slices of a few thousand entries, one transaction each, yielding between
 * them so records keep flowing; the freeze saves a key's old cells if it is touched first, and
 * holds the columns states as copied when it began.
 */
async function writeInSlices(core: BackendCore, dirty: DirtyKeys, freeze: Freeze, checkpointId: number, out: Written, after: Promise<void> | null, epoch: number): Promise<Promise<void>[]> {
  await after;
  const superseded = () => {
    if (core.epoch !== epoch) throw new Error(`checkpoint ${checkpointId} of ${core.subtask} was superseded by a restore`);
  };
  superseded();
  const frozen = freeze.columns;
  const cellsOf: CellSource = (k, into) => {
    const saved = freeze.saved.size === 0 ? undefined : freeze.saved.get(k);
    if (saved) for (const c of saved) into.cell(c[0], c[1], c[2], c[3], c[4]);
    else core.ws.appendTableCells(k, into); // read live, in the same task as the put that clones it
    if (frozen) core.ws.appendFrozen(frozen, k, into);
  };
  const durable: Promise<void>[] = [];
  let tx: ChunkTx | null = null;
  let inTx = 0;
  // Slices in flight: the database commits some while this thread clones the next. Waiting
  // for each slice before building the next left the two idle in turn (full/raw ≈ 2).
  const committing: Promise<void>[] = [];
  for (const [kg, list] of dirty.groups()) {
    if (freeze.failure) throw freeze.failure;
    // Slices commit without waiting for the disk; the closing 'strict' commit below flushes the
    // database log they were appended to, and nothing refers to them before it.
    tx ??= chunkTx(core, 'relaxed');
    try {
      inTx += putKeyGroup(core, tx, kg, list, cellsOf, checkpointId, out);
    } catch (e) {
      tx.abort();
      throw e;
    }
    freeze.writtenBelow = kg + 1;
    if (inTx >= SLICE_ENTRIES) {
      durable.push(tx.done);
      committing.push(tx.done);
      tx = null;
      inTx = 0;
      // Records flow while the oldest slice in flight commits.
      if (committing.length >= SLICES_IN_FLIGHT) {
        await committing.shift();
        superseded();
      }
    }
  }
  if (freeze.failure) {
    tx?.abort();
    throw freeze.failure;
  }
  if (tx) durable.push(tx.done);
  // Scoped over 'chunks' too, so it commits after every slice and its flush covers them.
  const flush = core.db().transaction(['chunks', 'meta'], 'readwrite', { durability: 'strict' });
  flush.objectStore('meta').put(checkpointId, `lastPersist:${core.subtask}`).catch(() => {});
  flush.done.catch(() => {});
  durable.push(flush.done);
  return durable;
}

/**
 * A checkpoint of the keyed state. The synchronous part swaps the dirty set; a small dirty
 * set is written right away (its puts clone the cells, so later writes cannot leak in), a
 * large one is frozen copy-on-write and written in slices. `done` resolves when the chunks
 * are durable. A failed write puts its keys back in the dirty set for the next checkpoint.
 */
export function beginPersist(core: BackendCore, checkpointId: number, incremental: boolean): { dirtyKeys: number; done: Promise<PersistResult> } {
  const { ws, layout } = core;
  const dirty = ws.tracker.takeDirty();
  const epoch = core.epoch;
  const out: Written = { refs: [], tombstones: [], sampled: 0 };
  const atOnce = core.serializing === null && dirty.size <= core.syncPersistKeys;
  const revert = () => {
    if (core.epoch !== epoch) return;
    // The lists, not the set: an access during the freeze takes its key out of the set.
    for (const [, list] of dirty.groups()) for (const k of list) ws.tracker.dirty.add(k);
    const ids = new Set(out.refs.map((r) => r.id));
    layout.remove(ids);
    for (const id of ids) layout.pending.delete(id);
  };

  let chunks: ChunkRef[] = [];
  // Makes this checkpoint's chunks part of the layout, so the next checkpoint builds on them.
  const adopt = () => {
    layout.append(out.refs);
    chunks = layout.all();
    // Until its checkpoint completes or is superseded, nothing this handle lists may be collected.
    core.recentHandles.push({ checkpointId, ids: new Set(chunks.map((r) => r.id)) });
    if (core.recentHandles.length > RECENT_HANDLES_KEPT) core.recentHandles.shift();
  };

  let serialized: Promise<Promise<void>[]>;
  if (atOnce) {
    try {
      serialized = Promise.resolve(writeAtOnce(core, dirty, checkpointId, out));
    } catch (e) {
      revert();
      return { dirtyKeys: dirty.size, done: Promise.reject(storageError(e, `writing the state of checkpoint ${checkpointId}`)) };
    }
    adopt();
  } else {
    const freeze = new Freeze(dirty.keys);
    freeze.columns = ws.freezeColumns();
    ws.tracker.freezes.push(freeze);
    serialized = writeInSlices(core, dirty, freeze, checkpointId, out, core.serializing, epoch)
      .then((durable) => {
        if (core.epoch === epoch) adopt();
        return durable;
      })
      .finally(() => (ws.tracker.freezes = ws.tracker.freezes.filter((f) => f !== freeze)));
    const marker = serialized.then(
      () => {},
      () => {},
    );
    core.serializing = marker;
    void marker.then(() => {
      if (core.serializing === marker) core.serializing = null;
    });
  }

  const prev = core.lastPersist;
  let settle!: (ok: boolean) => void;
  const ok = new Promise<boolean>((r) => (settle = r));
  core.lastPersist = ok;

  const done = (async (): Promise<PersistResult> => {
    try {
      try {
        await Promise.all(await serialized);
      } catch (e) {
        throw storageError(e, `writing the state of checkpoint ${checkpointId}`);
      }
      // This handle lists the chunks of earlier persists: they must have landed too.
      if (prev && !(await prev)) throw new Error(`checkpoint ${checkpointId} of ${core.subtask} builds on an earlier state write that failed`);
    } catch (e) {
      revert();
      settle(false);
      throw e;
    } finally {
      if (core.lastPersist === ok) core.lastPersist = null;
    }
    for (const r of out.refs) layout.pending.delete(r.id);
    for (const [key, id] of out.tombstones) if (layout.loc.get(key) === id) layout.loc.delete(key);
    settle(true);
    if (!incremental) return rewriteAll(core, chunks, checkpointId);
    let fullBytes = 0;
    for (const r of chunks) fullBytes += r.bytes;
    let writtenBytes = 0;
    for (const r of out.refs) writtenBytes += r.bytes;
    return { handle: { type: 'chunks', store: core.store, chunks }, fullBytes, writtenBytes };
  })();
  return { dirtyKeys: dirty.size, done };
}
