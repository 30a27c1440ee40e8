/**
 * Aggregates that collect their values instead of folding them: Flink's ARRAY_AGG, JSON_ARRAYAGG
 * and JSON_OBJECTAGG. Each keeps its values in arrival order, as Flink's list and map views do,
 * so that a retraction takes back exactly the earliest equal value (Flink's retract removes the
 * first equal element of its ListView).
 */
import type { Row } from '../core/types.ts';
import type { AggregateCall } from '../pipeline/kinds/aggregateCall.ts';
import { valueJson } from '../expr/fnJsonBuild.ts';
import type { Accumulator } from './aggregates.ts';

/** NULL values are kept unless the call skips them (IGNORE NULLS, ABSENT ON NULL). */
const keepsNulls = (call: AggregateCall): boolean => (call.nulls ?? (call.fn === 'jsonArrayAgg' ? 'skip' : 'keep')) === 'keep';

/** The values in arrival order; `keepNulls` decides whether a NULL is one of them. */
function valueList(read: (row: Row) => unknown, keepNulls: boolean, get: (values: readonly unknown[]) => unknown): Accumulator {
  return {
    create: (): unknown[] => [],
    add: (a, r) => {
      const v = read(r);
      if (v !== null || keepNulls) (a as unknown[]).push(v);
      return a;
    },
    retract: (a, r) => {
      const v = read(r);
      const values = a as unknown[];
      if (v === null && !keepNulls) return values;
      const at = values.indexOf(v);
      if (at >= 0) values.splice(at, 1);
      return values;
    },
    get: (a) => get(a as unknown[]),
    merge: (a, b) => [...(a as unknown[]), ...(b as unknown[])],
  };
}

/**
 * JSON_OBJECTAGG(KEY k VALUE v): one member per key, the keys in code-unit order so that the text
 * does not depend on arrival order (Flink's map view has no order either). The pairs are kept in
 * arrival order; Flink fails the job on a second value for a key, Weir shows the key's earliest
 * value that is still there, so a retraction of it brings the next one forward. A NULL key names
 * no member and is not kept.
 */
function jsonObjectAgg(call: AggregateCall, read: (row: Row) => unknown): Accumulator {
  const keyField = call.keyField!;
  const keepNulls = keepsNulls(call);
  const raw = call.jsonValues === true;
  const pairOf = (r: Row): [string, unknown] | null => {
    const k = r[keyField] ?? null;
    const v = read(r);
    return k === null || (v === null && !keepNulls) ? null : [String(k), v];
  };
  return {
    create: (): [string, unknown][] => [],
    add: (a, r) => {
      const p = pairOf(r);
      if (p) (a as [string, unknown][]).push(p);
      return a;
    },
    retract: (a, r) => {
      const p = pairOf(r);
      const pairs = a as [string, unknown][];
      if (!p) return pairs;
      const at = pairs.findIndex(([k, v]) => k === p[0] && v === p[1]);
      if (at >= 0) pairs.splice(at, 1);
      return pairs;
    },
    get: (a) => {
      const first = new Map<string, unknown>();
      for (const [k, v] of a as [string, unknown][]) if (!first.has(k)) first.set(k, v);
      const keys = [...first.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      return `{${keys.map((k) => `${JSON.stringify(k)}:${valueJson(first.get(k), raw)}`).join(',')}}`;
    },
    merge: (a, b) => [...(a as [string, unknown][]), ...(b as [string, unknown][])],
  };
}

/** The accumulator of a collecting call, or null for any other call. */
export function collectionAccumulator(call: AggregateCall, read: (row: Row) => unknown): Accumulator | null {
  switch (call.fn) {
    case 'arrayAgg':
      // NULL for a group without values, as Flink's ArrayAggFunction.
      return valueList(read, keepsNulls(call), (values) => (values.length === 0 ? null : values.slice()));
    case 'jsonArrayAgg':
      return valueList(read, keepsNulls(call), (values) => `[${values.map((v) => valueJson(v, call.jsonValues === true)).join(',')}]`);
    case 'jsonObjectAgg':
      return jsonObjectAgg(call, read);
    default:
      return null;
  }
}
