import { describe, expect, it } from 'vitest';
import type { Row } from '../core/types.ts';
import { SinkSampler } from './sinkSampler.ts';

const table = (rows: Row[]) => () => rows;

describe('SinkSampler versions', () => {
  it('gives the same version only to the same rows, across samplers of a job loaded again', () => {
    // A step back or a new load starts a new sampler; the page keeps rows while the version it holds comes again.
    const first = new SinkSampler(['v'], { v: null });
    const a = first.sample(table([{ x: 1 }]), 0, true).v;
    const second = new SinkSampler(['v'], { v: null }, {}, first);
    const b = second.sample(table([{ x: 2 }]), 0, true).v;
    expect(b.version).not.toBe(a.version);
    expect(b.rows).toEqual([{ x: 2 }]);
  });

  it('keeps the version while the rows are not read again, and renews it on a read or a window move', () => {
    const s = new SinkSampler(['v'], { v: null });
    const v1 = s.sample(table([{ x: 1 }]), 0, true).v.version;
    expect(s.sample(table([{ x: 1 }]), 10, false).v.version).toBe(v1);
    s.onOutput('v', [{ kind: '+I', row: { x: 2 } }] as never);
    const v2 = s.sample(table([{ x: 1 }, { x: 2 }]), 1000, false).v.version;
    expect(v2).not.toBe(v1);
    s.setWindow('v', 1, 10);
    expect(s.sample(null, 2000, false).v.version).not.toBe(v2);
  });
});

describe('SinkSampler rows the page holds', () => {
  it('leaves out the rows of the version the page holds, and sends them again once the version moves on', () => {
    const s = new SinkSampler(['v', 'w'], { v: null, w: null });
    const rows = [{ x: 1 }, { x: 2 }];
    const first = s.sample(table(rows), 0, true);
    const held = { v: first.v.version! };
    const again = s.sample(table(rows), 10, false, undefined, held);
    expect(again.v.rows).toEqual([]);
    expect(again.v.rowsHeld).toBe(true);
    expect(again.v.version).toBe(first.v.version);
    expect(again.v.total).toBe(2);
    expect(again.w.rows).toEqual(rows);
    expect(again.w.rowsHeld).toBeUndefined();
    s.onOutput('v', [{ kind: '+I', row: { x: 3 } }] as never);
    const moved = s.sample(table([...rows, { x: 3 }]), 1000, false, undefined, held);
    expect(moved.v.rows).toHaveLength(3);
    expect(moved.v.rowsHeld).toBeUndefined();
  });
});
