import { describe, expect, it } from 'vitest';
import { Executor } from './executor.ts';
import type { StepEvent } from './executor.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';

const doc = (nodes: unknown[], edges: [string, string, string?, string?][], settings: Record<string, unknown> = {}) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 't',
  settings,
  nodes,
  edges: edges.map(([a, b, fp = 'out', tp = 'in']) => ({ from: { node: a, port: fp }, to: { node: b, port: tp } })),
});

const rows = (n: number, f: (i: number) => Record<string, unknown>) => Array.from({ length: n }, (_, i) => f(i));

const salesDoc = doc(
  [
    { id: 'tx', kind: 'inlineSource', params: { rows: rows(500, (i) => ({ store: `s${i % 13}`, amount: (i * 7) % 31, ts: i * 10 })), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
    { id: 'big', kind: 'filter', params: { where: 'amount > 3' } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['store'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'amount', as: 'total' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  [
    ['tx', 'big'],
    ['big', 'agg'],
    ['agg', 'view'],
  ],
);

describe('Executor', () => {
  it('is deterministic: the same document gives the same changelog', () => {
    const a = runPipeline(salesDoc);
    const b = runPipeline(salesDoc);
    expect(a.changelogs.view).toEqual(b.changelogs.view);
    expect(a.views.view).toHaveLength(13);
  });

  it('gives the same view whatever the batch size', () => {
    const big = runPipeline(salesDoc, { batchSize: 1000 });
    const small = runPipeline(salesDoc, { batchSize: 1 });
    expect(small.views.view).toEqual(big.views.view);
  });

  it('steps one record at a time and reports what moved where', () => {
    const ex = new Executor(planOrThrow(salesDoc), { batchSize: 1 });
    const first = ex.step()!;
    expect(first).toEqual([expect.objectContaining({ type: 'source', node: 'tx', records: 1 })]);
    const second = ex.step()!;
    expect(second[0]).toMatchObject({ type: 'records', from: 'tx', to: 'big', port: 'in' });
    expect((second[0] as Extract<StepEvent, { type: 'records' }>).elements).toHaveLength(1);
  });

  it('restores a snapshot taken mid-run and ends with the same view and changelog tail', () => {
    const plan = planOrThrow(salesDoc);
    const straight = new Executor(plan, { batchSize: 16 });
    straight.run();
    const first = new Executor(plan, { batchSize: 16 });
    first.run(37);
    first.drainInFlight();
    const snap = structuredClone(first.snapshot());
    const resumed = new Executor(plan, { batchSize: 16 });
    resumed.restore(snap);
    resumed.run();
    expect(resumed.view('view')).toEqual(straight.view('view'));
    const before = first.changelog('view').length;
    expect([...first.changelog('view'), ...resumed.changelog('view')]).toEqual(straight.changelog('view').slice(0, before + resumed.changelog('view').length));
  });

  it('takes the minimum watermark over its inputs', () => {
    const d = doc(
      [
        { id: 'a', kind: 'inlineSource', params: { rows: rows(5, (i) => ({ ts: 1000 + i })), eventTime: { field: 'ts' } } },
        { id: 'b', kind: 'inlineSource', params: { rows: rows(5, (i) => ({ ts: 10 + i })), eventTime: { field: 'ts' } } },
        { id: 'u', kind: 'union', params: {} },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      [
        ['a', 'u'],
        ['b', 'u'],
        ['u', 'out'],
      ],
    );
    const ex = new Executor(planOrThrow(d), { batchSize: 2 });
    const seen: number[] = [];
    ex.onTrace((e) => {
      if (e.type === 'watermark' && e.to === 'u') seen.push(e.nodeWatermark);
    });
    ex.run();
    // a runs ahead (1000+), but the union never passes b's event time until both end.
    const finite = seen.filter(Number.isFinite);
    expect(finite.length).toBeGreaterThan(0);
    expect(Math.max(...finite)).toBeLessThanOrEqual(13);
    expect(seen.at(-1)).toBe(Infinity);
  });

  it('stops waiting for an idle source after its idle timeout', () => {
    const make = (idle?: number) =>
      doc(
        [
          { id: 'fast', kind: 'inlineSource', params: { rows: rows(400, (i) => ({ ts: i * 10 })), ratePerSec: 100, eventTime: { field: 'ts' } } },
          { id: 'slow', kind: 'inlineSource', params: { rows: [{ ts: 0 }, { ts: 4000 }], ratePerSec: 0.25, eventTime: { field: 'ts', ...(idle ? { idleTimeoutMs: idle } : {}) } } },
          { id: 'u', kind: 'union', params: {} },
          { id: 'out', kind: 'collectSink', params: {} },
        ],
        [
          ['fast', 'u'],
          ['slow', 'u'],
          ['u', 'out'],
        ],
      );
    const maxFiniteWatermarkBefore = (d: unknown, untilClock: number) => {
      const ex = new Executor(planOrThrow(d), { batchSize: 10 });
      let max = -Infinity;
      ex.onTrace((e) => {
        if (e.type === 'watermark' && e.to === 'u' && Number.isFinite(e.nodeWatermark) && ex.clock.now() < untilClock) max = Math.max(max, e.nodeWatermark);
      });
      ex.run();
      return max;
    };
    expect(maxFiniteWatermarkBefore(make(), 3900)).toBe(-1);
    expect(maxFiniteWatermarkBefore(make(500), 3900)).toBeGreaterThan(3000);
  });

  it('sends records without event time to the dead-letter output and counts them', () => {
    const d = doc(
      [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ ts: 1, v: 1 }, { v: 2 }, { ts: 'soon', v: 3 }, { ts: 4, v: 'x' }], schema: { ts: 'timestamp', v: 'integer' }, eventTime: { field: 'ts' } } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      [['src', 'out']],
    );
    const run = runPipeline(d);
    expect(run.views.out).toEqual([{ ts: 1, v: 1 }]);
    expect(run.deadLetters.map((x) => [x.nodeId, x.line, x.reason])).toEqual([
      ['src', 2, 'no event time: field "ts" is missing or not a timestamp'],
      ['src', 3, 'field "ts": expected a timestamp (epoch ms or ISO-8601 text), got "soon" (string)'],
      ['src', 4, 'field "v": expected integer, got "x" (string)'],
    ]);
    expect(run.job.metrics().src.deadLetters).toBe(3);
  });
});
