import { describe, expect, it } from 'vitest';
import { AggregateSet } from './aggregates.ts';
import type { AggregateCall } from '../pipeline/kinds/aggregateCall.ts';
import type { Row } from '../core/types.ts';
import { compiledApply } from './aggregateApplyJs.ts';

const calls: AggregateCall[] = [
  { fn: 'count', as: 'n' },
  { fn: 'count', field: 'x', as: 'cx' },
  { fn: 'sum', field: 'x', as: 'sx' },
  { fn: 'avg', field: 'y', as: 'ay' },
  { fn: 'min', field: 'x', as: 'lo' },
  { fn: 'max', field: 'y', as: 'hi' },
  { fn: 'sum', field: 'constructor', as: 'odd' },
];
const values: unknown[] = [0, -0, 1, -2.5, 1e308, 5e-324, NaN, Infinity, -Infinity, null, undefined, '3', 'a', true, 10n, { v: 1 }];

/** The loop AggregateSet.add/retract run where code cannot be compiled. */
const loop = (set: AggregateSet, state: unknown[], row: Row, sign: 1 | -1) => (set as unknown as { apply(s: unknown[], r: Row, sign: 1 | -1): void }).apply(state, row, sign);

describe('compiledApply', () => {
  it('gives bit-identical states to the loop over every pair of values, adding then retracting', () => {
    for (const appendOnly of [false, true]) {
      const set = new AggregateSet(calls, appendOnly);
      const a = set.create();
      const b = set.create();
      const rows: Row[] = [];
      for (const x of values) for (const y of values) rows.push(Object.fromEntries(Object.entries({ x, y }).filter(([, v]) => v !== undefined)));
      for (const row of rows) {
        set.add(a, row);
        loop(set, b, row, 1);
        expect(set.write(a, {})).toEqual(set.write(b, {}));
      }
      if (appendOnly) continue;
      // Retracted from sums that stayed finite (an infinity added above would hide a wrong sign).
      const finite = rows.filter((r) => [r.x, r.y].every((v) => typeof v !== 'number' || Number.isFinite(v)) && typeof r.x !== 'bigint' && typeof r.y !== 'bigint' && r.x !== 1e308);
      const [c, d] = [set.create(), set.create()];
      for (const row of finite) {
        set.add(c, row);
        loop(set, d, row, 1);
      }
      for (const row of finite.slice(0, finite.length >> 1)) {
        set.retract(c, row);
        loop(set, d, row, -1);
        const [wa, wb] = [set.write(c, {}), set.write(d, {})];
        for (const k of Object.keys(wb)) expect(Object.is(wa[k], wb[k]), `${k} after retracting ${String(row.x)}, ${String(row.y)}`).toBe(true);
      }
      for (const row of rows.filter((r) => typeof r.x !== 'bigint' && typeof r.y !== 'bigint')) {
        set.retract(a, row);
        loop(set, b, row, -1);
        const [wa, wb] = [set.write(a, {}), set.write(b, {})];
        for (const k of Object.keys(wb)) expect(Object.is(wa[k], wb[k]), `${k} after retracting ${String(row.x)}, ${String(row.y)}`).toBe(true);
      }
    }
  });

  it('reads each field by name, and COUNT(*) counts every row', () => {
    const add = compiledApply(
      [
        { fn: 'count', at: 0, field: undefined, acc: { add: () => 0, retract: () => 0 } },
        { fn: 'sum', at: 1, field: 'a"b', acc: { add: () => 0, retract: () => 0 } },
      ],
      1,
    )!;
    const s = [0, 0, 0];
    add(s, { 'a"b': 2 });
    add(s, {});
    expect(s).toEqual([2, 2, 1]);
  });
});

describe('compiledResult', () => {
  /** What settle built before: the group-by values stored one by one, then `write`. */
  const byStores = (set: AggregateSet, groupBy: string[], state: unknown[], row: Row): Row => {
    const out: Row = {};
    for (const f of groupBy) out[f] = row[f] ?? null;
    return set.write(state, out);
  };

  it('builds the row settle built field by field: same names, order and values (Object.is)', () => {
    const set = new AggregateSet(calls);
    const groupBy = ['g', 'h', '2', 'constructor'];
    const result = set.resultRowFunction(groupBy)!;
    expect(result).not.toBeNull();
    const state = set.create();
    for (const x of values) {
      for (const y of values) {
        const row = Object.fromEntries(Object.entries({ x, y, g: x, h: y, 2: y }).filter(([, v]) => v !== undefined));
        if (typeof x !== 'bigint' && typeof y !== 'bigint') set.add(state, row);
        const [a, b] = [result(state, row), byStores(set, groupBy, state, row)];
        expect(Object.keys(a)).toEqual(Object.keys(b));
        for (const k of Object.keys(b)) expect(Object.is(a[k], b[k]), k).toBe(true);
      }
    }
    // An empty group: SUM and AVG of nothing are NULL.
    expect(result(set.create(), {})).toEqual(byStores(set, groupBy, set.create(), {}));
  });

  it('is not compiled where a literal would differ from stores: a repeated name or __proto__', () => {
    const set = new AggregateSet(calls);
    expect(set.resultRowFunction(['n'])).toBeNull();
    expect(set.resultRowFunction(['__proto__'])).toBeNull();
  });
});
