import { describe, expect, it } from 'vitest';
import { accumulator } from './aggregates.ts';
import type { AggregateCall } from '../pipeline/kinds/aggregateCall.ts';

const feed = (call: AggregateCall, rows: Record<string, unknown>[]) => {
  const acc = accumulator(call);
  let a = acc.create();
  for (const r of rows) a = acc.add(a, r);
  return { acc, a };
};
// The accumulator must survive a checkpoint: a structured copy restores it.
const restored = (a: unknown) => structuredClone(a);

describe('ARRAY_AGG', () => {
  const call: AggregateCall = { fn: 'arrayAgg', field: 'x', as: 'xs' };
  it('keeps NULLs by default and skips them with nulls: skip; no values is NULL', () => {
    const rows = [{ x: 'b' }, { x: null }, { x: 'a' }];
    expect(feed(call, rows).acc.get(feed(call, rows).a)).toEqual(['b', null, 'a']);
    const skip = feed({ ...call, nulls: 'skip' }, rows);
    expect(skip.acc.get(skip.a)).toEqual(['b', 'a']);
    const none = feed({ ...call, nulls: 'skip' }, [{ x: null }]);
    expect(none.acc.get(none.a)).toBeNull();
  });
  it('a retraction takes back the earliest equal value, NULL included, after a restore as well', () => {
    const { acc, a } = feed(call, [{ x: 'a' }, { x: null }, { x: 'b' }, { x: 'a' }, { x: null }]);
    const back = acc.retract(restored(a), { x: 'a' });
    expect(acc.get(acc.retract(back, { x: null }))).toEqual(['b', 'a', null]);
    expect(acc.get(acc.retract(back, { x: 'zzz' }))).toEqual(['b', 'a', null]);
  });
  it('the result is a copy: a later value does not change a row already emitted', () => {
    const { acc, a } = feed(call, [{ x: 1 }]);
    const out = acc.get(a) as unknown[];
    acc.add(a, { x: 2 });
    expect(out).toEqual([1]);
  });
});

describe('JSON_ARRAYAGG', () => {
  const call: AggregateCall = { fn: 'jsonArrayAgg', field: 'x', as: 'j' };
  it('skips NULLs by default (ABSENT ON NULL) and keeps them with nulls: keep; strings are quoted, JSON values nested', () => {
    const rows = [{ x: 'a"b' }, { x: null }, { x: 2.5 }, { x: true }];
    const d = feed(call, rows);
    expect(d.acc.get(d.a)).toBe('["a\\"b",2.5,true]');
    const k = feed({ ...call, nulls: 'keep' }, rows);
    expect(k.acc.get(k.a)).toBe('["a\\"b",null,2.5,true]');
    const nested = feed({ ...call, jsonValues: true }, [{ x: '{"k":1}' }, { x: '[2]' }]);
    expect(nested.acc.get(nested.a)).toBe('[{"k":1},[2]]');
    expect(feed(call, []).acc.get(feed(call, []).a)).toBe('[]');
  });
});

describe('JSON_OBJECTAGG', () => {
  const call: AggregateCall = { fn: 'jsonObjectAgg', keyField: 'k', field: 'v', as: 'o' };
  it('lists members by key whatever the arrival order; NULL values kept unless skipped; a NULL key names nothing', () => {
    const rows = [{ k: 'b', v: 1 }, { k: 'a', v: null }, { k: null, v: 3 }, { k: 'c', v: 'x' }];
    const d = feed(call, rows);
    expect(d.acc.get(d.a)).toBe('{"a":null,"b":1,"c":"x"}');
    const r = feed(call, [...rows].reverse());
    expect(r.acc.get(r.a)).toBe(d.acc.get(d.a));
    const s = feed({ ...call, nulls: 'skip' }, rows);
    expect(s.acc.get(s.a)).toBe('{"b":1,"c":"x"}');
  });
  it('a second value for a key waits behind the first; retracting the first brings it forward', () => {
    const { acc, a } = feed(call, [{ k: 'a', v: 1 }, { k: 'a', v: 2 }, { k: 'b', v: 3 }]);
    expect(acc.get(a)).toBe('{"a":1,"b":3}');
    const back = acc.retract(restored(a), { k: 'a', v: 1 });
    expect(acc.get(back)).toBe('{"a":2,"b":3}');
    expect(acc.get(acc.retract(back, { k: 'b', v: 99 }))).toBe('{"a":2,"b":3}');
    expect(acc.get(acc.retract(back, { k: 'b', v: 3 }))).toBe('{"a":2}');
  });
});
