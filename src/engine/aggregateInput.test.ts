import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../testing/harness.ts';

const sum = { groupBy: ['k'], aggregates: [{ fn: 'sum', field: 'x', as: 'total' }, { fn: 'avg', field: 'x', as: 'mean' }, { fn: 'count', as: 'n' }] };

describe('SUM and AVG over a value that is not a number', () => {
  it('dead-letters the record naming the node, the call, the field and the value, and leaves the group untouched', () => {
    const h = new OperatorHarness('aggregate', sum);
    h.processElement({ k: 'a', x: 2 }).processElement({ k: 'a', x: '12' }).processElement({ k: 'a', x: null }).processElement({ k: 'a', x: 3 });
    expect(h.deadLetters.map((d) => d.reason)).toEqual([
      'node "op": SUM(x) as "total" got the text "12" in field "x", which is not a number; convert it upstream (a map with Number(row.x)) or declare the field as text and drop the SUM',
    ]);
    expect(h.deadLetters[0].row).toEqual({ k: 'a', x: '12' });
    expect(h.task.metrics(h.deadLetters.length).deadLetters).toBe(1);
    // The null is ignored as in SQL; the text never reached the accumulators.
    expect(h.output().at(-1)?.row).toEqual({ k: 'a', total: 5, mean: 2.5, n: 3 });
  });

  it('holds for booleans and objects, and for window aggregates', () => {
    const h = new OperatorHarness('window', { type: 'tumble', sizeMs: 10, groupBy: ['k'], aggregates: [{ fn: 'avg', field: 'x', as: 'mean' }] });
    h.processElement({ k: 'a', x: true }, { ts: 1 }).processElement({ k: 'a', x: { v: 1 } }, { ts: 2 }).processElement({ k: 'a', x: 4 }, { ts: 3 });
    h.processWatermark(100);
    expect(h.deadLetters.map((d) => d.reason)).toEqual([
      expect.stringMatching(/^node "op": AVG\(x\) as "mean" got the boolean true in field "x", which is not a number/),
      expect.stringMatching(/^node "op": AVG\(x\) as "mean" got an object in field "x"/),
    ]);
    expect(h.output().map((e) => e.row.mean)).toEqual([4]);
  });
});
