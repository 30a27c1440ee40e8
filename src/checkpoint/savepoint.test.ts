import { describe, expect, it } from 'vitest';
import { LocalCluster } from '../runtime/localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { loadExamples } from '../testing/examples.ts';
import { MemoryCheckpointStore } from './memoryStore.ts';
import { exportSavepoint, importSavepoint, parseSavepoint } from './savepoint.ts';
import type { SubtaskSnapshot } from './types.ts';

const doc = loadExamples().find((e) => e.entry.file === 'orders-payments.json')!.doc;

async function checkpointed(store: MemoryCheckpointStore) {
  const c = new LocalCluster(planOrThrow(doc), { jobId: 'op', store, checkpointIntervalMs: 300, retain: 5, batchSize: 8 });
  await c.start();
  while (c.checkpointHistory().filter((r) => r.status === 'completed').length < 2) await c.step();
  return c.checkpointHistory().filter((r) => r.status === 'completed')[1].checkpointId;
}

const bytesOf = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe('savepoints', () => {
  it('export → import into a fresh store → a fresh cluster restores it and ends with the same views', async () => {
    const store = new MemoryCheckpointStore();
    const id = await checkpointed(store);
    const bytes = await exportSavepoint(store, 'op', id, { pipelineHash: 'h1' });
    const parsed = parseSavepoint(bytes);
    expect(parsed).toMatchObject({ format: 'weir/savepoint', version: 2, jobId: 'op', checkpointId: id, pipelineHash: 'h1' });
    expect(parsed.subtasks.map((s) => s.subtask).sort()).toEqual(Object.keys(parsed.manifest.subtasks).sort());

    const fresh = new MemoryCheckpointStore();
    const restoredId = await importSavepoint(bytes, fresh, 'op2', { pipelineHash: 'h1' });
    expect(restoredId).toBe(id);
    const events: string[] = [];
    const c = new LocalCluster(planOrThrow(doc), { jobId: 'op2', store: fresh, batchSize: 8 });
    c.onEvent((e) => e.type === 'restored' && events.push(`restored ${e.checkpointId}`));
    const res = await c.run();
    expect(events[0]).toBe(`restored ${id}`);
    expect(res.status).toBe('finished');
    expect(res.views).toEqual(runPipeline(doc).views);
  });

  it('an imported savepoint gets an id after the checkpoints already in the store', async () => {
    const store = new MemoryCheckpointStore();
    const id = await checkpointed(store);
    const bytes = await exportSavepoint(store, 'op', id);
    const next = await importSavepoint(bytes, store, 'op');
    const ids = (await store.list('op')).map((m) => m.checkpointId);
    expect(next).toBe(Math.max(...ids));
    expect(next).toBeGreaterThan(id);
  });

  it('rejects wrong format, version, corrupted files and another pipeline, saying what to do', async () => {
    const store = new MemoryCheckpointStore();
    const bytes = await exportSavepoint(store, 'op', await checkpointed(store), { pipelineHash: 'h1' });
    const doc = JSON.parse(new TextDecoder().decode(bytes));
    const fresh = new MemoryCheckpointStore();
    await expect(importSavepoint(new Uint8Array([0xff, 0xfe, 0x00]), fresh, 'x')).rejects.toThrow(/corrupted.*export the savepoint again/);
    await expect(importSavepoint(bytesOf({ ...doc, format: 'weir/pipeline' }), fresh, 'x')).rejects.toThrow(/wrong format "weir\/pipeline"/);
    await expect(importSavepoint(bytesOf({ ...doc, version: 3 }), fresh, 'x')).rejects.toThrow(/version 3 is not supported/);
    await expect(importSavepoint(bytesOf({ ...doc, version: 1 }), fresh, 'x')).rejects.toThrow(/version 1 is not supported.*Map and Set.*export it again/);
    await expect(importSavepoint(bytesOf({ ...doc, subtasks: doc.subtasks.slice(1) }), fresh, 'x')).rejects.toThrow(/corrupted \(subtask .* of the manifest is missing\)/);
    await expect(importSavepoint(bytes.slice(0, bytes.length - 10), fresh, 'x')).rejects.toThrow(/corrupted \(not UTF-8 JSON/);
    await expect(importSavepoint(bytes, fresh, 'x', { pipelineHash: 'other' })).rejects.toThrow(/different pipeline/);
    expect(await fresh.list('x')).toEqual([]);
    await expect(exportSavepoint(store, 'op', 999)).rejects.toThrow(/checkpoint 999 of job "op" is not retained/);
  });

  it('inlines durable-backend chunk handles through a reader, and says what is missing without one', async () => {
    const store = new MemoryCheckpointStore();
    const snap: SubtaskSnapshot = {
      subtask: 'agg#0',
      parallelism: 1,
      keyed: { type: 'chunks', store: 'weir-state-op', chunks: [{ id: 'agg#0~1', keyGroup: 3, entries: 1, bytes: 10, writtenBy: 1 }] },
      operator: { lists: {}, broadcast: {} },
      timers: [],
      watermark: -Infinity,
      counters: {},
    };
    const { ref } = await store.writeSubtask('d', 1, snap);
    await store.commit({ jobId: 'd', checkpointId: 1, triggeredAt: 0, completedAt: 1, subtasks: { 'agg#0': ref }, parallelism: { agg: 1 }, stats: [], fullBytes: 0, incrementalBytes: 0 });
    await expect(exportSavepoint(store, 'd', 1)).rejects.toThrow(/agg#0: keyed state is in "weir-state-op" chunks.*pass a chunk reader/);
    const cell = { state: 'group', kind: 'value' as const, key: 'k', value: { n: 1 }, touched: 0, eventTime: null };
    const bytes = await exportSavepoint(store, 'd', 1, { readChunks: async (h) => ({ maxParallelism: 128, keyGroups: { [h.chunks[0].keyGroup]: [cell] } }) });
    const out = parseSavepoint(bytes);
    expect(out.subtasks[0].keyed).toEqual({ type: 'inline', snapshot: { maxParallelism: 128, keyGroups: { 3: [cell] } } });
    expect(out.subtasks[0].watermark).toBe(-Infinity);
  });
});
