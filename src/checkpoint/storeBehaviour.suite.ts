// The behaviour every CheckpointStore must show, run against each store (memory, IndexedDB,
// files). Test-only: imported by *.test.ts.
import { describe, expect, it } from 'vitest';
import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from './types.ts';

export function sampleSnapshot(subtask: string, n: number): SubtaskSnapshot {
  return {
    subtask,
    parallelism: 2,
    keyed: {
      type: 'inline',
      snapshot: {
        maxParallelism: 128,
        keyGroups: {
          3: [
            { state: 'm', kind: 'map', key: `k${n}`, value: [['a', new Map([['deep', [1, -Infinity]]]), 5]], touched: 5, eventTime: null },
            { state: 'v', kind: 'value', key: n, value: { total: n, nested: { list: [1, 'two', null, true] } }, touched: 0, eventTime: 17 },
          ],
        },
      },
    },
    operator: { lists: { offsets: [n, 'x'] }, broadcast: { rules: [['r1', { on: true }]] } },
    timers: [{ domain: 'event', key: `k${n}`, ts: 1000 + n, namespace: 'w' }],
    watermark: Infinity,
    counters: { in: n, lateRecords: 0 },
    source: { offset: n * 10, maxTs: -Infinity, watermark: -Infinity },
    channels: [{ wm: Infinity, idle: false, ended: true }],
  };
}

export function manifestOf(jobId: string, checkpointId: number, subtasks: Record<string, string>): CheckpointManifest {
  return { jobId, checkpointId, triggeredAt: checkpointId * 100, completedAt: checkpointId * 100 + 7, subtasks, parallelism: { op: 2 }, stats: [], fullBytes: 10, incrementalBytes: 3 };
}

/** Writes both subtasks of a checkpoint and returns their refs (not committed). */
export async function writeCheckpoint(store: CheckpointStore, jobId: string, id: number): Promise<Record<string, string>> {
  const refs: Record<string, string> = {};
  for (const s of ['op#0', 'op#1']) refs[s] = (await store.writeSubtask(jobId, id, sampleSnapshot(s, id))).ref;
  return refs;
}

export function checkpointStoreSuite(name: string, make: () => Promise<CheckpointStore>): void {
  describe(`${name}: checkpoint store behaviour`, () => {
    it('round-trips subtask snapshots exactly (Maps, Infinity, nesting)', async () => {
      const store = await make();
      const { ref, bytes } = await store.writeSubtask('job', 1, sampleSnapshot('op#0', 1));
      expect(bytes).toBeGreaterThan(0);
      expect(await store.readSubtask(ref)).toEqual(sampleSnapshot('op#0', 1));
    });

    it('shows a checkpoint only once its manifest is committed', async () => {
      const store = await make();
      expect(await store.latest('job')).toBeNull();
      const refs1 = await writeCheckpoint(store, 'job', 1);
      expect(await store.latest('job')).toBeNull();
      await store.commit(manifestOf('job', 1, refs1));
      expect(await store.latest('job')).toEqual(manifestOf('job', 1, refs1));
      // Torn: data written, no manifest.
      const refs2 = await writeCheckpoint(store, 'job', 2);
      expect((await store.latest('job'))?.checkpointId).toBe(1);
      expect((await store.list('job')).map((m) => m.checkpointId)).toEqual([1]);
      await store.abort('job', 2);
      await expect(store.readSubtask(refs2['op#0'])).rejects.toThrow();
      expect(await store.readSubtask(refs1['op#1'])).toEqual(sampleSnapshot('op#1', 1));
    });

    it('orders checkpoints numerically, keeps jobs apart and discards one checkpoint at a time', async () => {
      const store = await make();
      const refs: Record<number, Record<string, string>> = {};
      for (const id of [2, 9, 10]) {
        refs[id] = await writeCheckpoint(store, 'job', id);
        await store.commit(manifestOf('job', id, refs[id]));
      }
      await store.commit(manifestOf('other', 50, await writeCheckpoint(store, 'other', 50)));
      expect((await store.list('job')).map((m) => m.checkpointId)).toEqual([2, 9, 10]);
      expect((await store.latest('job'))?.checkpointId).toBe(10);
      await store.discard('job', 2);
      expect((await store.list('job')).map((m) => m.checkpointId)).toEqual([9, 10]);
      await expect(store.readSubtask(refs[2]['op#0'])).rejects.toThrow();
      expect((await store.readSubtask(refs[9]['op#0'])).counters.in).toBe(9);
      await store.discard('job', 10);
      expect((await store.latest('job'))?.checkpointId).toBe(9);
      expect((await store.latest('other'))?.checkpointId).toBe(50);
    });

    it('fails an injected write without affecting committed checkpoints', async () => {
      const store = await make();
      await store.commit(manifestOf('job', 1, await writeCheckpoint(store, 'job', 1)));
      (store as { failNextWrite?: string | null }).failNextWrite = 'injected failure';
      await expect(store.writeSubtask('job', 2, sampleSnapshot('op#0', 2))).rejects.toThrow('injected failure');
      expect((await store.latest('job'))?.checkpointId).toBe(1);
    });
  });
}
