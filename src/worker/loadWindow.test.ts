import { describe, expect, it } from 'vitest';
import { LoadWindow } from './loadWindow.ts';
import type { NodeCounts } from './loadWindow.ts';

const node = (recordsIn: number, recordsOut: number, subs: [busyMs: number, backpressuredMs: number, recordsIn: number][]): NodeCounts => ({
  recordsIn,
  recordsOut,
  subtasks: subs.map(([busyMs, backpressuredMs, rin], i) => ({ id: `op#${i}`, busyMs, backpressuredMs, recordsIn: rin, recordsOut: rin })),
});

describe('LoadWindow', () => {
  it('gives shares of the elapsed time and rates of the node counts over the window', () => {
    const w = new LoadWindow();
    w.sample(0, { op: node(0, 0, [[0, 0, 0], [0, 0, 0]]) });
    const l = w.sample(500, { op: node(1000, 400, [[100, 50, 600], [300, 0, 400]]) }).op;
    expect(l.inPerSec).toBe(2000);
    expect(l.outPerSec).toBe(800);
    // The node shows its busiest subtask, as Flink does; rates are the node's own counts.
    expect(l.busy).toBeCloseTo(0.6);
    expect(l.backpressured).toBeCloseTo(0.1);
    expect(l.subtasks.map((s) => [s.id, s.busy, s.backpressured, s.inPerSec])).toEqual([
      ['op#0', 0.2, 0.1, 1200],
      ['op#1', 0.6, 0, 800],
    ]);
  });

  it('looks back about one second, not to the start', () => {
    const w = new LoadWindow();
    w.sample(0, { op: node(0, 0, [[0, 0, 0]]) });
    w.sample(1000, { op: node(1000, 0, [[1000, 0, 0]]) });
    w.sample(2000, { op: node(1000, 0, [[1000, 0, 0]]) });
    const l = w.sample(2100, { op: node(1000, 0, [[1000, 0, 0]]) }).op;
    expect(l.busy).toBe(0);
    expect(l.inPerSec).toBe(0);
  });

  it('reads zero, never a negative rate, when counters start again after a restore', () => {
    const w = new LoadWindow();
    w.sample(0, { op: node(500, 500, [[10, 0, 500]]) });
    const l = w.sample(100, { op: node(20, 20, [[20, 0, 20]]) }).op;
    expect(l.inPerSec).toBe(0);
    expect(l.subtasks[0].inPerSec).toBe(0);
    expect(l.busy).toBeCloseTo(0.1);
  });

  it('starts afresh after reset (a pause is not idle time)', () => {
    const w = new LoadWindow();
    w.sample(0, { op: node(0, 0, [[0, 0, 0]]) });
    w.reset();
    expect(w.sample(10_000, { op: node(10, 0, [[5, 0, 10]]) }).op.busy).toBe(0);
    expect(w.sample(10_100, { op: node(20, 0, [[55, 0, 20]]) }).op.busy).toBeCloseTo(0.5);
  });
});
