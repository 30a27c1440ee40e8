import { describe, expect, it } from 'vitest';
import { LocalCluster } from '../localCluster.ts';
import { planOrThrow, runPipeline } from '../../testing/runPipeline.ts';
import { ClusterObserver } from './observer.ts';
import { DEFAULT_REQUEST } from './types.ts';
import type { ObserveRequest } from './types.ts';
import { example, joinDoc, windowDoc } from '../../testing/observeDocs.ts';

function observed(doc: unknown, opts: ConstructorParameters<typeof LocalCluster>[1] = {}, traceEvery = 1) {
  const cluster = new LocalCluster(planOrThrow(doc), opts);
  const obs = new ClusterObserver(cluster, { traceEvery });
  cluster.onEvent((e) => obs.onEvent(e));
  return { cluster, obs };
}

const req = (r: Partial<ObserveRequest>): ObserveRequest => ({ ...DEFAULT_REQUEST, ...r });

describe('ClusterObserver', () => {
  it('orders-payments step by step: an unpaid order waits in the left buffer until its payment arrives', async () => {
    const { cluster, obs } = observed(example('orders-payments.json'), { batchSize: 1, checkpointIntervalMs: null });
    let waiting: string | null = null;
    let matchedLater = false;
    for (let i = 0; i < 1500 && !matchedLater; i++) {
      const r = await cluster.stepUntil('record', 1000);
      if (r.phase !== 'running') break;
      const j = obs.frame(req({ node: 'paid' })).join!;
      expect(j.joinType).toBe('left');
      if (waiting === null) {
        const unmatched = j.left.find((b) => b.matches === 0 && !j.right.some((x) => x.key === b.key));
        if (unmatched) waiting = String(unmatched.key);
      } else matchedLater = j.left.some((b) => b.key === waiting && b.matches > 0) && j.right.some((b) => b.key === waiting);
    }
    expect(waiting).not.toBeNull();
    expect(matchedLater).toBe(true);
  });

  it('records recent join matches, edge rates, changelog kinds, samples and source time points', async () => {
    const { cluster, obs } = observed(example('orders-payments.json'), { batchSize: 4 }, 1);
    await cluster.start();
    let matches = 0;
    for (let i = 0; i < 400; i++) {
      await cluster.step();
      matches += obs.frame(req({ node: 'paid' })).join!.recentMatches.length;
    }
    const f = obs.frame(req({ node: 'paid' }));
    expect(matches).toBeGreaterThan(0);
    const toSink = f.edges.find((e) => e.edge === cluster.plan.edges.find((x) => x.to.node === 'order_status')!.id)!;
    // A left join retracts its padded row when the payment arrives.
    expect(toSink.kinds['+I']).toBeGreaterThan(0);
    expect(toSink.kinds['-D']).toBeGreaterThan(0);
    expect(toSink.sample.length).toBeGreaterThan(0);
    expect(f.edges.some((e) => e.rate > 0)).toBe(true);
    const orders = f.sources.find((s) => s.node === 'orders')!;
    expect(orders.points.length).toBeGreaterThan(10);
    // disorderMs 2000: some orders come after the watermark passed them.
    expect(orders.points.every((p) => p.processingTime <= f.at)).toBe(true);
    expect(f.nodes.find((n) => n.node === 'orders')!.recordsOut).toBeGreaterThan(0);
  });

  it('counts edge rates on the rate clock it is given: records in the last second of that clock', async () => {
    const cluster = new LocalCluster(planOrThrow(example('orders-payments.json')), { batchSize: 4 });
    let wall = 0;
    const obs = new ClusterObserver(cluster, { rateClock: () => wall });
    await cluster.start();
    for (let i = 0; i < 200; i++) await cluster.step();
    const sent = (id: string) => Object.values(obs.frame(req({})).edges.find((e) => e.edge === id)!.kinds).reduce((a, b) => a + b, 0);
    const edge = cluster.plan.edges[0].id;
    expect(sent(edge)).toBeGreaterThan(0);
    // Every record so far arrived at wall time 0: within the last second, whatever the job clock says.
    expect(obs.frame(req({})).edges[0].rate).toBe(sent(edge));
    wall = 1000;
    expect(obs.frame(req({})).edges[0].rate).toBe(0);
    obs.detach();
  });

  it('a tumbling window pane goes pending → fired when the watermark passes, and late rows are shown', async () => {
    const { cluster, obs } = observed(windowDoc(), { batchSize: 1 });
    const seen = new Set<string>();
    let late = 0;
    for (let i = 0; i < 200; i++) {
      const r = await cluster.stepUntil('watermark', 1000);
      const w = obs.frame(req({ node: 'w' })).window!;
      for (const p of w.panes) if (p.start === 0 && p.key === 'u0') seen.add(p.status);
      late = Math.max(late, w.recentLate.length);
      if (r.phase !== 'running') break;
    }
    expect([...seen]).toEqual(['pending', 'fired', 'purged']);
    expect(late).toBe(1);
  });

  it('a window says when its input has ended, rather than reporting the +∞ watermark as none', async () => {
    const { cluster, obs } = observed(windowDoc(), { batchSize: 4 });
    await cluster.stepUntil('watermark', 1000);
    const early = obs.frame(req({ node: 'w' })).window!;
    expect(early.watermarkEnded).toBe(false);
    expect((await cluster.run()).status).toBe('finished');
    const w = obs.frame(req({ node: 'w' })).window!;
    expect(w.watermarkEnded).toBe(true);
    expect(w.watermark).toBeNull();
    expect(JSON.parse(JSON.stringify(w)).watermarkEnded).toBe(true);
  });

  it('shows barrier alignment on a parallel join with checkpoints: a blocked input and barriers on edges', async () => {
    const { cluster, obs } = observed(joinDoc(), { checkpointIntervalMs: 30, batchSize: 16 });
    await cluster.start();
    let aligning: { blockedInputs: string[]; buffered: number } | null = null;
    let barrierOnEdge = false;
    for (let i = 0; i < 5000 && (!aligning || !barrierOnEdge); i++) {
      if ((await cluster.step()) !== 'running') break;
      const f = obs.frame(req({}));
      aligning ??= f.nodes.find((n) => n.node === 'j')!.subtasks.find((s) => s.aligning)?.aligning ?? null;
      barrierOnEdge ||= f.edges.some((e) => e.barriers.length > 0 && e.barriers.every((b) => b.progress > 0 && b.progress <= 1));
    }
    expect(aligning).not.toBeNull();
    expect(aligning!.blockedInputs.length).toBeGreaterThan(0);
    expect(aligning!.blockedInputs[0]).toMatch(/^(left|right)#0$/);
    expect(barrierOnEdge).toBe(true);
    while ((await cluster.step()) === 'running');
    const f = obs.frame(req({}));
    expect(f.checkpoints.some((c) => c.status === 'completed')).toBe(true);
    expect(cluster.result().views.view).toEqual(runPipeline(joinDoc()).views.view);
  });

  it('traces every record in step mode through the join to the sink, with state changes', async () => {
    const { cluster, obs } = observed(example('orders-payments.json'), { batchSize: 2 }, 1);
    for (let i = 0; i < 20; i++) await cluster.stepUntil('record', 1000);
    const trace = obs.frame(req({})).trace;
    expect(trace.length).toBeGreaterThan(10);
    const full = trace.find((t) => t.hops.some((h) => h.node === 'order_status'))!;
    expect(full).toBeDefined();
    const join = full.hops.find((h) => h.node === 'paid')!;
    expect(join.stateChanged).toBe(true);
    expect(join.emitted.length).toBeGreaterThan(0);
    // Trace and scatter points go only to the tab that shows them; nothing is lost meanwhile.
    const other = obs.frame(req({ panel: 'state' }));
    expect(other.trace).toEqual([]);
    expect(other.sources).toEqual([]);
    expect(obs.frame(req({ panel: 'trace' })).trace).toHaveLength(trace.length);
    expect(obs.frame(req({ panel: 'windows' })).sources.length).toBeGreaterThan(0);
  });

  it('tracing every record sends the same channel messages as tracing none: the schedule and the history do not depend on it', async () => {
    const messages = async (traceEvery: number) => {
      const { cluster } = observed(example('orders-payments.json'), { batchSize: 16, checkpointIntervalMs: 40 }, traceEvery);
      const sent: string[] = [];
      cluster.onEvent((e) => void (e.type === 'message' && sent.push(`${e.edge} ${e.from}>${e.to} ${e.kind} ${e.records ?? e.watermark ?? e.checkpointId}`)));
      expect((await cluster.run()).status).toBe('finished');
      return { sent, steps: cluster.stepCount() };
    };
    const every = await messages(1);
    const none = await messages(1e9);
    expect(every.sent.length).toBeGreaterThan(100);
    expect(every.steps).toBe(none.steps);
    expect(every.sent).toEqual(none.sent);
  });

  it('source reads longer than the trace list: the newest traces, numbered by every record read, each followed into the join', async () => {
    const { cluster, obs } = observed(example('orders-payments.json'), { batchSize: 64, checkpointIntervalMs: null }, 1);
    for (let i = 0; i < 6; i++) await cluster.stepUntil('record', 10_000);
    const read = Object.entries(cluster.metrics()).filter(([id]) => id === 'orders' || id === 'payments').reduce((n, [, m]) => n + m.recordsOut, 0);
    const trace = obs.frame(req({ panel: 'trace' })).trace;
    expect(read).toBeGreaterThan(200);
    expect(trace.map((t) => t.seq)).toEqual(Array.from({ length: 50 }, (_, i) => read - 49 + i));
    for (const t of trace) expect(t.hops.map((h) => h.node)).toContain('paid');
  });

  it('diff between two retained checkpoints lists changed keys', async () => {
    const { cluster, obs } = observed(example('sales-by-store.json'), { checkpointIntervalMs: 200, retain: 10, batchSize: 8 }, 100);
    await cluster.start();
    while (cluster.checkpointHistory().filter((c) => c.status === 'completed').length < 3) await cluster.step();
    const done = cluster.checkpointHistory().filter((c) => c.status === 'completed');
    const d = await obs.diff(done[0].checkpointId, done[2].checkpointId);
    const sales = d.operators.find((o) => o.node === 'sales')!;
    expect(sales.changed.length + sales.added.length).toBeGreaterThan(0);
    for (const c of sales.changed) expect(c.before).not.toEqual(c.after);
    await expect(obs.diff(done[0].checkpointId, 999)).rejects.toThrow(/checkpoint 999 is not retained/);
  });

  it('breakpoints: bad conditions and unknown nodes are reported; a matching record is hit once', async () => {
    const { cluster, obs } = observed(example('sales-by-store.json'), { batchSize: 4 }, 100);
    const problems = obs.setBreakpoints([{ node: 'sales', condition: 'amount >' }, { node: 'nope' }, { node: 'sales', condition: 'amount > 50' }]);
    expect(problems.map((p) => p.node)).toEqual(['sales', 'nope']);
    expect(problems[0].message).toMatch(/sales.*does not compile/);
    await cluster.start();
    let hit = null;
    for (let i = 0; i < 2000 && !hit; i++) {
      await cluster.step();
      hit = obs.hit();
    }
    expect(hit!.node).toBe('sales');
    expect(Number(hit!.row.amount)).toBeGreaterThan(50);
    expect(obs.hit()).toBeNull();
  });

  it('pull and push queries on a sink; a missing sink is an error that says what to do', async () => {
    const { cluster, obs } = observed(example('sales-by-store.json'), { batchSize: 8 }, 100);
    await cluster.start();
    const q = { sink: 'sales_by_store', key: null, push: true };
    obs.frame(req({ query: q }));
    for (let i = 0; i < 300; i++) await cluster.step();
    const f = obs.frame(req({ query: q }));
    expect(f.query!.changes.length).toBeGreaterThan(0);
    while ((await cluster.step()) === 'running');
    const final = cluster.result().views.sales_by_store;
    const one = obs.frame(req({ query: { sink: 'sales_by_store', key: { store_id: final[0].store_id }, push: false } })).query!;
    expect(one.rows).toEqual([final[0]]);
    expect(obs.frame(req({ query: { sink: 'sales', key: null, push: false } })).query!.error).toMatch(/not a sink/);
  });

  it('interval join buffers carry their match range and eviction watermark; TTL evictions are counted', async () => {
    const { cluster, obs } = observed(example('deliveries-interval.json'), { batchSize: 8 }, 100);
    await cluster.start();
    let rows: NonNullable<ReturnType<typeof obs.frame>['join']>['left'] = [];
    for (let i = 0; i < 400 && rows.length === 0; i++) {
      await cluster.step();
      rows = obs.frame(req({ node: 'within_hour' })).join!.left;
    }
    expect(rows.length).toBeGreaterThan(0);
    const r = rows[0];
    // lowerBoundMs 0, upperBoundMs 1 h: a left row matches right rows in [ts, ts + 1 h].
    expect(r.range).toEqual([r.ts, r.ts! + 3_600_000]);
    expect(r.evictAfter).toBeGreaterThanOrEqual(r.range![1]);

    const doc = joinDoc();
    (doc.nodes as { id: string; params: Record<string, unknown> }[]).find((n) => n.id === 'j')!.params.ttlMs = 20;
    const ttl = observed(doc, { batchSize: 4 }, 100);
    expect((await ttl.cluster.run()).status).toBe('finished');
    expect(ttl.obs.frame(req({ node: 'j' })).join!.evicted.ttl).toBeGreaterThan(0);
  });
});
