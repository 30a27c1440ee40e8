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
});
