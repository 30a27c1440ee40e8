import { describe, expect, it } from 'vitest';
import { BarrierAligner } from './barrierAligner.ts';
import { ManualClock } from '../core/clock.ts';

describe('BarrierAligner', () => {
  it('aligns at once with a single input', () => {
    const a = new BarrierAligner(1, new ManualClock());
    expect(a.onBarrier(0, 1)).toEqual([{ type: 'aligned', checkpointId: 1, alignMs: 0, buffered: 0 }]);
  });

  it('blocks inputs that delivered the barrier until all have, and reports alignment time and buffered records', () => {
    const clock = new ManualClock(100);
    const a = new BarrierAligner(3, clock);
    expect(a.onBarrier(1, 7)).toEqual([]);
    expect(a.isBlocked(1)).toBe(true);
    expect(a.isBlocked(0)).toBe(false);
    a.noteBuffered(5);
    clock.advance(30);
    expect(a.onBarrier(0, 7)).toEqual([]);
    expect(a.onBarrier(2, 7)).toEqual([{ type: 'aligned', checkpointId: 7, alignMs: 30, buffered: 5 }]);
    expect(a.state()).toEqual({ kind: 'idle' });
    expect(a.isBlocked(1)).toBe(false);
  });

  it('treats an ended input as aligned', () => {
    const a = new BarrierAligner(2, new ManualClock());
    a.onBarrier(0, 1);
    expect(a.onEndOfInput(1)).toMatchObject([{ type: 'aligned', checkpointId: 1 }]);
    expect(a.onBarrier(0, 2)).toMatchObject([{ type: 'aligned', checkpointId: 2 }]);
  });

  it('aborts an unfinished alignment when a newer barrier arrives, and ignores stale barriers', () => {
    const a = new BarrierAligner(2, new ManualClock());
    a.onBarrier(0, 1);
    expect(a.onBarrier(0, 2)).toEqual([{ type: 'aborted', checkpointId: 1, reason: 'barrier 2 arrived before 1 was aligned' }]);
    expect(a.onBarrier(1, 1)).toEqual([]);
    expect(a.onBarrier(1, 2)).toMatchObject([{ type: 'aligned', checkpointId: 2 }]);
  });

  it('can be cancelled by the coordinator', () => {
    const a = new BarrierAligner(2, new ManualClock());
    a.onBarrier(0, 3);
    expect(a.cancel(3, 'timeout')).toEqual([{ type: 'aborted', checkpointId: 3, reason: 'timeout' }]);
    expect(a.isBlocked(0)).toBe(false);
  });
});
