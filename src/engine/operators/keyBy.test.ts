import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import type { Element } from '../../core/types.ts';

const batch = (from: number, n: number): Element[] => Array.from({ length: n }, (_, i) => ({ kind: '+I', row: { k: from + i }, ts: null }));

describe('keyBy forwards whole batches', () => {
  it('hands each batch on unchanged, in order, and never writes into an input batch', () => {
    const h = new OperatorHarness('keyBy', { key: ['k'] });
    const a = batch(0, 3);
    const b = batch(3, 2);
    const aCopy = [...a];
    h.task.processBatch('in', a);
    h.task.processBatch('in', []);
    h.task.processBatch('in', b);
    const out = h.task.drain()!.get('out')!;
    expect(out.map((e) => e.row.k)).toEqual([0, 1, 2, 3, 4]);
    expect(a).toEqual(aCopy);
    expect(b).toHaveLength(2);
    expect(h.task.recordsIn).toBe(5);
    expect(h.task.recordsOut).toBe(5);
    // One batch is passed through as the same array; the next drain starts empty.
    h.task.processBatch('in', a);
    expect(h.task.drain()!.get('out')).toBe(a);
    expect(h.task.drain()).toBeNull();
  });
});
