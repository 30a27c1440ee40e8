import { describe, expect, it } from 'vitest';
import { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { CheckpointTicker } from './checkpointTicker.ts';
import type { TimerService } from './jobMaster.ts';

/** Timers stepped by hand: `advance(ms)` fires every interval that falls due. */
function manualTimers() {
  let now = 0;
  const intervals: { every: number; next: number; cb: () => void }[] = [];
  const timers: TimerService = {
    now: () => now,
    every(ms, cb) {
      const t = { every: ms, next: now + ms, cb };
      intervals.push(t);
      return () => void intervals.splice(intervals.indexOf(t), 1);
    },
    after(ms, cb) {
      const t = { every: Infinity, next: now + ms, cb };
      intervals.push(t);
      return () => void (intervals.includes(t) && intervals.splice(intervals.indexOf(t), 1));
    },
    sleep: async () => undefined,
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const t = intervals.filter((x) => x.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!t) break;
      now = t.next;
      t.next += t.every;
      if (t.next === Infinity) intervals.splice(intervals.indexOf(t), 1);
      t.cb();
    }
    now = end;
  };
  return { timers, advance };
}

describe('CheckpointTicker', () => {
  it('starts an overdue checkpoint as soon as the running one completes, and never two at once', async () => {
    const { timers, advance } = manualTimers();
    const triggered: [number, number][] = [];
    const coordinator = new CheckpointCoordinator('job', new MemoryCheckpointStore(), ['a#0'], timers, { retain: 3, timeoutMs: 10_000, parallelism: { a: 1 } }, {
      trigger: (id) => triggered.push([id, timers.now()]),
      completed: () => ticker.settled(),
      aborted: () => ticker.settled(),
    });
    const ticker = new CheckpointTicker(() => coordinator, timers);
    ticker.start(100);
    advance(100);
    expect(triggered).toEqual([[1, 100]]);
    // Checkpoint 1 takes 150 ms: the tick at 200 finds it running.
    advance(150);
    expect(triggered).toHaveLength(1);
    await coordinator.acknowledge(1, 'a#0', 'ref', { subtask: 'a#0', alignMs: 0, syncMs: 0, asyncMs: 0, stateBytes: 0, writtenBytes: 0, bufferedDuringAlignment: 0 });
    // Completed at 250: checkpoint 2 starts at once instead of at the tick of 300.
    expect(triggered).toEqual([[1, 100], [2, 250]]);
    // The next tick is due an interval after that late start (350), not at the old phase (300).
    advance(50);
    expect(triggered).toHaveLength(2);
    await coordinator.acknowledge(2, 'a#0', 'ref', { subtask: 'a#0', alignMs: 0, syncMs: 0, asyncMs: 0, stateBytes: 0, writtenBytes: 0, bufferedDuringAlignment: 0 });
    // Completed within its interval: nothing was overdue, the next one waits for its tick.
    expect(triggered).toHaveLength(2);
    advance(50);
    expect(triggered).toEqual([[1, 100], [2, 250], [3, 350]]);
    ticker.stop();
    advance(1000);
    expect(triggered).toHaveLength(3);
  });
});
