import { describe, expect, it } from 'vitest';
import type { Element, Row, RowKind } from '../../core/types.ts';
import { decodeBatch, encodeBatch, packRows, unpackRows, type WireBatch, type WireColumn } from './codec.ts';

/** Encodes, sends through structured clone with the transfer list (as a port would), decodes. */
function roundTrip(els: Element[]): { out: Element[]; wire: WireBatch; transferred: number; arrays: ArrayBufferView[]; transfer: Transferable[] } {
  const transfer: Transferable[] = [];
  const wire = encodeBatch(els, 'columnar', transfer);
  const arrays = wire.enc === 'columnar' ? [wire.kinds, wire.ts, ...(wire.at ? [wire.at] : []), ...wire.cols.flatMap(typedArraysOf)] : [];
  const moved = structuredClone(wire, { transfer: transfer as Transferable[] as never });
  return { out: decodeBatch(moved), wire, transferred: transfer.length, arrays, transfer };
}

function typedArraysOf(c: WireColumn): ArrayBufferView[] {
  if (c instanceof Float64Array) return [c];
  if (c.t === 'num?') return [c.v, c.nulls];
  if (c.t === 'str') return [c.idx];
  if (c.t === 'rec') return c.cols.flatMap(typedArraysOf);
  return [];
}

/**
 * Every typed array of the batch sits in the one buffer that was transferred (a message pays per
 * transferred buffer), and the sender's copy is gone: moved, not copied.
 */
function expectOneTransferredBuffer(r: ReturnType<typeof roundTrip>, arrays: number): void {
  expect(r.transferred).toBe(1);
  expect(r.arrays.length).toBe(arrays);
  for (const a of r.arrays) expect(a.buffer).toBe(r.transfer[0]);
  expect((r.transfer[0] as ArrayBuffer).byteLength).toBe(0);
}

const KINDS: RowKind[] = ['+I', '-U', '+U', '-D'];
const batch = (n: number, row: (i: number) => Row, ts: (i: number) => number | null = (i) => 1000 + i): Element[] =>
  Array.from({ length: n }, (_, i) => ({ kind: KINDS[i % 4], row: row(i), ts: ts(i) }));

describe('columnar batches', () => {
  it('round-trips numbers, strings, nulls and other values exactly, field order included', () => {
    const els = batch(
      100,
      (i) => ({
        id: i,
        price: i % 7 === 0 ? null : i * 0.1,
        city: i % 5 === 0 ? null : ['Taipei', 'Oslo', 'Lima'][i % 3],
        flag: i % 2 === 0,
        nested: { a: [i, 'x'] },
        maybe: i % 3 === 0 ? undefined : i,
        odd: [-0, NaN, Infinity, -Infinity][i % 4],
        '0': 'integer-like name',
        'quo"te\u2028': i,
      }),
      (i) => (i % 9 === 0 ? null : i * 3),
    );
    const { out, wire } = roundTrip(els);
    expect(wire.enc).toBe('columnar');
    expect(out).toEqual(els);
    for (let i = 0; i < els.length; i++) {
      expect(Object.keys(out[i].row)).toEqual(Object.keys(els[i].row));
      expect(Object.is(out[i].row.odd, els[i].row.odd)).toBe(true);
    }
  });

  it('sends numbers, kinds, timestamps and string indexes in one transferred buffer, each distinct string once', () => {
    const r = roundTrip(batch(256, (i) => ({ k: i % 10, store: `store-${i % 4}`, amount: i })));
    const { wire } = r;
    if (wire.enc !== 'columnar') throw new Error('expected columnar');
    // kinds + ts + k + amount + the store indexes
    expectOneTransferredBuffer(r, 5);
    const store = wire.cols[1];
    expect(store instanceof Float64Array ? null : store.t === 'str' && store.strings).toEqual(['store-0', 'store-1', 'store-2', 'store-3']);
  });

  it('falls back to plain elements for mixed shapes, tiny batches and a __proto__ field', () => {
    const mixed = batch(40, (i) => (i === 20 ? { b: 1, a: 2 } : { a: 1, b: 2 }));
    expect(roundTrip(mixed).wire.enc).toBe('plain');
    expect(roundTrip(mixed).out).toEqual(mixed);
    const missing = batch(40, (i) => (i === 39 ? { a: 1 } : { a: 1, b: 2 }));
    expect(roundTrip(missing).wire.enc).toBe('plain');
    expect(roundTrip(batch(3, (i) => ({ a: i }))).wire.enc).toBe('plain');
    const proto = batch(40, (i) => JSON.parse(`{"__proto__": ${i}, "a": 1}`) as Row);
    const { wire, out } = roundTrip(proto);
    expect(wire.enc).toBe('plain');
    expect(Object.getPrototypeOf(out[0].row)).toBe(Object.prototype);
    expect(Object.keys(out[5].row)).toEqual(['__proto__', 'a']);
  });

  it('rebuilds rows of many shapes, each with its own fields', () => {
    for (let s = 0; s < 300; s++) {
      const els = batch(20, (i) => ({ [`f${s}`]: i, [`g${s}`]: `v${i % 2}` }));
      expect(roundTrip(els).out).toEqual(els);
    }
  });

  it("packs an inline source's rows as columns per chunk, keeping odd rows and shapes as they are", () => {
    const rows: unknown[] = Array.from({ length: 10_000 }, (_, i) => ({ id: i, name: `n${i % 3}`, v: i % 5 ? i / 2 : null }));
    rows[5000] = { other: 'shape' };
    rows[7000] = 42;
    rows[7001] = ['not', 'a', 'record'];
    rows[7002] = null;
    const packed = structuredClone(packRows(rows));
    expect(packed.chunks.map((c) => ('rows' in c ? 'plain' : 'columnar'))).toEqual(['columnar', 'plain', 'columnar']);
    expect(unpackRows(packed)).toEqual(rows);
  });

  it('takes records inside records apart as columns, exactly, and leaves mixed, deep and cyclic ones as values', () => {
    const els = batch(64, (i) => ({ k: i, v: { n: i % 3, out: { key: i, total: i % 4 ? i / 3 : -0, tag: i % 5 ? `t${i % 2}` : null }, a0: NaN } }));
    const r = roundTrip(els);
    const { out, wire } = r;
    if (wire.enc !== 'columnar') throw new Error('expected columnar');
    const v = wire.cols[1];
    expect(v instanceof Float64Array ? 'numbers' : v.t).toBe('rec');
    // kinds, ts, k, v.n, v.out.key, v.out.total, v.out.tag's indexes, v.a0
    expectOneTransferredBuffer(r, 8);
    expect(out).toEqual(els);
    for (let i = 0; i < els.length; i++) {
      expect(Object.keys(out[i].row.v as object)).toEqual(['n', 'out', 'a0']);
      expect(Object.is((out[i].row.v as { out: { total: number } }).out.total, (els[i].row.v as { out: { total: number } }).out.total)).toBe(true);
    }
    const mixed = batch(32, (i) => ({ v: i === 9 ? 7 : { a: i }, w: i === 20 ? { b: 1, a: 2 } : { a: 1, b: 2 }, d: { x: { y: { z: { deep: i } } } } }));
    expect(roundTrip(mixed).out).toEqual(mixed);
    const cyclic = batch(32, (i) => {
      const inner: Row = { i };
      inner.self = inner;
      return { c: { d: { e: inner } } };
    });
    const back = roundTrip(cyclic).out;
    const e = ((back[3].row.c as Row).d as Row).e as Row;
    expect(e.self).toBe(e);
    expect(e.i).toBe(3);
    // Rows are values: one record under two fields arrives as two equal records.
    const shared = { s: 1 };
    const twice = roundTrip(batch(32, () => ({ p: { a: shared, b: shared } }))).out;
    expect((twice[0].row.p as Row).a).toEqual((twice[0].row.p as Row).b);
  });
});
