import type { Row } from '../core/types.ts';
import { compiledFunction, objectLiteralFunction } from '../core/objectLiteral.ts';

/** What the compiled apply needs of one call of an AggregateSet (see its Slot). */
export interface ApplySlot {
  fn: 'count' | 'sum' | 'avg' | 'other';
  at: number;
  /** The input field; undefined: COUNT(*). */
  field: string | undefined;
  acc: { add(a: unknown, r: Row): unknown; retract(a: unknown, r: Row): unknown };
}

export type ApplyFn = (state: unknown[], row: Row) => void;

/**
 * AggregateSet's add (sign 1) or retract (sign -1) written out as straight-line code, one
 * statement per call: each field is a named load at a site of its own, where the loop over the
 * calls read every field through one keyed load (`row[f]`) and one read closure per call, a site
 * that sees as many names and closures as there are calls. The same reads, tests and sums in the
 * same order as the loop, so results are bit-identical; other calls go through their
 * accumulator as before. Null where code cannot be compiled (the caller keeps its loop).
 */
export function compiledApply(slots: readonly ApplySlot[], sign: 1 | -1): ApplyFn | null {
  const lines = slots.map((s, i) => {
    const read = s.field === undefined ? '1' : `r[${JSON.stringify(s.field)}] ?? null`;
    if (s.fn === 'other') return `s[${s.at}] = a[${i}].${sign > 0 ? 'add' : 'retract'}(s[${s.at}], r);`;
    if (s.fn === 'count') return s.field === undefined ? `s[${s.at}] += ${sign};` : `if ((${read}) !== null) s[${s.at}] += ${sign};`;
    return `v = ${read}; if (typeof v === "number" && !Number.isNaN(v)) { s[${s.at}] += ${sign > 0 ? 'v' : '-v'}; s[${s.at + 1}] += ${sign}; }`;
  });
  const f = compiledFunction<(a: readonly ApplySlot['acc'][], s: unknown[], r: Row) => void>(['a', 's', 'r'], lines.join('\n'), ['v']);
  if (!f) return null;
  const accs = slots.map((s) => s.acc);
  return (state, row) => f(accs, state, row);
}

/** What the compiled result row needs of one call (see AggregateSet's Slot). */
export interface ResultSlot {
  fn: 'count' | 'sum' | 'avg' | 'other';
  at: number;
  as: string;
  acc: { get(a: unknown): unknown };
}

export type ResultFn = (state: unknown[], row: Row) => Row;

/**
 * A group's result row as one object literal: the group-by values of `row` (NULL where missing),
 * then each call's result as AggregateSet.write writes it, in that order, so the row has the
 * same fields in the same order with the same values. Built field by field into `{}`, each field
 * was a keyed store and a shape transition. Null where code cannot be compiled, and where a name
 * repeats or is `__proto__` (a literal treats those otherwise than stores do).
 */
export function compiledResult(groupBy: readonly string[], slots: readonly ResultSlot[]): ResultFn | null {
  const names = [...groupBy, ...slots.map((s) => s.as)];
  if (names.includes('__proto__') || new Set(names).size !== names.length) return null;
  const value = (s: ResultSlot, i: number): string => {
    if (s.fn === 'count') return `s[${s.at}]`;
    if (s.fn === 'other') return `a[${i}].get(s[${s.at}])`;
    return `s[${s.at + 1}] === 0 ? null : ${s.fn === 'sum' ? `s[${s.at}]` : `s[${s.at}] / s[${s.at + 1}]`}`;
  };
  const values = [...groupBy.map((f) => `r[${JSON.stringify(f)}] ?? null`), ...slots.map(value)];
  const f = objectLiteralFunction<(a: readonly ResultSlot['acc'][], s: unknown[], r: Row) => Row>(['a', 's', 'r'], names, (k) => values[k]);
  if (!f) return null;
  const accs = slots.map((s) => s.acc);
  return (state, row) => f(accs, state, row);
}
