import { describe, expect, it } from 'vitest';
import { CommittedView } from './committedView.ts';
import type { Element } from '../core/types.ts';

const el = (kind: Element['kind'], row: Record<string, unknown>): Element => ({ kind, row, ts: null });

describe('CommittedView', () => {
  it('upserts by primary key and deletes on retraction, sorted by the key', () => {
    const v = new CommittedView(['k']);
    v.apply([el('+I', { k: 'b', n: 1 }), el('+I', { k: 'a', n: 1 }), el('-U', { k: 'b', n: 1 }), el('+U', { k: 'b', n: 2 })]);
    expect(v.rows()).toEqual([{ k: 'a', n: 1 }, { k: 'b', n: 2 }]);
    v.apply([el('-D', { k: 'a', n: 1 })]);
    expect(v.rows()).toEqual([{ k: 'b', n: 2 }]);
  });

  it('keeps a multiset without a key, and a retraction published before its row cancels it when the row comes', () => {
    const v = new CommittedView(null);
    v.apply([el('-D', { x: 1 })]);
    expect(v.rows()).toEqual([]);
    v.apply([el('+I', { x: 1 }), el('+I', { x: 2 }), el('+I', { x: 2 })]);
    expect(v.rows()).toEqual([{ x: 2 }, { x: 2 }]);
  });

  it('resets to the restored sink table', () => {
    const v = new CommittedView(['k']);
    v.apply([el('+I', { k: 'a', n: 5 })]);
    v.reset([{ k: 'a', n: 3 }, { k: 'c', n: 1 }]);
    expect(v.rows()).toEqual([{ k: 'a', n: 3 }, { k: 'c', n: 1 }]);
  });

  it('keeps one key field apart by its JSON value: 1 and "1" are two rows, a missing key and NULL one', () => {
    const v = new CommittedView(['k']);
    v.apply([el('+I', { k: 1, n: 1 }), el('+I', { k: '1', n: 2 }), el('+I', { n: 3 }), el('+I', { k: null, n: 4 }), el('+I', { k: NaN, n: 5 })]);
    // NaN is written as null by JSON, as a missing key is: the later row replaced both.
    expect(v.rows()).toHaveLength(3);
    v.apply([el('-D', { k: '1', n: 2 })]);
    expect(v.rows().map((r) => r.n).sort()).toEqual([1, 5]);
  });
});
