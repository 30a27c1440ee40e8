// The in-process schedules a plain run uses: sources by their rates in simulated processing
// time, or live on the caller's clock; watermarks, idleness and dead letters as Flink's.
import { describe, expect, it } from 'vitest';
import { jsonLinesReader, liveLinesReader } from '../core/source.ts';
import type { Element } from '../core/types.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { inProcessCluster } from './runInProcess.ts';

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

const line = (customer: string, ts: number) => JSON.stringify({ customer, ts });
const schema = { customer: 'string', ts: 'timestamp' };

/** a (+ b, when given) → union → tumbling 1 s count per customer → log. */
const windowDoc = (sources: string[], idleTimeoutMs?: number) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'live',
  nodes: [
    ...sources.map((id) => ({ id, kind: 'fileSource', params: { schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) } } })),
    ...(sources.length > 1 ? [{ id: 'both', kind: 'union', params: {} }] : []),
    { id: 'per_sec', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }] } },
    { id: 'out', kind: 'logSink', params: {} },
  ],
  edges: [
    ...(sources.length > 1
      ? [...sources.map((id) => ({ from: { node: id, port: 'out' }, to: { node: 'both', port: 'in' } })), { from: { node: 'both', port: 'out' }, to: { node: 'per_sec', port: 'in' } }]
      : [{ from: { node: sources[0], port: 'out' }, to: { node: 'per_sec', port: 'in' } }]),
    { from: { node: 'per_sec', port: 'out' }, to: { node: 'out', port: 'in' } },
  ],
});

describe('a plain run in process', () => {
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
    const ex = inProcessCluster(planOrThrow(d), { batchSize: 2 });
    const seen: number[] = [];
    while (ex.runUntilIdle(1) > 0) seen.push(ex.subtasksOf('u')[0].watermark());
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
      const ex = inProcessCluster(planOrThrow(d), { batchSize: 10 });
      let max = -Infinity;
      while (ex.runUntilIdle(1) > 0) {
        const wm = ex.subtasksOf('u')[0].watermark();
        if (Number.isFinite(wm) && ex.clock.now() < untilClock) max = Math.max(max, wm);
      }
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

describe('the live schedule', () => {
  it('yields when the input has no data yet, fires windows as the watermark advances, and ends like the file run', () => {
    const lines = [line('ann', 100), line('bob', 900), line('ann', 1500), line('ann', 2100), line('bob', 3200)];
    const reader = liveLinesReader('a');
    const out: Element[] = [];
    const ex = inProcessCluster(planOrThrow(windowDoc(['a'])), { readers: { a: reader }, schedule: 'live', onPublish: (_, els) => out.push(...els) });
    expect(ex.runUntilIdle()).toBe(0);
    expect(ex.isFinished()).toBe(false);
    reader.push(lines.slice(0, 2).join('\n') + '\n');
    ex.runUntilIdle();
    expect(out).toEqual([]);
    reader.push(lines[2] + '\n');
    ex.runUntilIdle();
    // ts 1500 moves the watermark to 1499: the first second [0, 1000) fires before the input ends.
    expect(out.map((e) => e.row)).toEqual([expect.objectContaining({ customer: 'ann', n: 1, window_end: 1000 }), expect.objectContaining({ customer: 'bob', n: 1, window_end: 1000 })]);
    reader.push(lines.slice(3).join('\n'));
    ex.runUntilIdle();
    expect(ex.isFinished()).toBe(false);
    reader.end();
    ex.runUntilIdle();
    expect(ex.isFinished()).toBe(true);
    const fileRun = runPipeline(windowDoc(['a']), { readers: { a: jsonLinesReader(lines) } });
    expect(out).toEqual(fileRun.changelogs.out);
  });

  it('marks a silent live input idle after its idle timeout on the caller clock, so the other input drives the watermark', () => {
    const a = liveLinesReader('a');
    const b = liveLinesReader('b');
    const out: Element[] = [];
    const ex = inProcessCluster(planOrThrow(windowDoc(['a', 'b'], 500)), { readers: { a, b }, schedule: 'live', onPublish: (_, els) => out.push(...els) });
    const clock = ex.clock;
    ex.runUntilIdle();
    a.push(`${line('ann', 100)}\n${line('ann', 1600)}\n`);
    clock.set(100);
    ex.runUntilIdle();
    // b has said nothing, but its idle timeout has not passed: the union's watermark waits for b.
    expect(out).toEqual([]);
    clock.set(300);
    a.push(`${line('ann', 1650)}\n`);
    ex.runUntilIdle();
    expect(out).toEqual([]);
    // At 600 b has been silent for 500 ms and a for only 300: b is idle, a alone moves the watermark.
    clock.set(600);
    ex.runUntilIdle();
    expect(out.map((e) => e.row)).toEqual([expect.objectContaining({ customer: 'ann', n: 1, window_end: 1000 })]);
    b.push(`${line('bob', 1700)}\n`);
    ex.runUntilIdle();
    a.end();
    b.end();
    ex.runUntilIdle();
    expect(ex.isFinished()).toBe(true);
    expect(out.map((e) => [e.row.customer, e.row.n])).toEqual([['ann', 1], ['ann', 2], ['bob', 1]]);
  });
});

describe('the simulated schedule with a source that has no data yet', () => {
  it('returns from run() instead of spinning, and continues when data arrives', () => {
    const reader = liveLinesReader('a');
    const ex = inProcessCluster(planOrThrow(windowDoc(['a'])), { readers: { a: reader } });
    expect(ex.runUntilIdle(1000)).toBe(0);
    reader.push(`${line('ann', 100)}\n`);
    expect(ex.runUntilIdle(1000)).toBeGreaterThan(0);
    expect(ex.isFinished()).toBe(false);
    reader.end();
    ex.runUntilIdle();
    expect(ex.isFinished()).toBe(true);
    expect(ex.result().changelogs.out.map((e) => e.row.n)).toEqual([1]);
  });
});
