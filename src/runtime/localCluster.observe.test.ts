import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import type { ClusterEvent } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

const rows = Array.from({ length: 400 }, (_, i) => ({ order_id: `o${i % 50}`, amount: i % 17, ts: i * 100 }));
const payments = Array.from({ length: 300 }, (_, i) => ({ order_id: `o${i % 50}`, paid: i % 5, ts: i * 130 }));

const doc = {
  format: 'weir/pipeline',
  version: 1,
  name: 'observe',
  settings: { parallelism: 2 },
  nodes: [
    { id: 'orders', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts' } }, parallelism: 1 },
    { id: 'payments', kind: 'inlineSource', params: { rows: payments, eventTime: { field: 'ts' } }, parallelism: 1 },
    { id: 'j', kind: 'join', params: { type: 'inner', leftKey: ['order_id'], rightKey: ['order_id'] } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['order_id'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'paid', as: 'paid' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
    { from: { node: 'payments', port: 'out' }, to: { node: 'j', port: 'right' } },
    { from: { node: 'j', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};

describe('LocalCluster stepping and observation', () => {
  it('reports barriers on edges, alignment snapshots and completed checkpoints', async () => {
    const events: ClusterEvent[] = [];
    const c = new LocalCluster(planOrThrow(doc), { checkpointIntervalMs: 30, batchSize: 16 });
    c.onEvent((e) => events.push(e));
    const res = await c.run();
    expect(res.status).toBe('finished');
    expect(res.views.view).toEqual(runPipeline(doc).views.view);
    expect(events.some((e) => e.type === 'message' && e.kind === 'barrier' && e.to.startsWith('j#'))).toBe(true);
    const joinSnaps = events.filter((e) => e.type === 'snapshot' && e.subtask.startsWith('j#'));
    expect(joinSnaps.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'checkpoint' && e.status === 'completed').length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ type: 'finished' });
  });

  it('steps one unit at a time, survives a kill requested between steps, and ends with the same view', async () => {
    const c = new LocalCluster(planOrThrow(doc), { checkpointIntervalMs: 20, batchSize: 8 });
    const events: ClusterEvent[] = [];
    c.onEvent((e) => events.push(e));
    await c.start();
    while (!c.checkpointHistory().some((r) => r.status === 'completed')) await c.step();
    for (let i = 0; i < 20; i++) await c.step();
    c.kill('agg#1');
    while ((await c.step()) === 'running');
    expect(events.some((e) => e.type === 'failure' && /agg#1/.test(e.reason))).toBe(true);
    expect(events.some((e) => e.type === 'restored' && e.checkpointId !== null)).toBe(true);
    expect(c.result().views.view).toEqual(runPipeline(doc).views.view);
  });

  it('travels back to an earlier checkpoint and continues to the same final view', async () => {
    const c = new LocalCluster(planOrThrow(doc), { checkpointIntervalMs: 15, batchSize: 8, retain: 10 });
    await c.start();
    while (c.checkpointHistory().filter((r) => r.status === 'completed').length < 3) await c.step();
    const first = c.checkpointHistory().find((r) => r.status === 'completed')!.checkpointId;
    await c.restoreTo(first);
    while ((await c.step()) === 'running');
    expect(c.result().views.view).toEqual(runPipeline(doc).views.view);
  });
});
