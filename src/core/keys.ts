import type { Key, Row } from './types.ts';

export type KeySelector = (row: Row) => Key;

/**
 * Keys by the whole row. A table without a primary key holds its rows as a multiset, keyed by
 * each distinct row; an updating stream then has to bring a row's retraction to the subtask
 * that holds the row, whatever path the row took, and its state has to be restored there.
 */
export const WHOLE_ROW = 'whole row';

/** What keys a keyed input: named fields ([] keys everything alike), or the whole row. */
export type KeyFields = readonly string[] | typeof WHOLE_ROW;

/** The key of a row under WHOLE_ROW. */
export const rowKey = (row: Row): string => JSON.stringify(row);

/**
 * One field keys by its raw value (no string building on the hot path);
 * several fields key by a JSON array string so that ('a,b','c') and ('a','b,c') differ.
 */
export function keySelector(fields: KeyFields): KeySelector {
  if (fields === WHOLE_ROW) return rowKey;
  if (fields.length === 0) return () => null;
  if (fields.length === 1) {
    const f = fields[0];
    return (row) => normalizeKeyPart(row[f]);
  }
  if (fields.length === 2) {
    const [a, b] = fields;
    return (row) => `[${jsonOfPart(normalizeKeyPart(row[a]))},${jsonOfPart(normalizeKeyPart(row[b]))}]`;
  }
  return (row) => {
    let s = '[';
    for (let i = 0; i < fields.length; i++) s += (i ? ',' : '') + jsonOfPart(normalizeKeyPart(row[fields[i]]));
    return `${s}]`;
  };
}

/**
 * A key part as JSON.stringify writes it inside an array, without building the array: numbers
 * print the same (Number::toString; non-finite ones as null), only strings need escaping.
 * Composite keys are in snapshots and routing hashes, so the text must not change by a byte.
 */
function jsonOfPart(v: Key | undefined): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  return v ? 'true' : 'false';
}

function normalizeKeyPart(v: unknown): Key {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

export const DEFAULT_MAX_PARALLELISM = 128;

/** murmur3 finalizer over the key's UTF-16 code units: stable across runs, workers and machines. */
export function hashKey(key: Key): number {
  const s = typeof key === 'string' ? key : JSON.stringify(key);
  let h = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 13;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** As in Flink: a key belongs to one of maxParallelism key groups... */
export function keyGroupOf(key: Key, maxParallelism = DEFAULT_MAX_PARALLELISM): number {
  return hashKey(key) % maxParallelism;
}

/** ...and each subtask owns a contiguous range of key groups, so rescaling moves whole groups. */
export function subtaskForKeyGroup(keyGroup: number, parallelism: number, maxParallelism = DEFAULT_MAX_PARALLELISM): number {
  return Math.floor((keyGroup * parallelism) / maxParallelism);
}

export function keyGroupRange(subtask: number, parallelism: number, maxParallelism = DEFAULT_MAX_PARALLELISM): [number, number] {
  const start = Math.ceil((subtask * maxParallelism) / parallelism);
  const end = Math.ceil(((subtask + 1) * maxParallelism) / parallelism) - 1;
  return [start, end];
}
