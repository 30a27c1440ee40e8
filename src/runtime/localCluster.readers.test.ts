import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow } from '../testing/runPipeline.ts';
import { jsonLinesReader } from '../core/source.ts';

/** src (parallelism 2) → count per key → view. */
const plan = planOrThrow({
  format: 'weir/pipeline',
  version: 1,
  name: 'readers',
  nodes: [
    { id: 'src', kind: 'fileSource', params: { schema: { key: 'string' } }, parallelism: 2 },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

const lines = Array.from({ length: 100 }, (_, i) => JSON.stringify({ key: `k${i % 4}` }));

describe('readers handed to a parallel source', () => {
  it('one per subtask: each split reads its positions of its own stream, so every record counts once', async () => {
    const res = await new LocalCluster(plan, { readers: { src: () => jsonLinesReader(lines) }, batchSize: 3, checkpointIntervalMs: 20, kills: [{ atStep: 60 }] }).run();
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBe(1);
    expect(res.views.view.map((r) => r.n)).toEqual([25, 25, 25, 25]);
  });

  it('one object for every subtask is refused, naming the source and what to change', async () => {
    await expect(new LocalCluster(plan, { readers: { src: jsonLinesReader(lines) } }).run()).rejects.toThrow(
      /source "src" runs at parallelism 2 but is given one reader .*: set its parallelism to 1/,
    );
  });
});
