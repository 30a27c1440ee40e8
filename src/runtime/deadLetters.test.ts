import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import type { Kill } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { seededRng } from '../core/rng.ts';

/** Bad input rows (a source dead letter) and a UDF that throws on every 50th record (an operator dead letter). */
function doc(parallelism: number) {
  const rows = Array.from({ length: 1200 }, (_, i) => (i % 97 === 5 ? { key: `k${i % 13}`, seq: 'oops', ts: i } : { key: `k${i % 13}`, seq: i, ts: i }));
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'dead-letters',
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows, schema: { key: 'string', seq: 'integer', ts: 'timestamp' }, eventTime: { field: 'ts' } } },
      { id: 'picky', kind: 'map', params: { code: "(row) => { if (row.seq % 50 === 0) throw new Error('no multiples of 50'); return row; }" }, parallelism },
      { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }] }, parallelism },
      { id: 'view', kind: 'viewSink', params: {}, parallelism },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'picky', port: 'in' } },
      { from: { node: 'picky', port: 'out' }, to: { node: 'agg', port: 'in' } },
      { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

const describeDead = (d: { nodeId: string; reason: string; row?: unknown }) => `${d.nodeId} ${d.reason} ${JSON.stringify(d.row)}`;

describe('dead letters across recoveries', () => {
  it('are published exactly once per record, however often a kill makes the job replay them', async () => {
    const plain = runPipeline(doc(1));
    const expected = plain.deadLetters.map(describeDead).sort();
    expect(expected.filter((d) => d.startsWith('src ')).length).toBe(13);
    expect(expected.filter((d) => d.startsWith('picky ')).length).toBeGreaterThan(20);
    const rng = seededRng(99);
    let restarts = 0;
    for (let trial = 0; trial < 12; trial++) {
      const p = 1 + (trial % 3);
      const opts = { scheduleSeed: trial, checkpointIntervalMs: 30, batchSize: 16, restart: { type: 'fixedDelay', delayMs: 5, maxAttempts: 10 } } as const;
      const kills: Kill[] = Array.from({ length: 1 + rng.int(3) }, () => ({ atStep: 50 + rng.int(1500), when: (['any', 'writing'] as const)[rng.int(2)] }));
      const res = await new LocalCluster(planOrThrow(doc(p)), { ...opts, kills }).run();
      expect(res.status, `trial ${trial}: ${res.reason}`).toBe('finished');
      restarts += res.restarts;
      expect(res.deadLetters.map(describeDead).sort(), `trial ${trial}`).toEqual(expected);
      expect(res.views.view, `trial ${trial}`).toEqual(plain.views.view);
    }
    expect(restarts).toBeGreaterThan(8);
  }, 120_000);
});
