import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import type { RowKind } from '../../core/types.ts';

type Step = { row: Record<string, unknown>; kind?: RowKind } | { wm: number };

/** Out-of-order records, some retracted, some late, with a watermark every few records. */
function script(seed: number): Step[] {
  let x = seed;
  const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % m);
  const steps: Step[] = [];
  const live: Record<string, unknown>[] = [];
  let maxTs = -500;
  for (let i = 0; i < 120; i++) {
    const ts = maxTs - 300 + next(400);
    maxTs = Math.max(maxTs, ts);
    const row = { k: `k${next(3)}`, v: next(50), ts };
    steps.push({ row });
    live.push(row);
    if (i % 7 === 3) steps.push({ row: live.splice(next(live.length), 1)[0], kind: '-D' });
    if (i % 4 === 0) steps.push({ wm: maxTs - 150 });
  }
  return steps;
}

function play(h: OperatorHarness, steps: Step[]): void {
  for (const s of steps) {
    if ('wm' in s) h.processWatermark(s.wm);
    else h.processElement(s.row, { kind: s.kind });
  }
}

const aggregates = [
  { fn: 'count', as: 'n' },
  { fn: 'sum', field: 'v', as: 's' },
  { fn: 'min', field: 'v', as: 'lo' },
];
const shapes: Record<string, Record<string, unknown>> = {
  tumble: { type: 'tumble', sizeMs: 200, offsetMs: 30 },
  'tumble with lateness': { type: 'tumble', sizeMs: 200, allowedLatenessMs: 120 },
  hop: { type: 'hop', sizeMs: 300, slideMs: 100, allowedLatenessMs: 50 },
  cumulate: { type: 'cumulate', sizeMs: 300, stepMs: 100 },
  session: { type: 'session', gapMs: 60, allowedLatenessMs: 80 },
};

describe('window aggregate: snapshot and restore', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`${name}: a restored operator continues exactly like an uninterrupted one`, () => {
      const params = { ...shape, groupBy: ['k'], aggregates };
      const steps = script(7);
      const cut = Math.floor(steps.length / 2);
      const whole = new OperatorHarness('window', params);
      play(whole, steps);
      whole.processWatermark(Infinity);
      const first = new OperatorHarness('window', params);
      play(first, steps.slice(0, cut));
      const restored = first.restored(first.snapshot());
      play(restored, steps.slice(cut));
      restored.processWatermark(Infinity);
      expect(whole.output().length).toBeGreaterThan(10);
      for (const port of ['out', 'late']) expect(restored.lines(port)).toEqual(whole.lines(port).slice(first.output(port).length));
      expect(restored.task.counters).toEqual(whole.task.counters);
      expect(restored.deadLetters).toEqual(whole.deadLetters.slice(first.deadLetters.length));
      expect(restored.task.timers.count()).toBe(0);
    });
  }
});

describe('window aggregate in a pipeline', () => {
  it('turns an event-time source into a view of per-window totals', () => {
    const rows = [
      { user: 'ann', amount: 5, ts: 100 },
      { user: 'bob', amount: 2, ts: 900 },
      { user: 'ann', amount: 1, ts: 400 },
      { user: 'ann', amount: 7, ts: 1200 },
      { user: 'bob', amount: 3, ts: 50 },
      { user: 'ann', amount: 9, ts: 2500 },
      { user: 'bob', amount: 4, ts: 800 },
    ];
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'windowed revenue',
      nodes: [
        { id: 'tx', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts', maxOutOfOrdernessMs: 300 } } },
        { id: 'win', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['user'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }] } },
        { id: 'view', kind: 'viewSink', params: {} },
        { id: 'late', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'tx', port: 'out' }, to: { node: 'win', port: 'in' } },
        { from: { node: 'win', port: 'out' }, to: { node: 'view', port: 'in' } },
        { from: { node: 'win', port: 'late' }, to: { node: 'late', port: 'in' } },
      ],
    }, { batchSize: 1 });
    const win = (user: string, start: number, total: number) => ({ user, window_start: start, window_end: start + 1000, window_time: start + 999, total });
    expect(run.views.view).toEqual(expect.arrayContaining([win('ann', 0, 6), win('bob', 0, 5), win('ann', 1000, 7), win('ann', 2000, 9)]));
    expect(run.views.view).toHaveLength(4);
    // bob@50 comes while the watermark is 899 (< 999): on time. bob@800 comes at watermark 2199: late.
    expect(run.views.late).toEqual([{ user: 'bob', amount: 4, ts: 800 }]);
    const node = run.plan.nodes.find((n) => n.id === 'win')!;
    expect(node.outputs.out).toMatchObject({ eventTime: 'window_time', changelog: 'append', uniqueKey: ['user', 'window_start', 'window_end'] });
    expect(run.job.metrics().win.counters).toMatchObject({ windowsFired: 4, windowsPurged: 4, lateRecords: 1 });
  });
});
