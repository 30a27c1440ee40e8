import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

// A bounded input that ended before a checkpoint re-runs from its end after a restore: it sends
// end-of-input again, but its final watermark has long been sent. The operator downstream must
// still see that input's time as over, or whatever waits for the watermark (temporal join probes,
// windows, timers) waits forever and the job ends without it.

const customers = Array.from({ length: 6 }, (_, i) => ({ customer_id: `c${i}`, tier: i % 2 ? 'gold' : 'silver', ts: i }));
const orders = Array.from({ length: 400 }, (_, i) => ({ order_id: `o${i}`, customer_id: `c${i % 6}`, ts: 10 + i * 10 }));

function temporalDoc(parallelism: number) {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'finished-input',
    settings: { parallelism: 1 },
    nodes: [
      { id: 'orders', kind: 'inlineSource', params: { rows: orders, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'customers', kind: 'inlineSource', params: { rows: customers, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      // A stateless step that ends with its input: a restored operator must pass the end on as well.
      { id: 'known', kind: 'filter', params: { where: "customer_id <> ''" } },
      { id: 'j', kind: 'temporalJoin', params: { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'] }, parallelism },
      { id: 'view', kind: 'viewSink', params: {}, parallelism },
    ],
    edges: [
      { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
      { from: { node: 'customers', port: 'out' }, to: { node: 'known', port: 'in' } },
      { from: { node: 'known', port: 'out' }, to: { node: 'j', port: 'right' } },
      { from: { node: 'j', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

/** Kills a join subtask once a checkpoint completed after the right side had ended. */
async function runKillingAfterRightEnded(parallelism: number, scheduleSeed: number) {
  const cluster = new LocalCluster(planOrThrow(temporalDoc(parallelism)), { scheduleSeed, checkpointIntervalMs: 20, batchSize: 8, restart: { type: 'fixedDelay', delayMs: 2, maxAttempts: 5 } });
  const rightEnded = () => cluster.subtasks().some((r) => r.node.id === 'known' && r.finished);
  let armed = false;
  let killAfter: number | null = null;
  cluster.onEvent((e) => {
    if (e.type === 'checkpoint' && e.status === 'triggered' && rightEnded()) armed = true;
    if (e.type === 'checkpoint' && e.status === 'completed' && armed && killAfter === null) killAfter = e.checkpointId;
  });
  await cluster.start();
  let killed = false;
  while ((await cluster.step()) === 'running') {
    if (killed || killAfter === null) continue;
    const join = cluster.subtasks().find((r) => r.node.id === 'j' && !r.finished);
    if (!join) continue;
    cluster.kill(join.id);
    killed = true;
  }
  cluster.onEvent(null);
  return { res: cluster.result(), killed };
}

describe('an input that ended before the checkpoint, after a restore', () => {
  const reference = runPipeline(temporalDoc(1)).views.view;

  it('still releases the watermark: every probe of a temporal join is joined', async () => {
    expect(reference).toHaveLength(orders.length);
    for (const [p, seed] of [
      [1, 1],
      [2, 2],
      [3, 3],
    ]) {
      const { res, killed } = await runKillingAfterRightEnded(p, seed);
      expect(killed, `p=${p}: the kill point was never reached`).toBe(true);
      expect(res.status, res.reason).toBe('finished');
      expect(res.restarts, `p=${p}`).toBe(1);
      expect(res.views.view, `p=${p}`).toEqual(reference);
    }
  });
});
