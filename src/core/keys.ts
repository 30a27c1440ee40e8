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
    // Consecutive rows often share a key (a window's results, a hot auction): the last key's text
    // is handed back, and each part's text is kept on its own, so numbers are written less often.
    // Exact: the text depends only on the normalized parts, and parts equal by === write the same
    // text (-0 and 0 both write 0; NaN never matches, and writes null afresh).
    let lastA: Key | undefined, lastB: Key | undefined, textA = '', textB = '', last = '';
    return (row) => {
      const va = normalizeKeyPart(row[a]);
      const vb = normalizeKeyPart(row[b]);
      if (va === lastA && vb === lastB) return last;
      if (va !== lastA) {
        lastA = va;
        textA = jsonOfPart(va);
      }
      if (vb !== lastB) {
        lastB = vb;
        textB = jsonOfPart(vb);
      }
      last = `[${textA},${textB}]`;
      return last;
    };
  }
  // As above, each part's last text kept (a join's unique key: an id beside a window's bounds).
  const lastParts: Key[] = fields.map(() => null);
  const texts: string[] = fields.map(() => jsonOfPart(null));
  return (row) => {
    let s = '[';
    for (let i = 0; i < fields.length; i++) {
      const v = normalizeKeyPart(row[fields[i]]);
      if (v !== lastParts[i]) {
        lastParts[i] = v;
        texts[i] = jsonOfPart(v);
      }
      s += (i ? ',' : '') + texts[i];
    }
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
