import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { WorkersSession } from './workersSession.ts';
import type { ParallelJob, ParallelJobOptions } from './workersSession.ts';
import { JobManager } from '../runtime/threaded/jobManager.ts';
import { inProcessSpawn } from '../runtime/threaded/spawn.ts';
import { idbPlatform } from '../runtime/threaded/idbPlatform.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { loadExamples } from '../testing/examples.ts';
import { runPipeline } from '../testing/runPipeline.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import type { RunSnapshot } from './protocol.ts';

// A page reloaded mid-run on Web Workers: a new session resumes the job from the checkpoint store
// and IndexedDB state the first one left, and must show the whole committed table, not only what
// changed after the checkpoint.
const factory = new IDBFactory();
const spawn = inProcessSpawn(() => idbPlatform({ factory: async () => factory, chunkedCheckpoints: true, locks: null }));
const start = (doc: PipelineDocument, opts: ParallelJobOptions): ParallelJob => {
  const manager = new JobManager(doc, { ...opts, spawn, heartbeatTimeoutMs: 60_000 });
  let running: ReturnType<JobManager['run']> | null = null;
  return {
    manager,
    run: () => (running ??= manager.run()),
    dispose: async () => {
      manager.cancel('the job was disposed');
      await running?.catch(() => undefined);
    },
  };
};

function watch(session: WorkersSession) {
  const snaps: RunSnapshot[] = [];
  session.onSnapshot((s) => void snaps.push(s));
  return async (what: string, cond: (s: RunSnapshot) => boolean): Promise<RunSnapshot> => {
    for (let i = 0; i < 4000; i++) {
      const last = snaps.at(-1);
      if (last && cond(last)) return last;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`never reached: ${what}\n${snaps.flatMap((s) => s.log.map((l) => l.message)).join('\n')}`);
  };
}

/** Key "early" appears only in the first 5 records: after a later checkpoint no change of it is ever published again. */
const earlyKeyDoc = (): PipelineDocument =>
  ({
    format: 'weir/pipeline',
    version: 1,
    name: 'early-key',
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows: Array.from({ length: 400 }, (_, i) => ({ k: i < 5 ? 'early' : `late-${i % 7}`, ts: i * 10 })), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'agg', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] }, parallelism: 2 },
      { id: 'view', kind: 'viewSink', params: {}, parallelism: 2 },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  }) as unknown as PipelineDocument;

describe('WorkersSession resume', () => {
  it('shows the whole committed table after a resume, keys that did not change since the checkpoint included', async () => {
    const doc = earlyKeyDoc();
    const store = new MemoryCheckpointStore({ ownership: 'handover' });
    const opts = { speed: 200, checkpointIntervalMs: 10, backend: 'indexeddb' as const, jobId: 'early-key' };
    const first = new WorkersSession({ start, durableStore: () => store });
    const firstAt = watch(first);
    await first.load(doc, opts);
    first.run();
    const past = await firstAt('30 records read', (s) => s.records >= 30);
    // Two more checkpoints: the latest was triggered after the "early" records were read.
    await firstAt('two more checkpoints', (s) => s.checkpoints >= past.checkpoints + 2);
    await first.unload();

    const second = new WorkersSession({ start, durableStore: () => store });
    const secondAt = watch(second);
    expect((await second.load(doc, { ...opts, speed: null, resume: true })).ok).toBe(true);
    second.setSinkWindow('view', 0, 100);
    second.run();
    const end = await secondAt('finished', (s) => s.status === 'finished' || s.status === 'failed');
    expect(end.status, end.error?.message).toBe('finished');
    expect(end.sinks.view.rows).toEqual(runPipeline(earlyKeyDoc() as unknown as Record<string, unknown>).views.view);
    expect(end.sinks.view.rows.find((r) => r.k === 'early')?.n).toBe(5);
    await second.stop();
  });


  it('a new session resumes from the last checkpoint with IndexedDB state and ends with the plain run\'s view', async () => {
    const { doc: raw } = loadExamples().find((e) => e.entry.file === 'sales-by-store.json')!;
    const doc = { ...raw, settings: { ...(raw.settings as object), parallelism: 2 } } as unknown as PipelineDocument;
    const expected = runPipeline(raw).views.sales_by_store;
    const store = new MemoryCheckpointStore({ ownership: 'handover' });
    const opts = { speed: 400, checkpointIntervalMs: 20, backend: 'indexeddb' as const, jobId: 'resume-me' };

    const first = new WorkersSession({ start, durableStore: () => store });
    const firstAt = watch(first);
    expect((await first.load(doc, opts)).ok).toBe(true);
    first.run();
    await firstAt('two checkpoints', (s) => s.checkpoints >= 2 && s.records > 0);
    await first.unload();

    const second = new WorkersSession({ start, durableStore: () => store });
    const secondAt = watch(second);
    expect((await second.load(doc, { ...opts, speed: null, resume: true })).ok).toBe(true);
    second.setSinkWindow('sales_by_store', 0, 100);
    second.run();
    const end = await secondAt('finished', (s) => s.status === 'finished' || s.status === 'failed');
    expect(end.status, end.error?.message).toBe('finished');
    expect(end.sinks.sales_by_store.rows.map((r) => r.store_id)).toEqual(expected.map((r) => r.store_id));
    expect(end.sinks.sales_by_store.rows.map((r) => r.transactions)).toEqual(expected.map((r) => r.transactions));
    await second.stop();
  });
});
