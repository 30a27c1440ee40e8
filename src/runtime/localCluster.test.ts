import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import type { Kill } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { seededRng } from '../core/rng.ts';

function sequenceRows(n: number, keys: number) {
  const seq = new Map<string, number>();
  return Array.from({ length: n }, (_, i) => {
    const key = `k${(i * 7) % keys}`;
    const s = (seq.get(key) ?? 0) + 1;
    seq.set(key, s);
    return { key, seq: s, amount: (i * 13) % 100, ts: i * 10 };
  });
}

function exactlyOnceDoc(parallelism: number, n = 3000) {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'exactly-once',
    settings: { parallelism: 1 },
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows: sequenceRows(n, 37), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'big', kind: 'filter', params: { where: 'amount >= 0' }, parallelism },
      { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'seq', as: 'maxSeq' }, { fn: 'countDistinct', field: 'seq', as: 'distinctSeq' }, { fn: 'sum', field: 'amount', as: 'total' }] }, parallelism },
      { id: 'view', kind: 'viewSink', params: {}, parallelism },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'big', port: 'in' } },
      { from: { node: 'big', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

/** Flink's SemanticsCheckMapper, applied to the final view: every key saw 1..n exactly once. */
function assertSequencesExact(rows: Record<string, unknown>[]) {
  for (const r of rows) {
    expect(r.n, `key ${r.key}`).toBe(r.maxSeq);
    expect(r.distinctSeq, `key ${r.key}`).toBe(r.n);
  }
}

describe('LocalCluster', () => {
  it('matches the plain in-process run at parallelism 1 to 4', async () => {
    for (const p of [1, 2, 3, 4]) {
      const doc = exactlyOnceDoc(p);
      const reference = runPipeline(exactlyOnceDoc(1)).views.view;
      const res = await new LocalCluster(planOrThrow(doc), { scheduleSeed: p, checkpointIntervalMs: 50 }).run();
      expect(res.status).toBe('finished');
      expect(res.views.view).toEqual(reference);
      assertSequencesExact(res.views.view);
      expect(res.checkpoints.filter((c) => c.status === 'completed').length).toBeGreaterThan(0);
    }
  });

  it('survives seeded kills, including during alignment and during snapshot writes, with exactly-once views', async () => {
    const reference = runPipeline(exactlyOnceDoc(1)).views.view;
    const rng = seededRng(2024);
    const modes: Kill['when'][] = ['any', 'aligning', 'writing'];
    let restarts = 0;
    const horizon = new Map<number, number>();
    for (let trial = 0; trial < 54; trial++) {
      const p = 1 + (trial % 4);
      const opts = { scheduleSeed: trial, checkpointIntervalMs: 40, batchSize: 32, restart: { type: 'fixedDelay', delayMs: 10, maxAttempts: 10 } } as const;
      if (!horizon.has(p)) horizon.set(p, (await new LocalCluster(planOrThrow(exactlyOnceDoc(p)), opts).run()).steps);
      const kills: Kill[] = Array.from({ length: 1 + rng.int(3) }, () => ({ atStep: 1 + rng.int(Math.floor(horizon.get(p)! * 0.8)), when: modes[rng.int(3)] }));
      const res = await new LocalCluster(planOrThrow(exactlyOnceDoc(p)), { ...opts, kills }).run();
      expect(res.status, `trial ${trial}: ${res.reason}`).toBe('finished');
      restarts += res.restarts;
      expect(res.views.view, `trial ${trial}`).toEqual(reference);
      assertSequencesExact(res.views.view);
      // The published changelog replays to the same view: nothing was emitted twice or lost.
      const latest = new Map<string, unknown>();
      for (const e of res.changelogs.view) {
        if (e.kind === '+I' || e.kind === '+U') latest.set(String(e.row.key), e.row);
        else latest.delete(String(e.row.key));
      }
      expect([...latest.values()].length, `trial ${trial}`).toBe(reference.length);
    }
    // Most trials really were interrupted, most of them more than once.
    expect(restarts).toBeGreaterThan(60);
  }, 240_000);

  it('fails with a clear reason when restart attempts run out', async () => {
    const res = await new LocalCluster(planOrThrow(exactlyOnceDoc(2)), { kills: [{ atStep: 10 }, { atStep: 20 }], restart: { type: 'fixedDelay', delayMs: 1, maxAttempts: 1 } }).run();
    expect(res.status).toBe('failed');
    expect(res.reason).toMatch(/restart attempts exhausted after: subtask .* was killed at step/);
  });
});
