import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock.ts';
import { SourcePace } from './sourcePace.ts';
import { JobManager } from './jobManager.ts';
import { inProcessSpawn } from './spawn.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { exactlyOnceDoc } from '../../testing/exactlyOncePipelines.ts';

describe('SourcePace', () => {
  it('lets a source read its records per second on the clock, and holds it at 0', () => {
    const clock = new ManualClock(0);
    const pace = new SourcePace(10, clock);
    expect(pace.mayRead('s#0')).toBe(false); // an empty budget at the start: no burst
    clock.advance(100);
    expect(pace.mayRead('s#0')).toBe(true);
    pace.spent('s#0', 3); // a batch overdraws: 1 − 3 = −2 records
    expect(pace.mayRead('s#0')).toBe(false);
    expect(pace.nextReadAt('s#0')).toBe(400); // 3 more records' worth at 10 per second
    clock.advance(300);
    // Refilled while held: due now, so a host that went to sleep wakes at once rather than never.
    expect(pace.nextReadAt('s#0')).toBe(400);
    expect(pace.mayRead('s#0')).toBe(true);
    pace.set(0);
    clock.advance(10_000);
    expect(pace.mayRead('s#0')).toBe(false);
    expect(pace.nextReadAt('s#0')).toBeNull();
    pace.set(null);
    expect(pace.mayRead('s#0')).toBe(true);
  });
});

describe('JobManager.setPace', () => {
  it('finishes a paced job with no checkpoint interval to wake its workers', async () => {
    const doc = exactlyOnceDoc(2, { n: 20, keys: 3 });
    const jm = new JobManager({ ...doc, nodes: doc.nodes.map((n) => (n.id === 'src' ? { ...n, parallelism: 2 } : n)) }, { spawn: inProcessSpawn(), pace: 100, batchSize: 1, heartbeatTimeoutMs: 60_000 });
    const res = await jm.run();
    expect(res.status, res.reason).toBe('finished');
    expect(res.views.view).toEqual(runPipeline(exactlyOnceDoc(1, { n: 20, keys: 3 })).views.view);
  });

  it('holds the sources at pace 0 while checkpoints still complete, and finishes exactly once when let go', async () => {
    const doc = exactlyOnceDoc(2);
    const jm = new JobManager(doc, { spawn: inProcessSpawn(), pace: 0, checkpointIntervalMs: 5, heartbeatTimeoutMs: 60_000 });
    const run = jm.run();
    for (let i = 0; i < 2000 && !jm.checkpointHistory().some((c) => c.status === 'completed'); i++) await new Promise((r) => setTimeout(r, 2));
    expect(jm.checkpointHistory().some((c) => c.status === 'completed')).toBe(true);
    const held = await jm.stats();
    expect(held.nodes.src.recordsOut).toBe(0);
    jm.setPace(null);
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(res.views.view).toEqual(runPipeline(exactlyOnceDoc(1)).views.view);
    expect(res.stats?.nodes.src.recordsOut).toBe(3000);
  });
});
