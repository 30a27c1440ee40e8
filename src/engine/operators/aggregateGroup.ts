import type { Row } from '../../core/types.ts';
import type { AggregateSet, NumericSlot } from '../aggregates.ts';

/** Per group: how many rows are in it, one accumulator per call, and the row last emitted. */
export interface ArrayGroup {
  n: number;
  accs: unknown[];
  out: Row | null;
}

/**
 * The same for calls that are all COUNT, SUM or AVG over at most four numbers: the numbers are
 * fields of the group object itself. One object per group instead of three (the group, the array
 * and the array's backing store): less heap per key and one pointer chase fewer per update.
 */
export interface FieldGroup {
  n: number;
  out: Row | null;
  a0: number;
  a1: number;
  a2: number;
  a3: number;
}

/** How one aggregate node lays out, updates and reads its per-group state. */
export interface GroupLayout<G extends { n: number; out: Row | null }> {
  create(): G;
  /** The stored value in this layout (a snapshot may hold the other one). */
  adopt(stored: FieldGroup | ArrayGroup): G;
  apply(g: G, row: Row, sign: 1 | -1): void;
  write(g: G, out: Row): void;
  /** The result row at once: the group-by values of `row`, then what `write` writes (where compiled). */
  result?(g: G, row: Row): Row;
}

const FIELDS = 4;

export function groupLayout(calls: AggregateSet, groupBy: readonly string[] = []): GroupLayout<FieldGroup> | GroupLayout<ArrayGroup> {
  const slots = calls.numericSlots(FIELDS);
  return slots ? fieldLayout(slots) : arrayLayout(calls, groupBy);
}

function arrayLayout(calls: AggregateSet, groupBy: readonly string[]): GroupLayout<ArrayGroup> {
  const result = calls.resultRowFunction(groupBy);
  return {
    ...(result ? { result: (g: ArrayGroup, row: Row) => result(g.accs, row) } : {}),
    create: () => ({ n: 0, accs: calls.create(), out: null }),
    adopt: (stored) => {
      if ('accs' in stored) return stored;
      throw new Error('group state was written by an aggregate with other calls');
    },
    apply: (g, row, sign) => (sign > 0 ? calls.add(g.accs, row) : calls.retract(g.accs, row)),
    write: (g, out) => void calls.write(g.accs, out),
  };
}

const get = (g: FieldGroup, at: number): number => (at === 0 ? g.a0 : at === 1 ? g.a1 : at === 2 ? g.a2 : g.a3);

function bump(g: FieldGroup, at: number, d: number): void {
  if (at === 0) g.a0 += d;
  else if (at === 1) g.a1 += d;
  else if (at === 2) g.a2 += d;
  else g.a3 += d;
}

function fieldLayout(slots: readonly NumericSlot[]): GroupLayout<FieldGroup> {
  // Snapshots taken before this layout existed hold the array one.
  const fromArray = (a: ArrayGroup): FieldGroup => {
    const num = (i: number) => (typeof a.accs[i] === 'number' ? (a.accs[i] as number) : 0);
    return { n: a.n, out: a.out, a0: num(0), a1: num(1), a2: num(2), a3: num(3) };
  };
  return {
    create: () => ({ n: 0, out: null, a0: 0, a1: 0, a2: 0, a3: 0 }),
    adopt: (stored) => ('accs' in stored ? fromArray(stored) : stored),
    // The same sums in the same order as AggregateSet.add/retract, so results are bit-identical.
    apply(g, row, sign) {
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i];
        const v = s.read(row);
        if (s.fn === 'count') {
          if (v !== null) bump(g, s.at, sign);
        } else if (typeof v === 'number' && !Number.isNaN(v)) {
          bump(g, s.at, sign * v);
          bump(g, s.at + 1, sign);
        }
      }
    },
    write(g, out) {
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i];
        if (s.fn === 'count') out[s.as] = get(g, s.at);
        else {
          const n = get(g, s.at + 1);
          out[s.as] = n === 0 ? null : s.fn === 'sum' ? get(g, s.at) : get(g, s.at) / n;
        }
      }
    },
  };
}
