import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { JobManager } from './jobManager.ts';
import { inProcessSpawn } from './spawn.ts';
import type { Spawn } from './spawn.ts';
import { MemoryCheckpointStore } from '../../checkpoint/memoryStore.ts';
import { loadExamples } from '../../testing/examples.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { compareBags } from '../../testing/oracle/sqlOracle.ts';
import type { PlainRow } from '../../testing/oracle/sqlOracle.ts';
import type { SubtaskSnapshot } from '../../checkpoint/types.ts';
import { exactlyOnceDoc, sequenceViolations, withParallelism } from '../../testing/exactlyOncePipelines.ts';
import { idbPlatform } from './idbPlatform.ts';

// The job manager and worker hosts with "workers" that are MessageChannels in this thread:
// the whole protocol (comlink control, ports, credit, checkpoints, restarts) without thread
// start-up cost. Real worker_threads runs are in src/runtime/node/threads.test.ts.
const spawn = inProcessSpawn();
const reference = runPipeline(exactlyOnceDoc(1)).views.view;
const fast = { spawn, heartbeatTimeoutMs: 60_000, restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 5 } } as const;

async function whenRunning(jm: JobManager, done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!done()) throw new Error('the job never reached the expected point');
  void jm;
}

describe('JobManager on in-process workers', () => {
  it('matches the plain in-process run on every example at parallelism 1 to 4', async () => {
    for (const [i, { entry, doc }] of loadExamples().entries()) {
      const expected = runPipeline(doc).views;
      const p = 1 + (i % 4);
      const res = await new JobManager(withParallelism(doc, p), { ...fast, checkpointIntervalMs: 25 }).run();
      expect(res.status, `${entry.file} p=${p}: ${res.reason}`).toBe('finished');
      // Floats up to their last bits: the channels' interleaving orders the additions of a SUM.
      expect(Object.keys(res.views).sort()).toEqual(Object.keys(expected).sort());
      for (const [view, rows] of Object.entries(expected)) {
        const got = res.views[view] as PlainRow[];
        expect({ rows: got.length, ...compareBags(got, rows as PlainRow[], 1e-9) }, `${entry.file} p=${p} ${view}`).toEqual({ rows: rows.length, missing: [], extra: [] });
      }
    }
  });

  it('restarts from the latest checkpoint after a kill, with exactly-once views and changelog', async () => {
    const jm = new JobManager(exactlyOnceDoc(3, { spinUs: 20 }), { ...fast, checkpointIntervalMs: 10, batchSize: 50 });
    const run = jm.run();
    await whenRunning(jm, () => jm.checkpointHistory().some((c) => c.status === 'completed'));
    expect(jm.killSubtask('agg#1')).toBe(true);
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBe(1);
    expect(res.recoveries[0].restoredFrom).toBeGreaterThan(0);
    expect(res.views.view).toEqual(reference);
    expect(sequenceViolations(res.views.view)).toEqual([]);
    // Replaying the published changelog gives the view: no epoch was published twice or lost.
    const latest = new Map<unknown, unknown>();
    for (const e of res.changelogs.view) (e.kind === '+I' || e.kind === '+U' ? latest.set(e.row.key, e.row) : latest.delete(e.row.key));
    expect([...latest.values()].length).toBe(reference.length);
  });

  it('buffers and checkpoints no sink epochs when nothing reads the published output, and all of them when something does', async () => {
    /** Counts the sink rows each checkpoint pre-commits. */
    class SinkRowsStore extends MemoryCheckpointStore {
      rows = 0;
      override writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot) {
        for (const c of snap.pendingCommits ?? []) this.rows += c.els.length;
        return super.writeSubtask(jobId, checkpointId, snap);
      }
    }
    const run = async (listen: boolean) => {
      const store = new SinkRowsStore({ ownership: 'handover' });
      let published = 0;
      const res = await new JobManager(exactlyOnceDoc(3, { spinUs: 20 }), { ...fast, store, checkpointIntervalMs: 10, batchSize: 50, keepChangelog: false, ...(listen ? { onPublish: (_: string, c: { els: unknown[] }) => (published += c.els.length) } : {}) }).run();
      expect(res.status, res.reason).toBe('finished');
      expect(res.checkpoints.some((c) => c.status === 'completed')).toBe(true);
      expect(res.views.view).toEqual(reference);
      return { checkpointed: store.rows, published };
    };
    expect(await run(false)).toEqual({ checkpointed: 0, published: 0 });
    const listened = await run(true);
    expect(listened.checkpointed).toBeGreaterThan(0);
    expect(listened.published).toBeGreaterThanOrEqual(reference.length);
  });

  it('chaos kills fall while records flow, during a snapshot write and during a recovery, with exactly-once views', async () => {
    const log: string[] = [];
    // Seed 9 plans one kill of each phase (the phases depend on the seed alone).
    const res = await new JobManager(exactlyOnceDoc(3, { spinUs: 20 }), { ...fast, checkpointIntervalMs: 10, batchSize: 50, chaos: { kills: 3, seed: 9 }, log: (l) => log.push(l) }).run();
    expect(res.status, res.reason).toBe('finished');
    const kills = log.filter((l) => l.startsWith('chaos: killing'));
    expect(kills.map((l) => /killing \S+ (.*) \(/.exec(l)![1]), log.join('\n')).toEqual(['while records flow', "during a checkpoint's snapshot write", 'during the recovery']);
    expect(res.restarts).toBe(3);
    // The kill during the write aborted that checkpoint; the recovery kill came before the restored attempt completed one.
    const killedWrite = log.indexOf(kills[1]);
    const abortedAfter = log.slice(killedWrite).find((l) => /^checkpoint \d+ aborted/.test(l));
    expect(abortedAfter, log.join('\n')).toBeDefined();
    expect(res.recoveries[2].restoredFrom).toBe(res.recoveries[1].restoredFrom);
    expect(res.views.view).toEqual(reference);
    expect(sequenceViolations(res.views.view)).toEqual([]);
  });

  it('publishes each dead letter once when a kill falls between a dead letter and the next checkpoint', async () => {
    const doc = exactlyOnceDoc(3, { spinUs: 30 });
    // Every 40th record is dead-lettered by the map, spread over the run.
    (doc.nodes[1].params as { code: string }).code = "(row) => { const end = performance.now() + 0.03; while (performance.now() < end); if (row.seq % 40 === 7) throw new Error('unlucky seq'); return { ...row }; }";
    const plain = runPipeline(doc);
    const expected = plain.deadLetters.map((d) => `${d.reason} ${JSON.stringify(d.row)}`).sort();
    expect(expected.length).toBeGreaterThan(50);
    let committed = 0;
    const jm = new JobManager(doc, { ...fast, checkpointIntervalMs: 15, batchSize: 20, onDeadLetters: (e) => void (committed += e.items.length) });
    const run = jm.run();
    // Live dead letters (counted by the workers in this attempt) beyond the committed ones: the kill replays them.
    let atKill: { live: number; committed: number } | null = null;
    for (let i = 0; i < 4000 && !atKill; i++) {
      const live = (await jm.stats()).nodes.work?.deadLetters ?? 0;
      if (committed > 0 && live > committed) {
        atKill = { live, committed };
        expect(jm.killSubtask('agg#0')).toBe(true);
      } else await new Promise((r) => setTimeout(r, 1));
    }
    expect(atKill, 'a moment with uncommitted dead letters').not.toBeNull();
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBe(1);
    expect(res.deadLetters.map((d) => `${d.reason} ${JSON.stringify(d.row)}`).sort()).toEqual(expected);
    expect(committed).toBe(expected.length);
    expect(res.views.view).toEqual(plain.views.view);
  });

  it('runs an ownWorker node on workers of its own with the same exactly-once view', async () => {
    const jm = new JobManager(exactlyOnceDoc(2), { ...fast, checkpointIntervalMs: 10, ownWorker: ['src'] });
    expect(jm.workers).toBe(3);
    const res = await jm.run();
    expect(res.status, res.reason).toBe('finished');
    expect(res.views.view).toEqual(reference);
  });

  it('runs a group of ownWorker nodes together on workers of their own, across a restart, with the same exactly-once view', async () => {
    const jm = new JobManager(exactlyOnceDoc(2), { ...fast, checkpointIntervalMs: 10, ownWorker: [['src', 'work']], failOnUdfError: true });
    expect(jm.workers).toBe(4);
    jm.throwInUdfAt('work', 700, 1);
    const res = await jm.run();
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBe(1);
    expect(res.views.view).toEqual(reference);
  });

  it('dead-letters a UDF exception by default, and restarts instead with failOnUdfError', async () => {
    const soft = new JobManager(exactlyOnceDoc(2), { ...fast, checkpointIntervalMs: 10 });
    soft.throwInUdfAt('work', 5);
    const a = await soft.run();
    expect(a.status).toBe('finished');
    expect(a.deadLetters.map((d) => d.reason)).toEqual(['processing failed: injected failure at record 5 of work#0']);
    expect(a.views.view.reduce((s, r) => s + (r.n as number), 0)).toBe(2999);

    const strict = new JobManager(exactlyOnceDoc(2), { ...fast, checkpointIntervalMs: 10, failOnUdfError: true });
    strict.throwInUdfAt('work', 500);
    const b = await strict.run();
    expect(b.status, b.reason).toBe('finished');
    expect(b.restarts).toBe(1);
    expect(b.recoveries[0].reason).toMatch(/UDF error in work#0: processing failed: injected failure at record 500/);
    expect(b.deadLetters).toEqual([]);
    expect(b.views.view).toEqual(reference);
  });

  it('fails for good, without a restart, when a worker is stopped for a fault a restart would meet again', async () => {
    // The browser's code watchdog terminates a worker whose code overran its limit and says so as fatal.
    const reason = 'node "work": map code ran longer than the 50 ms limit per batch (a batch of 50, first record {"k":1})';
    const stopped: Spawn = (i) => {
      const w = spawn(i);
      return {
        ...w,
        onFailure: (cb) => {
          w.onFailure(cb);
          if (i === 0) setTimeout(() => cb(reason, true), 20);
        },
      };
    };
    const res = await new JobManager(exactlyOnceDoc(2, { spinUs: 20 }), { ...fast, spawn: stopped, checkpointIntervalMs: 10, batchSize: 50 }).run();
    expect({ status: res.status, reason: res.reason, restarts: res.restarts }).toEqual({ status: 'failed', reason, restarts: 0 });
  });

  it('raises the heartbeat timeout above the code time limit: a worker busy in code within its limit is not restarted', async () => {
    const jm = new JobManager(exactlyOnceDoc(2), { ...fast, heartbeatTimeoutMs: 1000, codeLimits: { timeoutMs: 2000, memoryMb: 256 }, checkpointIntervalMs: 10 });
    const run = jm.run();
    await whenRunning(jm, () => jm.checkpointHistory().some((c) => c.status === 'completed'));
    // Blocks this thread (the in-process worker's) like a batch of code running for 1.5 s, longer than the heartbeat timeout.
    jm.freezeWorker(0, 1500);
    const res = await run;
    expect({ status: res.status, restarts: res.restarts, recoveries: res.recoveries.map((r) => r.reason) }).toEqual({ status: 'finished', restarts: 0, recoveries: [] });
  });

  it('aborts a checkpoint whose snapshot write fails and carries on', async () => {
    const jm = new JobManager(exactlyOnceDoc(2, { spinUs: 5 }), { ...fast, checkpointIntervalMs: 5 });
    jm.failNextSnapshotWrite('disk hiccup');
    const res = await jm.run();
    expect(res.status, res.reason).toBe('finished');
    expect(res.checkpoints[0]).toMatchObject({ status: 'aborted', reason: expect.stringMatching(/snapshot write failed: disk hiccup/) });
    expect(res.checkpoints.some((c) => c.status === 'completed')).toBe(true);
    expect(res.views.view).toEqual(reference);
  });

  it('stops with a clear message when storage is full, keeping the last good checkpoint', async () => {
    const store = new MemoryCheckpointStore();
    const jm = new JobManager(exactlyOnceDoc(2, { spinUs: 30 }), { ...fast, store, checkpointIntervalMs: 5 });
    const run = jm.run();
    await whenRunning(jm, () => jm.checkpointHistory().some((c) => c.status === 'completed'));
    jm.fillStorage();
    const res = await run;
    expect(res.status).toBe('failed');
    expect(res.reason).toMatch(/^checkpoint \d+ failed: .*storage is full \(quota exceeded\).* The job stopped; checkpoint \d+ is the last good one\.$/);
    const last = Number(/checkpoint (\d+) is the last good one/.exec(res.reason!)![1]);
    expect((await store.latest('exactly-once'))?.checkpointId).toBe(last);
  });

  it('rescales from a checkpoint: a job killed at parallelism 2 resumes at parallelism 3', async () => {
    const store = new MemoryCheckpointStore();
    const doc = (p: number) => exactlyOnceDoc(p, { n: 6000, spinUs: 20 });
    const first = new JobManager(doc(2), { ...fast, store, checkpointIntervalMs: 5, restart: { type: 'none' } });
    const run = first.run();
    await whenRunning(first, () => first.checkpointHistory().some((c) => c.status === 'completed'));
    first.killSubtask('work#0');
    const failed = await run;
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/restart attempts exhausted after: subtask work#0 was killed/);
    const latest = (await store.latest('exactly-once'))!;
    const agg = await Promise.all(['agg#0', 'agg#1'].map((id) => store.readSubtask(latest.subtasks[id])));
    expect(agg.some((s) => !s.finished), 'the kill came after the job had finished').toBe(true);
    const second = new JobManager(doc(3), { ...fast, store, resume: true, checkpointIntervalMs: 5 });
    const res = await second.run();
    expect(res.status, res.reason).toBe('finished');
    expect(res.checkpoints[0].checkpointId).toBeGreaterThan(latest.checkpointId);
    expect(res.views.view).toEqual(runPipeline(exactlyOnceDoc(1, { n: 6000 })).views.view);
    expect(sequenceViolations(res.views.view)).toEqual([]);
    // The counters came back with the state, split over 3 subtasks now: each record counted once over both jobs.
    expect(res.stats!.nodes.work.recordsIn).toBe(6000);
    expect(res.stats!.nodes.agg.recordsIn).toBe(6000);
  });

  it('checkpoints IndexedDB state as chunks and restores them after a kill (the browser path)', async () => {
    // One fake IndexedDB shared by all in-process workers, as real IndexedDB is shared by an origin's workers.
    const factory = new IDBFactory();
    const idbSpawn = inProcessSpawn(() => idbPlatform({ factory: async () => factory, chunkedCheckpoints: true, locks: null }));
    const store = new MemoryCheckpointStore();
    const jm = new JobManager(exactlyOnceDoc(2, { spinUs: 20 }), { ...fast, spawn: idbSpawn, store, state: 'indexeddb', checkpointIntervalMs: 10 });
    const run = jm.run();
    await whenRunning(jm, () => jm.checkpointHistory().some((c) => c.status === 'completed'));
    const latest = (await store.latest('exactly-once'))!;
    const agg = await store.readSubtask(latest.subtasks['agg#0']);
    expect(agg.keyed.type).toBe('chunks');
    jm.killSubtask('agg#0');
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBe(1);
    expect(res.views.view).toEqual(reference);
    const completed = res.checkpoints.filter((c) => c.status === 'completed');
    // Incremental: later checkpoints write less than the whole state.
    expect(completed.some((c) => c.incrementalBytes < c.fullBytes)).toBe(true);
  });

  it('reports per-node metrics, per-edge queue fill and checkpoint history', async () => {
    const jm = new JobManager(exactlyOnceDoc(2), { ...fast, checkpointIntervalMs: 5 });
    const res = await jm.run();
    const s = res.stats!;
    expect(s.nodes.agg).toMatchObject({ recordsIn: 3000, subtasks: 2 });
    expect(s.edges.map((e) => e.edge).sort()).toEqual(['agg.out->view.in', 'src.out->work.in', 'work.out->agg.in']);
    for (const e of s.edges) expect(e.maxQueued).toBeLessThanOrEqual(8);
    expect(res.checkpoints.at(-1)).toMatchObject({ status: 'completed' });
    expect(res.checkpoints.at(-1)!.stats.map((x) => x.subtask).sort()).toContain('agg#1');
  });
});
