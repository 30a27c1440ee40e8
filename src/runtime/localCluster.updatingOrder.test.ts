import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

// A left join keyed by customer emits, per order, the NULL-padded row and later its -D followed
// by the +I of the matched row. Both carry the same order id, so a view keyed by order id must
// see them in that order. A stateless step between the join and the view must not re-hash the
// updating stream by whole rows: the -D and the +I would take two channels and the -D could
// overtake the +I, deleting the matched row.
function doc(parallelism: number, stepParallelism = parallelism) {
  const orders = Array.from({ length: 90 }, (_, i) => ({ order_id: `o${i}`, customer_id: `c${i % 30}`, amount: i }));
  const customers = Array.from({ length: 30 }, (_, i) => ({ customer_id: `c${i}`, name: `Customer ${i}` }));
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'left-join-project-upsert-view',
    settings: { parallelism },
    nodes: [
      { id: 'orders', kind: 'inlineSource', params: { schema: { order_id: 'string', customer_id: 'string', amount: 'number' }, rows: orders } },
      { id: 'customers', kind: 'inlineSource', params: { schema: { customer_id: 'string', name: 'string' }, rows: customers } },
      { id: 'named', kind: 'join', params: { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'] } },
      { id: 'slim', kind: 'project', parallelism: stepParallelism, params: { fields: [{ name: 'order_id', expr: '`order_id`' }, { name: 'name', expr: '`name`' }, { name: 'amount', expr: '`amount`' }] } },
      { id: 'view', kind: 'viewSink', params: { primaryKey: ['order_id'] } },
    ],
    edges: [
      { from: { node: 'orders', port: 'out' }, to: { node: 'named', port: 'left' } },
      { from: { node: 'customers', port: 'out' }, to: { node: 'named', port: 'right' } },
      { from: { node: 'named', port: 'out' }, to: { node: 'slim', port: 'in' } },
      { from: { node: 'slim', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

describe('an updating stream without a unique key through a stateless step at parallelism 3', () => {
  const expected = runPipeline(doc(1)).views.view;

  it('keeps every change of one order in order, so the upsert view holds every matched row', async () => {
    expect(expected).toHaveLength(90);
    expect(expected.every((r) => r.name !== null)).toBe(true);
    for (const scheduleSeed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const res = await new LocalCluster(planOrThrow(doc(3)), { scheduleSeed, batchSize: 4, checkpointIntervalMs: 50 }).run();
      expect(res.status, res.reason).toBe('finished');
      expect(res.views.view, `schedule seed ${scheduleSeed}`).toEqual(expected);
    }
  });

  it('keeps every matched row when the step runs at another parallelism and re-hashes by whole rows', async () => {
    // Here the -D may overtake the +I; the view, keyed by other fields than its input's, keeps
    // every live row of a key (as Flink's SinkUpsertMaterializer) so a retraction removes only its own.
    for (const scheduleSeed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const res = await new LocalCluster(planOrThrow(doc(3, 2)), { scheduleSeed, batchSize: 4, checkpointIntervalMs: 50 }).run();
      expect(res.status, res.reason).toBe('finished');
      expect(res.deadLetters).toEqual([]);
      expect(res.views.view, `schedule seed ${scheduleSeed}`).toEqual(expected);
    }
  });
});
