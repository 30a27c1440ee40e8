import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

// A log sink holds a multiset of rows whatever its input's unique key is, so the cluster's view
// must list its rows in the order one subtask's table does.
function doc(parallelism: number) {
  const rows = Array.from({ length: 12 }, (_, i) => ({ g: `g${i % 2}`, v: i }));
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'top-n-into-log-sink',
    settings: { parallelism },
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { schema: { g: 'string', v: 'integer' }, rows } },
      { id: 'top', kind: 'topN', params: { partitionBy: ['g'], orderBy: [{ field: 'v', direction: 'desc' }], n: 3, rankField: 'rank' } },
      { id: 'log', kind: 'logSink', params: {} },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'top', port: 'in' } },
      { from: { node: 'top', port: 'out' }, to: { node: 'log', port: 'in' } },
    ],
  };
}

describe('merged views of a log sink fed by an updating stream with a unique key', () => {
  const expected = runPipeline(doc(1)).views.log;
  for (const p of [1, 3]) {
    it(`lists the rows as one subtask's table does at parallelism ${p}`, async () => {
      expect(expected).toHaveLength(6);
      const res = await new LocalCluster(planOrThrow(doc(p)), { batchSize: 4 }).run();
      expect(res.status, res.reason).toBe('finished');
      expect(res.views.log).toEqual(expected);
    });
  }
});
