/**
 * Flink's array and map functions over Weir's json values (an ARRAY or MAP column arrives as a JSON
 * array or object, or as its JSON text): `a[i]` (1-based, as in Flink) and `m['key']`, read as the
 * call ITEM (Calcite's name for the subscript), CARDINALITY, and the ARRAY_… / MAP_… functions of
 * Flink 1.15–1.18. A missing element, an index out of range and a value that is no array or map
 * are NULL; a NULL array gives NULL, as in Flink. Elements compare as SQL values do (1 = 1.0).
 */
import type { FunctionDef } from './functionKit.ts';
import { always } from './functionKit.ts';
import { jsonValue } from './fnJson.ts';
import { compare, isNull, toStr } from './values.ts';

function item(container: unknown, at: unknown): unknown {
  if (isNull(container) || isNull(at)) return null;
  const doc = jsonValue(container);
  if (Array.isArray(doc)) {
    const i = typeof at === 'number' ? at : Number(at);
    return Number.isInteger(i) && i >= 1 && i <= doc.length ? (doc[i - 1] ?? null) : null;
  }
  if (doc !== null && typeof doc === 'object') {
    const key = String(at);
    return Object.hasOwn(doc, key) ? ((doc as Record<string, unknown>)[key] ?? null) : null;
  }
  return null;
}

function cardinality(v: unknown): number | null {
  if (isNull(v)) return null;
  const doc = jsonValue(v);
  if (Array.isArray(doc)) return doc.length;
  return doc !== null && typeof doc === 'object' ? Object.keys(doc).length : null;
}

const arrayOf = (v: unknown): unknown[] | null => {
  if (isNull(v)) return null;
  const doc = jsonValue(v);
  return Array.isArray(doc) ? doc : null;
};
const mapOf = (v: unknown): Record<string, unknown> | null => {
  if (isNull(v)) return null;
  const doc = jsonValue(v);
  return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : null;
};
/** Element equality with NULL equal to NULL, as ARRAY_CONTAINS and ARRAY_DISTINCT treat it. */
const same = (a: unknown, b: unknown): boolean => (isNull(a) || isNull(b) ? isNull(a) && isNull(b) : compare(a, b) === 0);
const position = (arr: readonly unknown[], needle: unknown): number => arr.findIndex((x) => same(x, needle)) + 1;

function extreme(sign: 1 | -1): FunctionDef {
  return {
    min: 1,
    max: 1,
    compile: ([a]) => (row) => {
      const arr = arrayOf(a(row));
      if (!arr) return null;
      let best: unknown = null;
      for (const x of arr) if (!isNull(x) && (best === null || (compare(x, best) ?? 0) * sign > 0)) best = x;
      return best;
    },
    type: () => null,
  };
}

/** An array in, an array out (json), NULL for NULL. */
const arrayToArray = (f: (arr: unknown[]) => unknown[]): FunctionDef => ({
  min: 1,
  max: 1,
  compile: ([a]) => (row) => {
    const arr = arrayOf(a(row));
    return arr ? f(arr) : null;
  },
  type: always('json'),
});

/** MAP[k1, v1, …] as Weir holds a map, a JSON object: keys as their text; a later key wins, as in Flink. */
function buildMap(values: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i + 1 < values.length; i += 2) out[toStr(values[i]) ?? 'null'] = values[i + 1] ?? null;
  return out;
}

/**
 * Flink's STR_TO_MAP: pairs split on the whole list delimiter, each split once on the key-value
 * delimiter (neither is a pattern); a pair without one maps its text to NULL, a later key wins.
 */
function strToMap(text: string, list: string, keyValue: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (text === '') return out;
  for (const pair of list === '' ? [text] : text.split(list)) {
    const at = keyValue === '' ? -1 : pair.indexOf(keyValue);
    if (at < 0) out[pair] = null;
    else out[pair.slice(0, at)] = pair.slice(at + keyValue.length);
  }
  return out;
}

export const COLLECTION_FUNCTIONS: Readonly<Record<string, FunctionDef>> = {
  STR_TO_MAP: {
    min: 1,
    max: 3,
    compile: ([t, l, kv]) => (row) => {
      const text = toStr(t(row));
      const list = l ? toStr(l(row)) : ',';
      const keyValue = kv ? toStr(kv(row)) : '=';
      return text === null || list === null || keyValue === null ? null : strToMap(text, list, keyValue);
    },
    type: always('json'),
  },
  // ARRAY[…] and MAP[…]: constructors, written with brackets (parser.ts), never called by name.
  ARRAY: { min: 1, max: Infinity, syntaxOnly: true, compile: (args) => (row) => args.map((a) => a(row) ?? null), type: always('json') },
  MAP: { min: 2, max: Infinity, syntaxOnly: true, compile: (args) => (row) => buildMap(args.map((a) => a(row))), type: always('json') },
  ITEM: { min: 2, max: 2, syntaxOnly: true, keywords: ['FIELD'], compile: ([c, i]) => (row) => item(c(row), i(row)), type: () => null },
  CARDINALITY: { min: 1, max: 1, compile: ([a]) => (row) => cardinality(a(row)), type: always('integer') },
  ARRAY_CONTAINS: {
    min: 2,
    max: 2,
    compile: ([a, x]) => (row) => {
      const arr = arrayOf(a(row));
      return arr ? position(arr, x(row)) > 0 : null;
    },
    type: always('boolean'),
  },
  ARRAY_POSITION: {
    min: 2,
    max: 2,
    compile: ([a, x]) => (row) => {
      const arr = arrayOf(a(row));
      return arr ? position(arr, x(row)) : null;
    },
    type: always('integer'),
  },
  // ARRAY_JOIN(a, delimiter [, nullReplacement]): NULL elements are left out unless replaced.
  ARRAY_JOIN: {
    min: 2,
    max: 3,
    compile: ([a, d, r]) => (row) => {
      const arr = arrayOf(a(row));
      const delim = toStr(d(row));
      if (!arr || delim === null) return null;
      const instead = r ? toStr(r(row)) : null;
      const parts: string[] = [];
      for (const x of arr) {
        if (!isNull(x)) parts.push(typeof x === 'object' ? JSON.stringify(x) : String(x));
        else if (instead !== null) parts.push(instead);
      }
      return parts.join(delim);
    },
    type: always('string'),
  },
  ARRAY_DISTINCT: arrayToArray((arr) => arr.filter((x, i) => arr.findIndex((y) => same(x, y)) === i)),
  ARRAY_REVERSE: arrayToArray((arr) => [...arr].reverse()),
  ARRAY_MAX: extreme(1),
  ARRAY_MIN: extreme(-1),
  ARRAY_REMOVE: {
    min: 2,
    max: 2,
    compile: ([a, x]) => (row) => {
      const arr = arrayOf(a(row));
      const needle = x(row);
      return arr ? arr.filter((y) => !same(y, needle)) : null;
    },
    type: always('json'),
  },
  // ARRAY_CONCAT(a, b, …): NULL when any input is NULL.
  ARRAY_CONCAT: {
    min: 1,
    max: Infinity,
    compile: (args) => (row) => {
      const out: unknown[] = [];
      for (const a of args) {
        const arr = arrayOf(a(row));
        if (!arr) return null;
        out.push(...arr);
      }
      return out;
    },
    type: always('json'),
  },
  MAP_KEYS: { min: 1, max: 1, compile: ([m]) => (row) => { const map = mapOf(m(row)); return map ? Object.keys(map) : null; }, type: always('json') },
  MAP_VALUES: { min: 1, max: 1, compile: ([m]) => (row) => { const map = mapOf(m(row)); return map ? Object.values(map) : null; }, type: always('json') },
};
