import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { processSpec } from '../../pipeline/kinds/process.ts';

const keyed = { inputs: { in: { keyedBy: ['user'] } } };

/** Counts a key's records until its timer fires, then reports and resets. */
const sessionCounter = `({
  state: { count: { kind: 'value' } },
  processElement(row, ctx) {
    const n = (ctx.state.count.value() ?? 0) + 1;
    ctx.state.count.update(n);
    if (row.cancel !== undefined) ctx.timerService.deleteEventTimeTimer(row.cancel);
    else if (n === 1) ctx.timerService.registerEventTimeTimer(ctx.timestamp + 100);
    if (row.ptimer !== undefined) ctx.timerService.registerProcessingTimeTimer(row.ptimer);
    if (row.pcancel !== undefined) ctx.timerService.deleteProcessingTimeTimer(row.pcancel);
  },
  onTimer(timestamp, ctx) {
    ctx.emit({ key: ctx.key, fired: timestamp, at: ctx.timestamp, domain: ctx.timeDomain, count: ctx.state.count.value() ?? 0, wm: String(ctx.currentWatermark()), pt: ctx.currentProcessingTime() });
    ctx.state.count.clear();
  },
})`;

const harness = () => new OperatorHarness('process', { code: sessionCounter }, keyed);

describe('process: timers', () => {
  it('fires event-time timers per key once the watermark reaches them, with the timer time as event time', () => {
    const h = harness();
    h.processElement({ user: 'a' }, { ts: 10 }).processElement({ user: 'a' }, { ts: 20 }).processElement({ user: 'b' }, { ts: 50 });
    h.processWatermark(109);
    expect(h.output()).toEqual([]);
    h.processWatermark(110);
    expect(h.output()).toEqual([{ kind: '+I', ts: 110, row: { key: 'a', fired: 110, at: 110, domain: 'event', count: 2, wm: '110', pt: 0 } }]);
    h.processWatermark(1000);
    expect(h.output().map((e) => [e.ts, e.row.key, e.row.count])).toEqual([
      [110, 'a', 2],
      [150, 'b', 1],
    ]);
    expect(h.task.timers.count()).toBe(0);
  });

  it('deletes an event-time timer so that it never fires', () => {
    const h = harness();
    h.processElement({ user: 'a' }, { ts: 10 }).processElement({ user: 'b' }, { ts: 10 });
    h.processElement({ user: 'a', cancel: 110 }, { ts: 20 });
    h.processWatermark(500);
    expect(h.output().map((e) => e.row.key)).toEqual(['b']);
  });

  it('fires processing-time timers as processing time passes, with no event time, and honours deletion', () => {
    const h = harness();
    h.processElement({ user: 'c', ptimer: 500 }, { ts: 1 });
    h.processElement({ user: 'd', ptimer: 700 }, { ts: 2 }).processElement({ user: 'd', pcancel: 700 }, { ts: 3 });
    h.setProcessingTime(499);
    expect(h.output()).toEqual([]);
    h.setProcessingTime(800);
    expect(h.output()).toEqual([{ kind: '+I', ts: null, row: { key: 'c', fired: 500, at: 500, domain: 'processing', count: 1, wm: '-Infinity', pt: 800 } }]);
  });

  it('keeps one timer per key and time, as Flink does', () => {
    const h = new OperatorHarness('process', { code: '({ processElement(row, ctx) { ctx.timerService.registerEventTimeTimer(100); }, onTimer(t, ctx) { ctx.emit({ t }); } })' }, keyed);
    h.processElement({ user: 'a' }, { ts: 1 }).processElement({ user: 'a' }, { ts: 2 }).processWatermark(100);
    expect(h.lines()).toEqual(['+I {"t":100}']);
  });

  it('restores state and timers into a fresh operator and continues identically', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ user: `u${i % 4}`, ...(i % 7 === 3 ? { ptimer: 1000 + i } : {}) }));
    const feed = (h: OperatorHarness, from: number, to: number) => rows.slice(from, to).forEach((r, j) => h.processElement(r, { ts: (from + j) * 10 }).processWatermark((from + j) * 10 - 60));
    const a = harness();
    const b = harness();
    feed(a, 0, 15);
    const restored = a.restored(a.snapshot());
    feed(b, 0, 30);
    feed(restored, 15, 30);
    for (const h of [b, restored]) h.processWatermark(Infinity).setProcessingTime(5000);
    expect(restored.lines()).toEqual(b.lines().slice(a.output().length));
    expect(restored.lines().some((l) => l.includes('"domain":"processing"'))).toBe(true);
  });
});

describe('process: in a pipeline', () => {
  it('reports clicks per user within 100 ms of their first click', () => {
    const clicks = [
      { user: 'ann', ts: 0 },
      { user: 'bob', ts: 30 },
      { user: 'ann', ts: 60 },
      { user: 'bob', ts: 120 },
      { user: 'ann', ts: 150 },
      { user: 'bob', ts: 400 },
    ];
    // One record per poll, so that each watermark (max ts − 1) follows its own record.
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'click-sessions',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: clicks, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
        { id: 'byUser', kind: 'keyBy', params: { key: ['user'] } },
        { id: 'proc', kind: 'process', params: { code: sessionCounter } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'byUser', port: 'in' } },
        { from: { node: 'byUser', port: 'out' }, to: { node: 'proc', port: 'in' } },
        { from: { node: 'proc', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    }, { batchSize: 1 });
    expect(run.deadLetters).toEqual([]);
    expect(run.changelogs.out.map((e) => [e.ts, e.row.key, e.row.count])).toEqual([
      [100, 'ann', 2],
      [130, 'bob', 2],
      [250, 'ann', 1],
      [500, 'bob', 1],
    ]);
  });

  it('declares an append-only output that keeps event time only if the schema has its field', () => {
    const input = { fields: null, eventTime: 'ts', keyedBy: ['user'], changelog: 'append' as const, uniqueKey: null };
    const out = (outputSchema?: Record<string, 'string' | 'timestamp'>) =>
      processSpec.infer({ nodeId: 'p', params: { code: '({ processElement() {} })', outputSchema }, inputs: { in: input }, inputLists: { in: [input] } }).outputs.out;
    expect(out()).toEqual({ fields: null, eventTime: 'ts', keyedBy: null, changelog: 'append', uniqueKey: null });
    expect(out({ user: 'string' }).eventTime).toBe(null);
    expect(out({ user: 'string', ts: 'timestamp' })).toMatchObject({ fields: { user: 'string', ts: 'timestamp' }, eventTime: 'ts' });
  });
});
