import { describe, expect, it } from 'vitest';
import { KEEP_MS, POINT_MS, appendLoad, latest, loadHistory, recordLoad } from './loadHistory.ts';
import type { NodeLoad } from '../../worker/protocol.ts';
import { snapshot } from '../lessons/checkFixtures.ts';

const fig = (busy: number) => ({ busy, backpressured: busy / 2, inPerSec: busy * 100, outPerSec: busy * 50 });
const load = (busy: number, subtasks = 1): Record<string, NodeLoad> => ({ op: { ...fig(busy), subtasks: Array.from({ length: subtasks }, (_, i) => ({ id: `op#${i}`, ...fig(busy / (i + 1)) })) } });

describe('appendLoad', () => {
  it('adds a point per node at most every POINT_MS, and per subtask only for parallel nodes', () => {
    let h = appendLoad({ series: {} }, load(0.5), 1000);
    h = appendLoad(h, load(0.9), 1000 + POINT_MS - 1);
    expect(h.series.op.busy).toEqual([0.5]);
    expect(h.series['op#0']).toBeUndefined();
    h = appendLoad(h, load(0.4, 2), 1000 + POINT_MS);
    expect(h.series.op.at).toEqual([1000, 1000 + POINT_MS]);
    expect(h.series['op#1'].busy).toEqual([0.2]);
  });

  it('forgets points older than KEEP_MS', () => {
    let h = { series: {} };
    for (let t = 0; t <= KEEP_MS + 1000; t += 1000) h = appendLoad(h, load(t / 1e6), t);
    const s = appendLoad(h, load(1), KEEP_MS + 2000).series.op;
    expect(s.at[0]).toBe(2000);
    expect(latest(s)).toEqual(fig(1));
  });
});

describe('recordLoad', () => {
  it('records running snapshots only, and a newly loaded job starts empty', () => {
    recordLoad(snapshot({ status: 'running', load: load(0.3) }), 10_000);
    recordLoad(snapshot({ status: 'paused', load: load(0.7) }), 20_000);
    expect(loadHistory.get().series.op.busy).toEqual([0.3]);
    recordLoad(snapshot({ status: 'ready' }), 30_000);
    expect(loadHistory.get().series).toEqual({});
  });
});
