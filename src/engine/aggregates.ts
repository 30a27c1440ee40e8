import type { Row } from '../core/types.ts';
import { userAccumulator } from './userAggregate.ts';
import { collectionAccumulator } from './collectionAggregates.ts';
import { type ApplyFn, compiledApply, compiledResult, type ResultFn } from './aggregateApplyJs.ts';
import type { AggregateCall, OverCall } from '../pipeline/kinds/aggregateCall.ts';


export interface UserAggregate {
  create(): unknown;
  add(acc: unknown, value: unknown): unknown;
  retract?(acc: unknown, value: unknown): unknown;
  get(acc: unknown): unknown;
  merge?(a: unknown, b: unknown): unknown;
}

/** An accumulator kind: all methods are pure functions on plain, cloneable accumulators. */
export interface Accumulator {
  create(): unknown;
  add(acc: unknown, row: Row): unknown;
  retract(acc: unknown, row: Row): unknown;
  get(acc: unknown): unknown;
  /** Merging is needed by session windows; every built-in supports it. */
  merge(a: unknown, b: unknown): unknown;
}

type Counted = Map<unknown, number>;
/**
 * MIN/MAX accumulator: the multiset of values (null when the input is append-only: nothing is
 * ever retracted, so the extreme alone is enough, as Flink's MaxAggFunction) and the extreme.
 */
interface Extreme {
  values: Counted | null;
  best: unknown;
}

function bump(m: Counted, v: unknown, d: number): Counted {
  const n = (m.get(v) ?? 0) + d;
  if (n <= 0) m.delete(v);
  else m.set(v, n);
  return m;
}

function mergeCounted(a: Counted, b: Counted): Counted {
  const out = new Map(a);
  for (const [v, n] of b) bump(out, v, n);
  return out;
}

const numeric = (x: unknown): x is number => typeof x === 'number' && !Number.isNaN(x);

/** SQL aggregate semantics: NULLs are ignored; SUM/AVG/MIN/MAX over no values are NULL. */
export function accumulator(call: AggregateCall | OverCall, appendOnly = false): Accumulator {
  const f = call.field;
  const read = f === undefined ? () => 1 : (row: Row) => row[f] ?? null;
  switch (call.fn) {
    case 'count':
      return {
        create: () => 0,
        add: (a, r) => (read(r) === null ? a : (a as number) + 1),
        retract: (a, r) => (read(r) === null ? a : (a as number) - 1),
        get: (a) => a,
        merge: (a, b) => (a as number) + (b as number),
      };
    case 'sum':
    case 'avg': {
      // [sum, count of non-null values]
      const get = call.fn === 'sum' ? (a: [number, number]) => (a[1] === 0 ? null : a[0]) : (a: [number, number]) => (a[1] === 0 ? null : a[0] / a[1]);
      return {
        create: () => [0, 0],
        add: (a, r) => {
          const v = read(r);
          const acc = a as [number, number];
          if (numeric(v)) {
            acc[0] += v;
            acc[1]++;
          }
          return acc;
        },
        retract: (a, r) => {
          const v = read(r);
          const acc = a as [number, number];
          if (numeric(v)) {
            acc[0] -= v;
            acc[1]--;
          }
          return acc;
        },
        get: (a) => get(a as [number, number]),
        merge: (a, b) => [(a as number[])[0] + (b as number[])[0], (a as number[])[1] + (b as number[])[1]],
      };
    }
    case 'min':
    case 'max': {
      // A multiset of values, so that retracting the current extreme finds the next one (Flink's
      // MinWithRetract), and the extreme itself, so that reading it is O(1): only retracting the
      // last copy of the extreme scans the values again.
      const better = call.fn === 'min' ? (x: unknown, y: unknown) => (x as number) < (y as number) : (x: unknown, y: unknown) => (x as number) > (y as number);
      const scan = (m: Counted): unknown => {
        let best: unknown = null;
        for (const v of m.keys()) if (best === null || better(v, best)) best = v;
        return best;
      };
      const pick = (x: unknown, y: unknown): unknown => (x === null ? y : y === null ? x : better(y, x) ? y : x);
      return {
        create: (): Extreme => ({ values: appendOnly ? null : new Map(), best: null }),
        add: (a, r) => {
          const v = read(r);
          if (v === null) return a;
          const e = a as Extreme;
          if (e.values) bump(e.values, v, 1);
          if (e.best === null || better(v, e.best)) e.best = v;
          return e;
        },
        retract: (a, r) => {
          const v = read(r);
          if (v === null) return a;
          const e = a as Extreme;
          if (!e.values) throw new Error(`${call.fn.toUpperCase()} "${call.as}" keeps only its extreme because its input was inferred append-only, yet a retraction arrived`);
          bump(e.values, v, -1);
          if (v === e.best && !e.values.has(v)) e.best = scan(e.values);
          return e;
        },
        get: (a) => (a as Extreme).best,
        merge: (a, b) => {
          const x = a as Extreme;
          const y = b as Extreme;
          if (!x.values || !y.values) return { values: null, best: pick(x.best, y.best) };
          const values = mergeCounted(x.values, y.values);
          return { values, best: scan(values) };
        },
      };
    }
    case 'sumDistinct':
      return distinctValues(accumulator({ ...call, fn: 'sum' } as AggregateCall, true), call.field);
    case 'avgDistinct':
      return distinctValues(accumulator({ ...call, fn: 'avg' } as AggregateCall, true), call.field);
    case 'countDistinct':
      return {
        create: () => new Map(),
        add: (a, r) => (read(r) === null ? a : bump(a as Counted, read(r), 1)),
        retract: (a, r) => (read(r) === null ? a : bump(a as Counted, read(r), -1)),
        get: (a) => (a as Counted).size,
        merge: (a, b) => mergeCounted(a as Counted, b as Counted),
      };
    case 'firstValue':
    case 'lastValue':
      return arrivalValue(call.fn, read, appendOnly);
    case 'listAgg':
      return listAgg(call.separator ?? ',', read);
    case 'listAggDistinct':
      return distinctValues(listAgg(call.separator ?? ',', read), call.field);
    case 'lag':
      return lagAccumulator(call as OverCall, read);
    case 'udaf':
      return userAccumulator(call as AggregateCall);
    case 'arrayAgg':
    case 'jsonArrayAgg':
    case 'jsonObjectAgg':
      return collectionAccumulator(call as AggregateCall, read)!;
    default:
      throw new Error(`unknown aggregate function "${String((call as { fn: unknown }).fn)}"`);
  }
}

/** SUM, AVG and LISTAGG over DISTINCT values: the inner aggregate and how many copies of each value it has. */
interface Distinct {
  seen: Counted;
  inner: unknown;
}

/**
 * An aggregate over the distinct non-NULL values, as Flink's distinct aggregates keep a map view of
 * value → count beside the accumulator: the inner aggregate sees a value when its first copy
 * arrives and loses it when its last copy is retracted, so sums add in order of first arrival.
 */
function distinctValues(inner: Accumulator, field: string | undefined): Accumulator {
  if (field === undefined) throw new Error('a DISTINCT aggregate needs a field');
  const read = (row: Row): unknown => row[field] ?? null;
  const one = (v: unknown): Row => ({ [field]: v });
  return {
    create: (): Distinct => ({ seen: new Map(), inner: inner.create() }),
    add: (a, r) => {
      const v = read(r);
      if (v === null) return a;
      const d = a as Distinct;
      const n = d.seen.get(v) ?? 0;
      d.seen.set(v, n + 1);
      if (n === 0) d.inner = inner.add(d.inner, r);
      return d;
    },
    retract: (a, r) => {
      const v = read(r);
      const d = a as Distinct;
      const n = v === null ? 0 : (d.seen.get(v) ?? 0);
      if (n === 0) return d;
      if (n > 1) d.seen.set(v, n - 1);
      else {
        d.seen.delete(v);
        d.inner = inner.retract(d.inner, r);
      }
      return d;
    },
    get: (a) => inner.get((a as Distinct).inner),
    merge: (a, b) => {
      const seen = mergeCounted((a as Distinct).seen, (b as Distinct).seen);
      let acc = inner.create();
      for (const v of seen.keys()) acc = inner.add(acc, one(v));
      return { seen, inner: acc };
    },
  };
}

/**
 * FIRST_VALUE / LAST_VALUE in arrival order, NULLs ignored (Flink's FirstValueAggFunction and
 * LastValueAggFunction). Append-only, the chosen value alone is the accumulator (null: none yet).
 * With retractions, as Flink's *WithRetract variants, every non-null value is kept in arrival
 * order, and a retraction removes the earliest copy of its value.
 */
function arrivalValue(fn: 'firstValue' | 'lastValue', read: (row: Row) => unknown, appendOnly: boolean): Accumulator {
  const name = fn === 'firstValue' ? 'FIRST_VALUE' : 'LAST_VALUE';
  if (appendOnly) {
    return {
      create: () => null,
      add: (a, r) => {
        const v = read(r);
        return v === null ? a : fn === 'lastValue' || a === null ? v : a;
      },
      retract: () => {
        throw new Error(`${name} keeps only its value because its input was inferred append-only, yet a retraction arrived`);
      },
      get: (a) => a,
      merge: (a, b) => (fn === 'firstValue' ? (a ?? b) : (b ?? a)),
    };
  }
  return arrivalList(read, (values) => (values.length === 0 ? null : fn === 'firstValue' ? values[0] : values[values.length - 1]));
}

/**
 * The non-NULL values in arrival order; a retraction removes the earliest copy of its value and
 * one of a value that is not there changes nothing (Flink's *WithRetract accumulators keep a list
 * and `remove` its first equal element). `get` reads the list.
 */
function arrivalList(read: (row: Row) => unknown, get: (values: readonly unknown[]) => unknown): Accumulator {
  return {
    create: (): unknown[] => [],
    add: (a, r) => {
      const v = read(r);
      if (v !== null) (a as unknown[]).push(v);
      return a;
    },
    retract: (a, r) => {
      const v = read(r);
      const values = a as unknown[];
      const at = v === null ? -1 : values.indexOf(v);
      if (at >= 0) values.splice(at, 1);
      return values;
    },
    get: (a) => get(a as unknown[]),
    merge: (a, b) => [...(a as unknown[]), ...(b as unknown[])],
  };
}

/**
 * LISTAGG(field, separator): the non-NULL values in arrival order joined by the separator, NULL
 * when there are none (Flink's ListAggFunction; with retractions ListAggWithRetractAggFunction,
 * whose retraction removes the earliest equal value). The list is kept on append-only input too:
 * the result is every value, so there is nothing smaller to keep.
 */
function listAgg(separator: string, read: (row: Row) => unknown): Accumulator {
  return arrivalList(read, (values) => (values.length === 0 ? null : values.map(String).join(separator)));
}

/**
 * LAG(field, offset, default) over a frame that starts at the partition's first row (Flink's
 * LagAggFunction): the last offset + 1 values, NULLs included; the oldest of them is the value
 * offset rows back, and with fewer the default. It never retracts: Flink's streaming LAG takes no
 * retraction either, and Calcite gives LAG no frame but UNBOUNDED PRECEDING.
 */
function lagAccumulator(call: OverCall, read: (row: Row) => unknown): Accumulator {
  const keep = (call.offset ?? 1) + 1;
  const fallback = call.default ?? null;
  const trim = (values: unknown[]): unknown[] => {
    while (values.length > keep) values.shift();
    return values;
  };
  return {
    create: (): unknown[] => [],
    add: (a, r) => {
      (a as unknown[]).push(read(r));
      return trim(a as unknown[]);
    },
    retract: () => {
      throw new Error(`LAG "${call.as}" cannot take a retraction: it reads an append-only OVER window`);
    },
    get: (a) => ((a as unknown[]).length < keep ? fallback : (a as unknown[])[0]),
    merge: (a, b) => trim([...(a as unknown[]), ...(b as unknown[])]),
  };
}

/**
 * How one call lives in a group's accumulator array. COUNT, SUM and AVG keep their numbers
 * inline (one slot, or two: sum then count of non-null values); every other call keeps its
 * accumulator object in one slot. A flat array of numbers is one object per group instead of
 * one per call, which is what a keyed state of many groups pays for in memory and cache misses.
 */
interface Slot {
  fn: 'count' | 'sum' | 'avg' | 'other';
  at: number;
  as: string;
  read: (row: Row) => unknown;
  acc: Accumulator;
  /** MIN or MAX: the accumulator is an `Extreme`. */
  extreme: boolean;
}

/** A call whose accumulator is one or two numbers (COUNT; SUM and AVG: sum then count of non-null values). */
export interface NumericSlot {
  fn: 'count' | 'sum' | 'avg';
  at: number;
  as: string;
  read: (row: Row) => unknown;
}

/** All calls of one node, applied together over one flat accumulator array per group. */
export class AggregateSet {
  private readonly slots: Slot[] = [];
  private readonly width: number;
  /** `appendOnly`: the input never retracts, so MIN/MAX keep only their extreme. */
  constructor(
    readonly calls: readonly (AggregateCall | OverCall)[],
    appendOnly = false,
  ) {
    let at = 0;
    for (const call of calls) {
      const f = call.field;
      const fn = call.fn === 'count' || call.fn === 'sum' || call.fn === 'avg' ? call.fn : 'other';
      this.slots.push({ fn, at, as: call.as, read: f === undefined ? () => 1 : (row) => row[f] ?? null, acc: accumulator(call, appendOnly), extreme: call.fn === 'min' || call.fn === 'max' });
      at += fn === 'sum' || fn === 'avg' ? 2 : 1;
    }
    this.width = at;
    const applied = calls.map((c, i) => ({ ...this.slots[i], field: c.field }));
    this.compiled = { add: compiledApply(applied, 1), retract: compiledApply(applied, -1) };
  }
  /** The calls' add and retract as straight-line code, where it can be compiled. */
  private readonly compiled: { add: ApplyFn | null; retract: ApplyFn | null };
  /** The calls when every one keeps its numbers inline within `maxWidth` numbers in all; else null. */
  numericSlots(maxWidth: number): NumericSlot[] | null {
    if (this.width > maxWidth) return null;
    const out: NumericSlot[] = [];
    for (const s of this.slots) {
      if (s.fn === 'other') return null;
      out.push({ fn: s.fn, at: s.at, as: s.as, read: s.read });
    }
    return out;
  }
  create(): unknown[] {
    // Sized up front: growing an empty array by push reserves 17 slots, which a million groups pay for.
    const state: unknown[] = new Array(this.width);
    for (const s of this.slots) {
      if (s.fn === 'other') state[s.at] = s.acc.create();
      else {
        state[s.at] = 0;
        if (s.fn !== 'count') state[s.at + 1] = 0;
      }
    }
    return state;
  }
  add(state: unknown[], row: Row): void {
    const f = this.compiled.add;
    if (f) f(state, row);
    else this.apply(state, row, 1);
  }
  retract(state: unknown[], row: Row): void {
    const f = this.compiled.retract;
    if (f) f(state, row);
    else this.apply(state, row, -1);
  }
  private apply(state: unknown[], row: Row, sign: 1 | -1): void {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s.fn === 'other') {
        state[s.at] = sign > 0 ? s.acc.add(state[s.at], row) : s.acc.retract(state[s.at], row);
        continue;
      }
      const v = s.read(row);
      if (s.fn === 'count') {
        if (v !== null) (state[s.at] as number) += sign;
      } else if (typeof v === 'number' && !Number.isNaN(v)) {
        (state[s.at] as number) += sign * v;
        (state[s.at + 1] as number) += sign;
      }
    }
  }
  /**
   * Whether retracting `row` from `state` takes out values that are there: every MIN/MAX call's
   * multiset holds the row's value. No state holds nothing. (An append-only MIN/MAX keeps no
   * multiset, and its retract refuses the row anyway.)
   */
  holds(state: unknown[] | null, row: Row): boolean {
    for (const s of this.slots) {
      if (!s.extreme) continue;
      const v = s.read(row);
      if (v === null) continue;
      if (!state) return false;
      const values = (state[s.at] as Extreme).values;
      if (values && !values.has(v)) return false;
    }
    return true;
  }
  merge(a: unknown[], b: unknown[]): unknown[] {
    return this.mergeInto(a.slice(0, this.width), b);
  }
  /** Merges `b` into `into`, which must be a state of its own (made by create or merge): it changes. */
  mergeInto(into: unknown[], b: unknown[]): unknown[] {
    for (const s of this.slots) {
      if (s.fn === 'other') into[s.at] = s.acc.merge(into[s.at], b[s.at]);
      else {
        (into[s.at] as number) += b[s.at] as number;
        if (s.fn !== 'count') (into[s.at + 1] as number) += b[s.at + 1] as number;
      }
    }
    return into;
  }
  /** `groupBy`'s values of a row, then what `write` writes, as one row literal; null: use `write`. */
  resultRowFunction(groupBy: readonly string[]): ResultFn | null {
    return compiledResult(groupBy, this.slots);
  }
  /** Writes each call's result into `out` under its alias (SQL: SUM and AVG of no values are NULL). */
  write(state: unknown[], out: Row): Row {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i];
      if (s.fn === 'count') out[s.as] = state[s.at];
      else if (s.fn === 'other') out[s.as] = s.acc.get(state[s.at]);
      else {
        const n = state[s.at + 1] as number;
        out[s.as] = n === 0 ? null : s.fn === 'sum' ? state[s.at] : (state[s.at] as number) / n;
      }
    }
    return out;
  }
}

export const sameRow = (a: Row, b: Row): boolean => {
  for (const k in a) if (a[k] !== b[k]) return false;
  for (const k in b) if (!(k in a)) return false;
  return true;
};
