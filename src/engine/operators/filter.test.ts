import { describe, expect, it } from 'vitest';
import { compileExpr } from '../../expr/index.ts';
import { wherePredicate } from './filter.ts';

const ROWS: Record<string, unknown>[] = [
  { event_type: 2 },
  { event_type: 1 },
  { event_type: '2' },
  { event_type: ' 2 ' },
  { event_type: 2.0000001 },
  { event_type: NaN },
  { event_type: Infinity },
  { event_type: null },
  {},
  { event_type: true },
  { event_type: 2n },
  { event_type: { x: 2 } },
  { bid: { price: 150 } },
  { bid: { price: '99' } },
  { bid: null },
];

describe('wherePredicate', () => {
  it.each(['event_type = 2', 'event_type <> 2', '2 = event_type', 'event_type >= 2', 'bid.price * 0.908 > 100', 'bid.price % 7 = 3', 'event_type / 0 = 1', 'event_type = 2 AND bid.price > 1', 'event_type'])(
    'keeps exactly the rows whose condition is TRUE: %s',
    (src) => {
      const e = compileExpr(src);
      const test = wherePredicate(e);
      for (const row of ROWS) expect(test(row), JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).toBe(e.evaluate(row) === true);
    },
  );
});
