import type { DBSchema } from 'idb';
import type { Key } from '../../core/types.ts';
import type { StateKind } from '../../state/descriptors.ts';
import type { ChunkRef, KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { cellEventTime, cellsEnd, cellsStart, cellStateOf, cellTouched, ColumnarChunkBuilder, READABLE_COLUMNAR_FORMATS, type ColumnarChunk } from './columnarChunk.ts';

/**
 * The on-disk format. A chunk is one IndexedDB value holding many key entries of one key
 * group (one put per chunk, not per key: ~400 k entries/s instead of ~10 k/s). A key group's
 * state is its chunks applied oldest → newest; an entry without cells is a tombstone.
 * Chunks are written columnar (format 3, columnarChunk.ts; format 2 is still read); row chunks (format 1, below)
 * written by earlier versions are still read, and a key group may mix both.
 */
export type CellRecord = [state: string, kind: StateKind, value: unknown, touched: number, eventTime: number | null];
export type ChunkEntry = [key: Key, cells: CellRecord[] | null];

/** Format 1: one array per entry (it has no `v` field). */
export interface RowChunk {
  id: string;
  kg: number;
  writtenBy: number;
  entries: ChunkEntry[];
}

export type ChunkRecord = RowChunk | ColumnarChunk;

/** Whether a chunk read from disk is columnar; throws on a format this version cannot read. */
export function isColumnar(r: ChunkRecord): r is ColumnarChunk {
  const v = (r as { v?: unknown }).v;
  if (typeof v === 'number' && READABLE_COLUMNAR_FORMATS.includes(v)) return true;
  if (v === undefined) return false;
  throw new Error(`state chunk ${r.id} has format ${String(v)}, which this version of Weir cannot read (written by a newer one?)`);
}

export const entryCount = (r: ChunkRecord): number => (isColumnar(r) ? r.keys.length : r.entries.length);
export const entryKey = (r: ChunkRecord, i: number): Key => (isColumnar(r) ? r.keys[i] : r.entries[i][0]);

/** Whether entry i holds cells (false for a tombstone). */
export const entryLive = (r: ChunkRecord, i: number): boolean => (isColumnar(r) ? cellsEnd(r, i) !== cellsStart(r, i) : r.entries[i][1] !== null);

/** Entry i's cells as records (new arrays for a columnar chunk), or null for a tombstone. */
export function entryCells(r: ChunkRecord, i: number): CellRecord[] | null {
  if (!isColumnar(r)) return r.entries[i][1];
  const from = cellsStart(r, i);
  const to = cellsEnd(r, i);
  if (from === to) return null;
  const out: CellRecord[] = [];
  for (let c = from; c < to; c++) {
    const s = cellStateOf(r, c);
    out.push([r.states[s], r.kinds[s], r.values[c], cellTouched(r, c), cellEventTime(r, c)]);
  }
  return out;
}

export interface StateChunksDb extends DBSchema {
  chunks: { key: string; value: ChunkRecord };
  meta: { key: string; value: unknown };
}

/**
 * Version 2 keys chunks out of line (`put(chunk, chunk.id)`). Version 1 read each chunk's key
 * from the value through an in-line `keyPath`, and Chromium deserialises a value again to find
 * it: 2.44 µs per entry against 1.25 with the key given (a 100k-entry probe).
 */
export const STATE_SCHEMA_VERSION = 2;

/** Store of version 1, renamed while its chunks are copied over during the upgrade. */
const INLINE_CHUNKS = 'chunks-v1';

/**
 * Creates the stores, or upgrades a version-1 database: its chunks move to an out-of-line
 * store inside the upgrade transaction, so a crash or a closed tab midway leaves version 1
 * as it was (the transaction aborts) and the next open starts the copy again.
 */
export function createStateStores(db: IDBDatabase, upgrade: IDBTransaction): void {
  if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
  if (!db.objectStoreNames.contains('chunks')) {
    db.createObjectStore('chunks');
    return;
  }
  const old = upgrade.objectStore('chunks');
  if (old.keyPath === null) return;
  old.name = INLINE_CHUNKS;
  const fresh = db.createObjectStore('chunks');
  const cursor = old.openCursor();
  cursor.onsuccess = () => {
    const c = cursor.result;
    if (!c) return db.deleteObjectStore(INLINE_CHUNKS);
    fresh.put(c.value, c.primaryKey);
    c.continue();
  };
}

/** Chunk ids sort by subtask and then by a zero-padded serial, so the highest serial is one cursor step away. */
export const chunkIdPrefix = (subtask: string): string => `${subtask}~`;
export const chunkId = (subtask: string, serial: number): string => `${chunkIdPrefix(subtask)}${String(serial).padStart(12, '0')}`;
export function chunkSerial(id: string, subtask: string): number | null {
  const p = chunkIdPrefix(subtask);
  if (!id.startsWith(p)) return null;
  const n = Number(id.slice(p.length));
  return Number.isInteger(n) ? n : null;
}

/** Latest touched time over a cell, entries included: a list/map cell lives while any entry does. */
export function latestTouched(c: CellRecord): number {
  let t = c[3];
  if (c[1] === 'list' || c[1] === 'map') {
    const at = c[1] === 'list' ? 1 : 2;
    for (const e of c[2] as unknown[][]) if ((e[at] as number) > t) t = e[at] as number;
  }
  return t;
}

export interface MergedKey {
  cells: CellRecord[];
  /** The chunk holding this version: where a prefetch finds the key after eviction. */
  chunk: string;
}

/** Applies chunks oldest → newest (later entries win, tombstones delete). */
export function mergeChunks(chunks: readonly ChunkRecord[], into = new Map<Key, MergedKey>()): Map<Key, MergedKey> {
  for (const chunk of chunks) {
    for (let i = 0, n = entryCount(chunk); i < n; i++) {
      const key = entryKey(chunk, i);
      const cells = entryCells(chunk, i);
      if (cells === null) into.delete(key);
      else into.set(key, { cells, chunk: chunk.id });
    }
  }
  return into;
}

/**
 * Calls `fn(chunk, entry)` for each key's latest version in `chunks` (oldest → newest), tombstones
 * left out, in the order `mergeChunks` yields them, without a record per key: a restore of a
 * million keys spends its time loading them, not merging.
 */
export function forEachLatest(chunks: readonly ChunkRecord[], fn: (chunk: number, entry: number) => void): void {
  const live = entryLive;
  if (chunks.length === 1) {
    const r = chunks[0];
    for (let i = 0, n = entryCount(r); i < n; i++) if (live(r, i)) fn(0, i);
    return;
  }
  // Key → its latest entry as an ordinal over all chunks (a small integer, so no record per key).
  const starts: number[] = [];
  let total = 0;
  for (const r of chunks) {
    starts.push(total);
    total += entryCount(r);
  }
  const chunkOf = new Uint32Array(total);
  const latest = new Map<Key, number>();
  chunks.forEach((r, c) => {
    const n = entryCount(r);
    chunkOf.fill(c, starts[c], starts[c] + n);
    for (let i = 0; i < n; i++) {
      const key = entryKey(r, i);
      if (live(r, i)) latest.set(key, starts[c] + i);
      else latest.delete(key);
    }
  });
  for (const ord of latest.values()) {
    const c = chunkOf[ord];
    fn(c, ord - starts[c]);
  }
}

/** Splits a key group's entries into columnar chunk records of at most `max` entries each. */
export function buildChunks(kg: number, entries: ChunkEntry[], max: number, writtenBy: number, nextId: () => string): { records: ColumnarChunk[]; refs: ChunkRef[] } {
  const records: ColumnarChunk[] = [];
  const refs: ChunkRef[] = [];
  const builder = new ColumnarChunkBuilder();
  const seal = () => {
    const sealed = builder.seal(nextId(), kg, writtenBy);
    if (!sealed) return;
    records.push(sealed.record);
    refs.push({ id: sealed.record.id, keyGroup: kg, entries: sealed.record.keys.length, bytes: sealed.bytes, writtenBy });
  };
  for (const [key, cells] of entries) {
    builder.beginEntry(key);
    if (cells) for (const c of cells) builder.cell(c[0], c[1], c[2], c[3], c[4]);
    builder.endEntry();
    if (builder.entries >= max) seal();
  }
  seal();
  return { records, refs };
}

/** The chunk refs of `handles` per key group, oldest first, for the groups `owns` accepts. */
export function refsByKeyGroup(handles: readonly KeyedStateHandle[], owns: (kg: number) => boolean = () => true): Map<number, ChunkRef[]> {
  const out = new Map<number, ChunkRef[]>();
  const seen = new Set<string>();
  for (const h of handles) {
    if (h.type !== 'chunks') continue;
    for (const r of h.chunks) {
      if (!owns(r.keyGroup) || seen.has(r.id)) continue;
      seen.add(r.id);
      let list = out.get(r.keyGroup);
      if (!list) out.set(r.keyGroup, (list = []));
      list.push(r);
    }
  }
  return out;
}
