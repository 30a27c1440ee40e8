import type { Row } from './types.ts';
import { loadUdf } from './udf.ts';

export type AggFn = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'countDistinct' | 'udaf';

/** One output column of a GROUP BY or window aggregate. */
export interface AggregateCall {
  fn: AggFn;
  /** Input field; absent for COUNT(*). */
  field?: string;
  as: string;
  /** For `udaf`: an object with create(), add(acc, v), retract(acc, v) and get(acc). */
  code?: string;
}

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
export function accumulator(call: AggregateCall): Accumulator {
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
      // A multiset of values, so that retracting the current extreme finds the next one (Flink's MinWithRetract).
      const better = call.fn === 'min' ? (x: unknown, y: unknown) => (x as number) < (y as number) : (x: unknown, y: unknown) => (x as number) > (y as number);
      return {
        create: () => new Map(),
        add: (a, r) => (read(r) === null ? a : bump(a as Counted, read(r), 1)),
        retract: (a, r) => (read(r) === null ? a : bump(a as Counted, read(r), -1)),
        get: (a) => {
          let best: unknown = null;
          for (const v of (a as Counted).keys()) if (best === null || better(v, best)) best = v;
          return best;
        },
        merge: (a, b) => mergeCounted(a as Counted, b as Counted),
      };
    }
    case 'countDistinct':
      return {
        create: () => new Map(),
        add: (a, r) => (read(r) === null ? a : bump(a as Counted, read(r), 1)),
        retract: (a, r) => (read(r) === null ? a : bump(a as Counted, read(r), -1)),
        get: (a) => (a as Counted).size,
        merge: (a, b) => mergeCounted(a as Counted, b as Counted),
      };
    case 'udaf': {
      const u = loadUdf<UserAggregate>(call.code ?? '');
      if (typeof u?.create !== 'function' || typeof u.add !== 'function' || typeof u.get !== 'function') {
        throw new Error(`aggregate "${call.as}": code must define create(), add(acc, value) and get(acc)`);
      }
      const value = (r: Row) => (f === undefined ? r : r[f]);
      return {
        create: () => u.create(),
        add: (a, r) => u.add(a, value(r)),
        retract: (a, r) => {
          if (!u.retract) throw new Error(`aggregate "${call.as}" received a retraction but defines no retract(acc, value)`);
          return u.retract(a, value(r));
        },
        get: (a) => u.get(a),
        merge: (a, b) => {
          if (!u.merge) throw new Error(`aggregate "${call.as}" must define merge(a, b) to be used in session windows`);
          return u.merge(a, b);
        },
      };
    }
    default:
      throw new Error(`unknown aggregate function "${String(call.fn)}"`);
  }
}

/** All calls of one node, applied together over an array of accumulators. */
export class AggregateSet {
  private readonly accs: Accumulator[];
  constructor(readonly calls: readonly AggregateCall[]) {
    this.accs = calls.map(accumulator);
  }
  create(): unknown[] {
    return this.accs.map((a) => a.create());
  }
  add(state: unknown[], row: Row): void {
    for (let i = 0; i < this.accs.length; i++) state[i] = this.accs[i].add(state[i], row);
  }
  retract(state: unknown[], row: Row): void {
    for (let i = 0; i < this.accs.length; i++) state[i] = this.accs[i].retract(state[i], row);
  }
  merge(a: unknown[], b: unknown[]): unknown[] {
    return this.accs.map((acc, i) => acc.merge(a[i], b[i]));
  }
  /** Writes each call's result into `out` under its alias. */
  write(state: unknown[], out: Row): Row {
    for (let i = 0; i < this.accs.length; i++) out[this.calls[i].as] = this.accs[i].get(state[i]);
    return out;
  }
}

export const sameRow = (a: Row, b: Row): boolean => {
  for (const k in a) if (a[k] !== b[k]) return false;
  for (const k in b) if (!(k in a)) return false;
  return true;
};
