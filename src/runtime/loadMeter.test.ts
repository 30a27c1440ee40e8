import { describe, expect, it } from 'vitest';
import { LoadMeter } from './loadMeter.ts';
import type { MeteredSubtask } from './loadMeter.ts';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow } from '../testing/runPipeline.ts';

const subtask = (id: string, blocked: () => boolean): MeteredSubtask => ({ id, backpressured: blocked });

describe('LoadMeter', () => {
  it('counts the work between the clock readings of a step as busy for the subtask that ran', () => {
    let now = 0;
    const m = new LoadMeter(() => now);
    const a = subtask('a#0', () => false);
    const t0 = m.stepStart();
    now = 7;
    m.stepDone(t0, a, [a]);
    now = 10;
    m.stepDone(m.stepStart(), null, [a]);
    expect(m.read().get('a#0')).toEqual({ busyMs: 7, backpressuredMs: 0 });
  });

  it('counts blocked time from the check that found it blocked to the check that found it free, between steps too', () => {
    let now = 0;
    let blocked = true;
    const m = new LoadMeter(() => now);
    const src = subtask('src#0', () => blocked);
    const sink = subtask('sink#0', () => false);
    m.stepDone(m.stepStart(), sink, [src, sink]); // at 0: src found blocked
    now = 30; // the host slept between turns: src stays blocked
    expect(m.read().get('src#0')!.backpressuredMs).toBe(30);
    const t0 = m.stepStart();
    now = 34;
    blocked = false; // the sink drained its queue
    m.stepDone(t0, sink, [src, sink]);
    now = 50;
    expect(m.read().get('src#0')).toEqual({ busyMs: 0, backpressuredMs: 34 });
    expect(m.read().get('sink#0')).toEqual({ busyMs: 4, backpressuredMs: 0 });
  });

  it('keeps the times of subtasks that a restart replaced, and watches the new ones', () => {
    let now = 0;
    const m = new LoadMeter(() => now);
    const old = subtask('op#0', () => true);
    m.redeployed([old]);
    now = 5;
    const fresh = subtask('op#0', () => false);
    m.redeployed([fresh]);
    now = 9;
    expect(m.read().get('op#0')).toEqual({ busyMs: 0, backpressuredMs: 5 });
  });
});

const doc = (n: number) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'load',
  settings: { parallelism: 1 },
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: Array.from({ length: n }, (_, i) => ({ k: `k${i % 5}`, v: i })) } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'sum', field: 'v', as: 's' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

describe('LocalCluster load times', () => {
  it('splits the clock between the subtasks that ran, and finds the source backpressured behind a full queue', async () => {
    // Every clock reading is one tick later: each step's work takes exactly one tick.
    let ticks = 0;
    const cluster = new LocalCluster(planOrThrow(doc(400)), { scheduleSeed: 3, batchSize: 4, channelCapacity: 1, loadClock: () => ++ticks });
    const res = await cluster.run();
    expect(res.status).toBe('finished');
    const times = cluster.loadTimes()!;
    const busy = [...times.values()].reduce((s, t) => s + t.busyMs, 0);
    // Two readings per step that ran something; the last read() adds one more tick.
    expect(busy).toBeGreaterThan(0);
    expect(busy).toBeLessThanOrEqual(ticks);
    for (const [id, t] of times) expect(t.busyMs + t.backpressuredMs, id).toBeLessThanOrEqual(ticks);
    expect(times.get('src#0')!.backpressuredMs).toBeGreaterThan(0);
    // A sink sends nothing, so nothing can hold it back.
    expect(times.get('view#0')?.backpressuredMs ?? 0).toBe(0);
  });

  it('measures nothing without a clock', async () => {
    const cluster = new LocalCluster(planOrThrow(doc(10)));
    await cluster.run();
    expect(cluster.loadTimes()).toBeNull();
  });
});
