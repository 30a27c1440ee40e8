import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import type { ClusterEvent } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { joinDoc } from '../testing/observeDocs.ts';

/** Nothing but sources could run, or what is queued waits behind an aligning barrier. */
function settled(c: LocalCluster): boolean {
  return c.subtasks().every((r) => r.source || !r.runnable());
}

describe('LocalCluster.stepUntil', () => {
  it('stops after a barrier left the sources and everything it caused settled', async () => {
    const c = new LocalCluster(planOrThrow(joinDoc()), { checkpointIntervalMs: 40, batchSize: 8 });
    const events: ClusterEvent[] = [];
    c.onEvent((e) => events.push(e));
    const r = await c.stepUntil('barrier', 10_000);
    expect(r.reached).toBe(true);
    expect(r.sourceBarriers).toBeGreaterThan(0);
    expect(settled(c)).toBe(true);
    const barriers = events.filter((e) => e.type === 'message' && e.kind === 'barrier');
    expect(barriers.length).toBeGreaterThan(0);
    // Both sources injected the barrier, so it aligned at the join and crossed the graph to every sink subtask.
    const id = (barriers[0] as { checkpointId: number }).checkpointId;
    const sinks = new Set(barriers.filter((e) => e.type === 'message' && e.to.startsWith('view#') && e.checkpointId === id).map((e) => (e as { to: string }).to));
    expect(sinks).toEqual(new Set(['view#0', 'view#1']));
    expect(c.subtasks().some((s) => s.isAligning())).toBe(false);
  });

  it('record by record: each step reads one record and settles; the run still ends with the same view', async () => {
    const c = new LocalCluster(planOrThrow(joinDoc()), { batchSize: 1 });
    let records = 0;
    for (;;) {
      const r = await c.stepUntil('record', 10_000);
      if (!r.reached) break;
      expect(r.sourceRecords).toBe(1);
      expect(settled(c)).toBe(true);
      records += r.sourceRecords;
      if (r.phase !== 'running') break;
    }
    expect(records).toBe(700);
    while ((await c.step()) === 'running');
    expect(c.result().views.view).toEqual(runPipeline(joinDoc()).views.view);
  });

  it('watermark steps and a bounded stepUntil that cannot reach its target', async () => {
    const c = new LocalCluster(planOrThrow(joinDoc()), { batchSize: 4, checkpointIntervalMs: null });
    const w = await c.stepUntil('watermark', 10_000);
    expect(w.reached).toBe(true);
    expect(w.sourceWatermarks).toBeGreaterThan(0);
    // No checkpoints are configured, so no barrier ever comes: it stops at maxSteps.
    const b = await c.stepUntil('barrier', 50);
    expect(b).toMatchObject({ reached: false, steps: 50 });
  });
});
