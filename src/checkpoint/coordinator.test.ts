import { describe, expect, it } from 'vitest';
import { CheckpointCoordinator } from './coordinator.ts';
import { MemoryCheckpointStore } from './memoryStore.ts';
import type { CheckpointManifest } from './types.ts';

const stats = { subtask: 'a#0', alignMs: 0, syncMs: 0, asyncMs: 0, stateBytes: 0, writtenBytes: 0, bufferedDuringAlignment: 0 };

/** A store whose manifest commits fail while `failing` is set. */
class FlakyStore extends MemoryCheckpointStore {
  failing = false;
  override async commit(m: CheckpointManifest): Promise<void> {
    if (this.failing) throw new Error('disk full');
    return super.commit(m);
  }
}

describe('CheckpointCoordinator.pendingId', () => {
  it('names the checkpoint whose record is pending, through completion, decline, timeout and a failed commit', async () => {
    let now = 0;
    const store = new FlakyStore();
    const c = new CheckpointCoordinator('job', store, ['a#0', 'b#0'], { now: () => now }, { retain: 2, timeoutMs: 100, parallelism: { a: 1, b: 1 } }, { trigger: () => undefined, completed: () => undefined, aborted: () => undefined });
    const fromHistory = () => c.history().findLast((r) => r.status === 'pending')?.checkpointId ?? null;
    const seen: (number | null)[] = [];
    const check = () => {
      expect(c.pendingId()).toBe(fromHistory());
      seen.push(c.pendingId());
    };
    check();
    c.trigger();
    check();
    await c.acknowledge(1, 'a#0', 'r', stats);
    check();
    await c.acknowledge(1, 'b#0', 'r', { ...stats, subtask: 'b#0' });
    check();
    c.trigger();
    await c.decline(2, 'a#0', 'no');
    check();
    c.trigger();
    now += 500;
    await c.checkTimeout();
    check();
    c.trigger();
    store.failing = true;
    await c.acknowledge(4, 'a#0', 'r', stats);
    check();
    await c.acknowledge(4, 'b#0', 'r', { ...stats, subtask: 'b#0' });
    check();
    expect(seen).toEqual([null, 1, 1, null, null, null, 4, null]);
    expect(c.history().map((r) => r.status)).toEqual(['completed', 'aborted', 'aborted', 'aborted']);
  });
});
