import { describe, expect, it } from 'vitest';
import { WorkersSession } from './workersSession.ts';
import type { ParallelJob } from './workersSession.ts';
import { EngineSessions } from './engineSessions.ts';
import { ClusterSession } from './clusterSession.ts';
import { JobManager } from '../runtime/threaded/jobManager.ts';
import { inProcessSpawn } from '../runtime/threaded/spawn.ts';
import { runPipeline } from '../testing/runPipeline.ts';
import { exactlyOnceDoc } from '../testing/exactlyOncePipelines.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import type { LoadOptions, RunSnapshot } from './protocol.ts';

// The designer's session on worker threads, with "workers" that are MessageChannels in this thread
// (the whole JobManager protocol without thread start-up); BrowserJob puts real Web Workers there.
const start = (doc: PipelineDocument, opts: ConstructorParameters<typeof JobManager>[1] extends infer O ? Omit<O, 'spawn'> : never): ParallelJob => {
  const manager = new JobManager(doc, { ...opts, spawn: inProcessSpawn(), heartbeatTimeoutMs: 60_000, restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 5 } });
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

/** Every 50th record makes the map throw: a dead letter each, which must be counted once across a recovery. */
function docWithDeadLetters(p: number): PipelineDocument {
  const doc = exactlyOnceDoc(p) as unknown as PipelineDocument;
  return { ...doc, nodes: doc.nodes.map((n) => (n.id === 'work' ? { ...n, params: { code: "(row) => { if (row.seq % 50 === 0) throw new Error('bad seq ' + row.seq); return { ...row }; }" } } : n)) };
}

function harness() {
  const session = new WorkersSession({ start });
  const snaps: RunSnapshot[] = [];
  session.onSnapshot((s) => void snaps.push(s));
  const last = () => snaps[snaps.length - 1];
  const until = async (what: string, cond: (s: RunSnapshot) => boolean) => {
    for (let i = 0; i < 3000; i++) {
      if (snaps.length && cond(last())) return last();
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`never reached: ${what}; last status ${last()?.status}, log:\n${snaps.flatMap((s) => s.log.map((l) => l.message)).join('\n')}`);
  };
  const log = () => snaps.flatMap((s) => s.log);
  return { session, last, until, log };
}

const opts: LoadOptions = { speed: null, checkpointIntervalMs: 10, jobId: 'workers-session' };

describe('WorkersSession', () => {
  it('runs a parallel job on workers to the end with the in-process views, committed output only', async () => {
    const { session, until } = harness();
    const doc = exactlyOnceDoc(2) as unknown as PipelineDocument;
    expect((await session.load(doc, opts)).ok).toBe(true);
    session.setSinkWindow('view', 0, 1000);
    session.run();
    const end = await until('finished', (s) => s.status === 'finished');
    expect(end.runsOn).toBe('workers');
    expect(end.threads).toBe(2);
    expect(end.records).toBe(3000);
    expect(end.sinks.view.rows).toEqual(runPipeline(exactlyOnceDoc(1)).views.view);
    expect(end.metrics.agg.recordsIn).toBe(3000);
    expect(end.frame?.checkpoints.some((c) => c.status === 'completed')).toBe(true);
    await session.stop();
  });

  it('holds the job while paused, restores a killed subtask, and counts each dead letter once', async () => {
    const { session, until, log } = harness();
    const doc = docWithDeadLetters(2);
    const reference = runPipeline(docWithDeadLetters(1));
    expect((await session.load(doc, { ...opts, speed: 2000 })).ok).toBe(true);
    session.setSinkWindow('view', 0, 1000);
    session.run();
    await until('two checkpoints and some dead letters', (s) => s.checkpoints >= 2 && (s.deadLetters.work ?? 0) > 0);
    session.pause();
    const paused = await until('paused', (s) => s.status === 'paused');
    session.killSubtask('agg#1');
    await until('the restart', (s) => s.restarts === 1 && s.metrics.agg !== undefined);
    // Still held after the restore: the restarted sources read nothing until Run.
    await new Promise((r) => setTimeout(r, 100));
    expect(log().some((l) => /job restarted from checkpoint \d+ \(attempt 2\)/.test(l.message))).toBe(true);
    expect(paused.records).toBeLessThan(3000);
    session.setSpeed(null);
    session.run();
    const end = await until('finished', (s) => s.status === 'finished');
    expect(end.restarts).toBe(1);
    expect(end.sinks.view.rows).toEqual(reference.views.view);
    expect(reference.deadLetters.length).toBe(37); // seq 50 of each of the 37 keys
    expect(end.deadLetters.work).toBe(37);
    const deadLines = log().filter((l) => l.message.startsWith('dead letter:')).length + log().filter((l) => /more dead letters/.test(l.message)).reduce((n, l) => n + Number(/(\d+) more/.exec(l.message)![1]), 0);
    expect(deadLines).toBe(37);
    await session.stop();
  });

  it('refuses what needs the in-process runtime, saying how to get it', async () => {
    const { session, log } = harness();
    await session.load(exactlyOnceDoc(2) as unknown as PipelineDocument, opts);
    expect(session.refuse('stepping back').message).toMatch(/needs the run in one worker.*Run in: one worker/);
    expect(log().some((l) => l.level === 'warn' && l.message.startsWith('stepping back needs the run in one worker'))).toBe(true);
    await session.stop();
  });

  it('runs a job on workers only when asked and some node is parallel', async () => {
    const sessions = new EngineSessions(new ClusterSession(), new WorkersSession({ start }));
    const seen: RunSnapshot[] = [];
    sessions.onSnapshot((s) => void seen.push(s));
    await sessions.load(exactlyOnceDoc(2) as unknown as PipelineDocument, { ...opts, runtime: 'workers' });
    expect(sessions.runsOn).toBe('workers');
    expect(seen.at(-1)?.runsOn).toBe('workers');
    await sessions.load(exactlyOnceDoc(1) as unknown as PipelineDocument, { ...opts, runtime: 'workers' });
    expect(sessions.runsOn).toBe('inProcess');
    expect(seen.at(-1)?.runsOn).toBeUndefined();
    await sessions.load(exactlyOnceDoc(2) as unknown as PipelineDocument, { ...opts, runtime: 'inProcess' });
    expect(sessions.runsOn).toBe('inProcess');
    await sessions.inProcess.stop();
  });
});
