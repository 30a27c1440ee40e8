import { describe, expect, it } from 'vitest';
import { SinkCommits } from './sinkCommits.ts';

describe('SinkCommits', () => {
  it('counts as pending what a sink took in after the snapshot of the last completed checkpoint', () => {
    const c = new SinkCommits();
    expect(c.of('view', 5)).toEqual({ checkpoint: null, pending: 5, final: false });
    c.snapshot(1, 'view#0', 'view', 4);
    c.snapshot(1, 'view#1', 'view', 3);
    // Not completed yet: nothing is committed.
    expect(c.of('view', 9).pending).toBe(9);
    c.completed(1);
    expect(c.of('view', 9)).toEqual({ checkpoint: 1, pending: 2, final: false });
  });

  it('an aborted checkpoint commits nothing; a later one does', () => {
    const c = new SinkCommits();
    c.snapshot(1, 'v#0', 'v', 2);
    c.snapshot(2, 'v#0', 'v', 6);
    c.completed(2);
    expect(c.of('v', 7)).toEqual({ checkpoint: 2, pending: 1, final: false });
  });

  it('after a restore the restored counts are the committed ones', () => {
    const c = new SinkCommits();
    c.snapshot(3, 'v#0', 'v', 10);
    c.restored(2, { v: 8 });
    expect(c.of('v', 8).pending).toBe(0);
    expect(c.of('v', 11).pending).toBe(3);
  });

  it('at the end of input nothing is pending', () => {
    const c = new SinkCommits();
    c.finished();
    expect(c.of('v', 40)).toEqual({ checkpoint: null, pending: 0, final: true });
  });
});
