import type { DBSchema } from 'idb';
import type { Key } from '../../core/types.ts';
import type { StateKind } from '../../state/descriptors.ts';
import type { ChunkRef, KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { approxSize } from '../../state/size.ts';

/**
 * The on-disk format. A chunk is one IndexedDB value holding many key entries of one key
 * group (one put per chunk, not per key: ~400 k entries/s instead of ~10 k/s). A key group's
 * state is its chunks applied oldest → newest; an entry with `null` cells is a tombstone.
 */
export type CellRecord = [state: string, kind: StateKind, value: unknown, touched: number, eventTime: number | null];
export type ChunkEntry = [key: Key, cells: CellRecord[] | null];

export interface ChunkRecord {
  id: string;
  kg: number;
  writtenBy: number;
  entries: ChunkEntry[];
}

export interface StateChunksDb extends DBSchema {
  chunks: { key: string; value: ChunkRecord };
  meta: { key: string; value: unknown };
}

export const STATE_SCHEMA_VERSION = 1;

export function createStateStores(db: IDBDatabase): void {
  if (!db.objectStoreNames.contains('chunks')) db.createObjectStore('chunks', { keyPath: 'id' });
  if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
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

export function entryBytes(e: ChunkEntry): number {
  let n = approxSize(e[0]) + 16;
  if (e[1]) for (const c of e[1]) n += 2 * c[0].length + approxSize(c[2]) + 40;
  return n;
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
    for (const [key, cells] of chunk.entries) {
      if (cells === null) into.delete(key);
      else into.set(key, { cells, chunk: chunk.id });
    }
  }
  return into;
}

/** Splits a key group's entries into chunk records of at most `max` entries each. */
export function buildChunks(kg: number, entries: ChunkEntry[], max: number, writtenBy: number, nextId: () => string): { records: ChunkRecord[]; refs: ChunkRef[] } {
  const records: ChunkRecord[] = [];
  const refs: ChunkRef[] = [];
  for (let i = 0; i < entries.length; i += max) {
    const part = entries.slice(i, i + max);
    const id = nextId();
    let bytes = 64;
    for (const e of part) bytes += entryBytes(e);
    records.push({ id, kg, writtenBy, entries: part });
    refs.push({ id, keyGroup: kg, entries: part.length, bytes, writtenBy });
  }
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
