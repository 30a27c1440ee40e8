import { MemoryCheckpointStore } from './memoryStore.ts';
import { checkpointStoreSuite } from './storeBehaviour.suite.ts';

checkpointStoreSuite('MemoryCheckpointStore', async () => new MemoryCheckpointStore());

import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStateBackend } from '../state/memory/memoryBackend.ts';
import type { SubtaskSnapshot } from './types.ts';
import { TimerService } from '../engine/time/timers.ts';
import { valueState } from '../state/descriptors.ts';
import { approxSize } from '../state/size.ts';

describe('MemoryCheckpointStore copies', () => {
  afterEach(() => vi.restoreAllMocks());

  it('copies only the keys and timers that changed since the last checkpoint, and reads back every one', async () => {
    const time = { processingTime: () => 0, eventTime: () => 0 };
    const backend = new MemoryStateBackend(time);
    const count = backend.value(valueState<number>('n'));
    const timers = new TimerService();
    for (let k = 0; k < 200; k++) {
      backend.setCurrentKey(k);
      count.update(k);
      timers.register({ domain: 'event', key: k, ts: 1000, namespace: null });
    }
    const snap = (): SubtaskSnapshot => ({ subtask: 'agg#0', parallelism: 1, keyed: { type: 'inline', snapshot: backend.snapshot() }, operator: { lists: {}, broadcast: {} }, timers: timers.snapshot(), watermark: 0, counters: {} });
    const store = new MemoryCheckpointStore();
    const first = await store.writeSubtask('j', 1, snap());
    backend.setCurrentKey(7);
    count.update(70);
    timers.register({ domain: 'event', key: 'late', ts: 5, namespace: null });
    const clone = vi.spyOn(globalThis, 'structuredClone');
    const s2 = snap();
    const second = await store.writeSubtask('j', 2, s2);
    // The changed key, the new timer and the snapshot's own fields; not the other 199 keys and 200 timers.
    const copied = clone.mock.calls.reduce((n, [arg]) => n + approxSize(arg), 0);
    expect(copied).toBeLessThan(approxSize(s2) / 20);
    clone.mockRestore();
    const back = await store.readSubtask(second.ref);
    const cells = Object.values((back.keyed as { snapshot: { keyGroups: Record<number, { key: unknown; value: unknown }[]> } }).snapshot.keyGroups).flat();
    expect(cells).toHaveLength(200);
    expect(cells.find((c) => c.key === 7)?.value).toBe(70);
    expect(cells.find((c) => c.key === 8)?.value).toBe(8);
    expect(back.timers).toHaveLength(201);
    const old = await store.readSubtask(first.ref);
    expect(Object.values((old.keyed as { snapshot: { keyGroups: Record<number, { key: unknown; value: unknown }[]> } }).snapshot.keyGroups).flat().find((c) => c.key === 7)?.value).toBe(7);
  });
});
