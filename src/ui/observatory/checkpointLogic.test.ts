import { describe, expect, it } from 'vitest';
import { joinFrame } from './fixtures.ts';
import { diffPair, durationBars, durationOf, perOperator, retainedIds, togglePick } from './checkpointLogic.ts';

describe('checkpoint timeline logic', () => {
  const cps = joinFrame.checkpoints;

  it('measures trigger to complete, none for an aborted one', () => {
    expect(cps.map(durationOf)).toEqual([40, null, 120]);
    const bars = durationBars(cps);
    expect(bars.get(3)).toBe(1);
    expect(bars.get(1)).toBeCloseTo(1 / 3);
    expect(bars.get(2)).toBe(0.02);
  });

  it('groups subtask timings per operator', () => {
    const rec = { ...cps[2], stats: [...cps[2].stats, { subtask: 'join#1', alignMs: 50, syncMs: 1, asyncMs: 10, stateBytes: 100, writtenBytes: 50, bufferedDuringAlignment: 1 }] };
    expect(perOperator(rec)).toEqual([{ node: 'join', subtasks: 2, alignMs: 50, syncMs: 2, asyncMs: 80, stateBytes: 2_148, writtenBytes: 650, buffered: 5 }]);
  });

  it('keeps the last two picks and orders them for a diff', () => {
    let p = togglePick([], 3);
    expect(diffPair(p)).toBeNull();
    p = togglePick(p, 1);
    expect(diffPair(p)).toEqual([1, 3]);
    p = togglePick(p, 5);
    expect(p).toEqual([1, 5]);
    expect(togglePick(p, 1)).toEqual([5]);
  });

  it('keeps only the newest completed checkpoints as retained', () => {
    expect([...retainedIds(cps, 1)]).toEqual([3]);
    expect([...retainedIds(cps, 5)]).toEqual([1, 3]);
  });
});
