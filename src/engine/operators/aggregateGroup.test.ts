import { describe, expect, it } from 'vitest';
import { AggregateSet } from '../aggregates.ts';
import { type AggregateCall } from '../../pipeline/kinds/aggregateCall.ts';
import { groupLayout, type ArrayGroup, type FieldGroup, type GroupLayout } from './aggregateGroup.ts';
import { OperatorHarness } from '../../testing/harness.ts';
import { seededRng } from '../../core/rng.ts';
import type { Row } from '../../core/types.ts';

const numericCalls: AggregateCall[] = [
  { fn: 'count', as: 'cnt' },
  { fn: 'sum', field: 'amount', as: 'total' },
  { fn: 'count', field: 'amount', as: 'present' },
];

/** Random rows with NULLs, NaN and missing fields; roughly one in four is a retraction of an earlier one. */
function randomChanges(n: number): { row: Row; sign: 1 | -1 }[] {
  const rng = seededRng(11);
  const added: Row[] = [];
  const out: { row: Row; sign: 1 | -1 }[] = [];
  for (let i = 0; i < n; i++) {
    if (added.length && rng.next() < 0.25) {
      out.push({ row: added.splice(rng.int(added.length), 1)[0], sign: -1 });
      continue;
    }
    const r = rng.next();
    const row: Row = r < 0.1 ? { amount: null } : r < 0.15 ? { amount: Number.NaN } : r < 0.2 ? {} : { amount: Math.round(rng.next() * 1e6) / 100 - 5000 };
    added.push(row);
    out.push({ row, sign: 1 });
  }
  return out;
}

describe('aggregate group layouts', () => {
  it.each([
    ['COUNT, SUM, COUNT(x)', numericCalls],
    ['SUM, AVG', [{ fn: 'sum', field: 'amount', as: 'total' }, { fn: 'avg', field: 'amount', as: 'mean' }] as AggregateCall[]],
  ])('keeps %s in fields and gives bit-identical results to the array layout', (_name, calls) => {
    const set = new AggregateSet(calls);
    const fields = groupLayout(set) as GroupLayout<FieldGroup>;
    const g = fields.create();
    expect('a0' in g).toBe(true);
    const accs = set.create();
    for (const { row, sign } of randomChanges(2000)) {
      fields.apply(g, row, sign);
      if (sign > 0) set.add(accs, row);
      else set.retract(accs, row);
      const a: Row = {};
      const b: Row = {};
      fields.write(g, a);
      set.write(accs, b);
      expect(a).toEqual(b);
    }
  });

  it('uses the array layout when a call is not numeric or the numbers do not fit in four fields', () => {
    const minMax = groupLayout(new AggregateSet([{ fn: 'min', field: 'x', as: 'lo' }])).create();
    const wide = groupLayout(new AggregateSet([{ fn: 'sum', field: 'x', as: 's' }, { fn: 'avg', field: 'x', as: 'a' }, { fn: 'count', as: 'c' }])).create();
    expect('accs' in minMax && 'accs' in wide).toBe(true);
  });

  it('adopts a group written in the array layout (a snapshot from before the field layout)', () => {
    const set = new AggregateSet(numericCalls);
    const fields = groupLayout(set) as GroupLayout<FieldGroup>;
    const accs = set.create();
    set.add(accs, { amount: 2.5 });
    set.add(accs, { amount: null });
    const legacy: ArrayGroup = { n: 2, accs, out: { cnt: 2, total: 2.5, present: 1 } };
    const g = fields.adopt(legacy);
    fields.apply(g, { amount: 1 }, 1);
    const out: Row = {};
    fields.write(g, out);
    expect(out).toEqual({ cnt: 3, total: 3.5, present: 2 });
    expect(g.n).toBe(2);
  });
});

describe('aggregate with the field layout', () => {
  const params = { groupBy: ['k'], aggregates: numericCalls };
  const rows = Array.from({ length: 60 }, (_, i) => ({ k: i % 7, amount: i % 5 === 0 ? null : i * 1.25 }));

  it('restores from a snapshot (also one taken in the array layout) and continues identically', () => {
    const a = new OperatorHarness('aggregate', params);
    const b = new OperatorHarness('aggregate', params);
    rows.slice(0, 30).forEach((r) => a.processElement(r));
    const snap = a.snapshot();
    rows.forEach((r) => b.processElement(r));
    const expected = b.lines().slice(a.output().length);
    // Later writes must not reach the snapshot (copy-on-write).
    rows.slice(30).forEach((r) => a.processElement(r));
    expect(a.lines().slice(-expected.length)).toEqual(expected);
    const restored = a.restored(snap);
    rows.slice(30).forEach((r) => restored.processElement(r));
    expect(restored.lines()).toEqual(expected);

    const asArrays = structuredClone(snap);
    let converted = 0;
    for (const cells of Object.values(asArrays.keyed.keyGroups))
      for (const c of cells) {
        const g = c.value as FieldGroup;
        c.value = { n: g.n, accs: [g.a0, g.a1, g.a2, g.a3], out: g.out };
        converted++;
      }
    expect(converted).toBe(7);
    const fromLegacy = a.restored(asArrays);
    rows.slice(30).forEach((r) => fromLegacy.processElement(r));
    expect(fromLegacy.lines()).toEqual(expected);
  });

  it('dead-letters a retraction for an empty group and leaves no state behind', () => {
    const h = new OperatorHarness('aggregate', params);
    h.processElement({ k: 1, amount: 3 }, { kind: '-D' });
    expect(h.output()).toEqual([]);
    expect(h.snapshot().keyed.keyGroups).toEqual({});
  });
});
