import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import type { HarnessOptions } from '../../testing/harness.ts';
import { play } from '../../testing/restoreCheck.ts';
import type { Step } from '../../testing/restoreCheck.ts';
import type { Row } from '../../core/types.ts';
import { perPaneWindowAggregate } from './window.ts';

/** What a stream's values may be: `exact` stays on slices; `mixed` also sends values that turn keys into panes. */
type Values = 'exact' | 'mixed';

/**
 * A random stream: several keys, out-of-order and late records, retractions of rows sent before
 * (stamped with a later time, as an upstream Deduplicate does) and a watermark every few records;
 * `mixed` adds now and then a retraction of a row never sent.
 */
function stream(seed: number, values: Values, retract: boolean, length = 400): Step[] {
  let x = seed;
  const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % m);
  const steps: Step[] = [];
  const live: Row[] = [];
  let maxTs = 0;
  const value = (): unknown => {
    const r = next(40);
    if (r === 0) return null;
    if (values === 'mixed' && r === 1) return 2.5;
    if (values === 'mixed' && r === 2) return -0;
    if (values === 'mixed' && r === 3) return Number.NaN;
    return next(200) - 60;
  };
  for (let i = 0; i < length; i++) {
    // Mostly near the front, some far behind it (late for some or all of their windows).
    const ts = next(10) === 0 ? maxTs - next(900) : maxTs - 150 + next(220);
    maxTs = Math.max(maxTs, ts);
    const k = values === 'mixed' && next(50) === 0 ? { odd: 1 } : `k${next(4)}`;
    const row: Row = { k, v: value(), w: next(5) === 0 ? null : next(1000), ts };
    steps.push({ row });
    live.push(row);
    if (retract && next(6) === 0 && live.length) steps.push({ row: live.splice(next(live.length), 1)[0], kind: next(2) ? '-D' : '-U', ts: maxTs });
    if (retract && values === 'mixed' && next(40) === 0) steps.push({ row: { k: 'k1', v: 3, w: 3, ts: maxTs - 50 }, kind: '-D' });
    if (next(5) === 0) steps.push({ wm: maxTs - 100 - next(100) });
  }
  return steps;
}

const shapes: Record<string, Record<string, unknown>> = {
  'hop, slide divides size': { type: 'hop', sizeMs: 300, slideMs: 100 },
  'hop, slide does not divide size': { type: 'hop', sizeMs: 250, slideMs: 100, allowedLatenessMs: 120 },
  'hop with an offset, size 5 × gcd': { type: 'hop', sizeMs: 350, slideMs: 140, offsetMs: 30 },
  'hop of 20 slices': { type: 'hop', sizeMs: 400, slideMs: 60, allowedLatenessMs: 60 },
  'hop with a long lateness': { type: 'hop', sizeMs: 200, slideMs: 50, allowedLatenessMs: 400 },
  tumble: { type: 'tumble', sizeMs: 150, offsetMs: -20, allowedLatenessMs: 90 },
};
const aggregates = [
  { fn: 'count', as: 'n' },
  { fn: 'count', field: 'v', as: 'nv' },
  { fn: 'sum', field: 'v', as: 's' },
  { fn: 'avg', field: 'w', as: 'a' },
  { fn: 'min', field: 'v', as: 'lo' },
  { fn: 'max', field: 'w', as: 'hi' },
];
const updating: HarnessOptions = { inputs: { in: { eventTime: 'ts', changelog: 'update' } } };
const append: HarnessOptions = { inputs: { in: { eventTime: 'ts', changelog: 'append' } } };

/** Everything the operator put out, as bytes: both ports, dead letters, counters and the timers still set. */
function outputOf(r: { h: OperatorHarness; timers: string[] }): string {
  const h = r.h;
  return JSON.stringify({ out: h.lines('out'), late: h.lines('late'), dead: h.deadLetters, counters: h.task.counters, timers: r.timers });
}

/** Runs the steps; the timers as a checkpoint would store them are taken every 25 steps. */
function run(params: Record<string, unknown>, opts: HarnessOptions, steps: Step[]): { h: OperatorHarness; slicedKeys: number; paneKeys: number; timers: string[] } {
  const h = new OperatorHarness('window', params, opts);
  let slicedKeys = 0;
  let paneKeys = 0;
  const timers: string[] = [];
  for (const [i, s] of steps.entries()) {
    play(h, [s]);
    if (i % 25 === 0) timers.push(JSON.stringify(h.task.timers.snapshot()));
    slicedKeys = Math.max(slicedKeys, h.task.state.keys('slices').length);
    paneKeys = Math.max(paneKeys, h.task.state.keys('panes').length);
  }
  h.processWatermark(Infinity);
  return { h, slicedKeys, paneKeys, timers };
}

describe('window aggregate: sliced windows match a pane per window', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    for (const [variant, opts, retract] of [
      ['append-only', append, false],
      ['updating', updating, true],
    ] as const) {
      it(`${name}, ${variant}: byte-equal output on random streams`, () => {
        const params = { ...shape, groupBy: ['k'], aggregates };
        for (let seed = 1; seed <= 6; seed++) {
          const steps = stream(seed * 7919, 'exact', retract);
          const sliced = run(params, opts, steps);
          const panes = run(params, { ...opts, definition: perPaneWindowAggregate }, steps);
          expect(outputOf(sliced), `seed ${seed}`).toBe(outputOf(panes));
          expect(sliced.h.output().length).toBeGreaterThan(20);
          // The sliced path did the work: its keys held slices and no panes.
          expect(sliced.slicedKeys).toBeGreaterThan(0);
          expect(sliced.paneKeys).toBe(0);
        }
      });
    }
    it(`${name}: values that cannot merge exactly turn their key into panes, output unchanged`, () => {
      const params = { ...shape, groupBy: ['k'], aggregates };
      let converted = 0;
      for (let seed = 1; seed <= 6; seed++) {
        const steps = stream(seed * 104729, 'mixed', true);
        const sliced = run(params, updating, steps);
        const panes = run(params, { ...updating, definition: perPaneWindowAggregate }, steps);
        expect(outputOf(sliced), `seed ${seed}`).toBe(outputOf(panes));
        expect(sliced.slicedKeys).toBeGreaterThan(0);
        converted += sliced.paneKeys;
      }
      expect(converted).toBeGreaterThan(0);
    });
  }

  it('sums too large to stay exact when merged go to panes', () => {
    const params = { type: 'hop', sizeMs: 300, slideMs: 100, groupBy: ['k'], aggregates: [{ fn: 'sum', field: 'v', as: 's' }] };
    const big = 2 ** 52;
    const steps: Step[] = [
      { row: { k: 'a', v: big, ts: 10 } },
      { row: { k: 'a', v: big - 1, ts: 120 } },
      { row: { k: 'a', v: 3, ts: 130 } },
      { row: { k: 'a', v: -big, ts: 250 } },
      { wm: 1000 },
    ];
    const sliced = run(params, append, steps);
    const panes = run(params, { ...append, definition: perPaneWindowAggregate }, steps);
    expect(outputOf(sliced)).toBe(outputOf(panes));
    expect(sliced.paneKeys).toBe(1);
  });
});

describe('window aggregate: sliced windows snapshot and restore', () => {
  const params = { type: 'hop', sizeMs: 250, slideMs: 100, allowedLatenessMs: 120, groupBy: ['k'], aggregates };
  const steps = stream(31337, 'mixed', true, 300);

  for (const cut of [40, 151, 230]) {
    it(`restored at step ${cut}, continues exactly like an uninterrupted pane run`, () => {
      const whole = run(params, { ...updating, definition: perPaneWindowAggregate }, steps).h;
      const first = new OperatorHarness('window', params, updating);
      play(first, steps.slice(0, cut));
      expect(first.task.state.keys('slices').length).toBeGreaterThan(0);
      const restored = first.restored(first.snapshot());
      play(restored, steps.slice(cut));
      restored.processWatermark(Infinity);
      for (const port of ['out', 'late']) expect(restored.lines(port)).toEqual(whole.lines(port).slice(first.output(port).length));
      expect(restored.deadLetters).toEqual(whole.deadLetters.slice(first.deadLetters.length));
      expect(restored.task.counters).toEqual(whole.task.counters);
      expect(restored.task.timers.count()).toBe(0);
    });
  }

  it('restores a snapshot of panes (the layout before slices) and goes on without losing a row', () => {
    const cut = 151;
    const whole = run(params, { ...updating, definition: perPaneWindowAggregate }, steps).h;
    const first = new OperatorHarness('window', params, { ...updating, definition: perPaneWindowAggregate });
    play(first, steps.slice(0, cut));
    const held = first.task.state.keys('panes').length;
    expect(held).toBeGreaterThan(0);
    const restored = new OperatorHarness('window', params, updating);
    restored.task.restore(first.snapshot());
    restored.processWatermark(first.task.currentWatermark());
    expect(restored.task.state.keys('panes').length).toBe(held);
    play(restored, steps.slice(cut));
    restored.processWatermark(Infinity);
    expect(restored.lines('out')).toEqual(whole.lines('out').slice(first.output('out').length));
    expect(restored.lines('late')).toEqual(whole.lines('late').slice(first.output('late').length));
    expect(restored.deadLetters).toEqual(whole.deadLetters.slice(first.deadLetters.length));
    expect(restored.task.counters).toEqual(whole.task.counters);
  });

  it('a window that fired before a restore under a lower watermark (subtasks merged) still republishes', () => {
    const p = { type: 'tumble', sizeMs: 100, allowedLatenessMs: 1000, groupBy: ['k'], aggregates: [{ fn: 'sum', field: 'v', as: 's' }] };
    const lines = (opts: HarnessOptions) => {
      const h = new OperatorHarness('window', p, opts);
      h.processElement({ k: 'a', v: 1, ts: 10 });
      h.processWatermark(150);
      // As if merged with a subtask whose watermark was 50: the lowest goes on.
      const r = h.restored(h.snapshot());
      r.task.restoreWatermarks([r.task.currentWatermark(), 50]);
      r.processElement({ k: 'a', v: 2, ts: 20 });
      r.processWatermark(Infinity);
      return [...h.lines(), ...r.lines()];
    };
    const sliced = lines(append);
    expect(sliced).toEqual(lines({ ...append, definition: perPaneWindowAggregate }));
    expect(sliced).toEqual(['+I {"k":"a","window_start":0,"window_end":100,"window_time":99,"s":1}', '-U {"k":"a","window_start":0,"window_end":100,"window_time":99,"s":1}', '+U {"k":"a","window_start":0,"window_end":100,"window_time":99,"s":3}']);
  });

  it('turning slices into panes after a restore under a lower watermark leaves purged windows out', () => {
    const p = { type: 'hop', sizeMs: 200, slideMs: 100, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'v', as: 's' }] };
    const lines = (opts: HarnessOptions) => {
      const h = new OperatorHarness('window', p, opts);
      h.processElement({ k: 'a', v: 1, ts: 50 });
      h.processWatermark(150);
      // As if merged with a subtask whose watermark was 40: the lowest goes on.
      const r = h.restored(h.snapshot());
      r.task.restoreWatermarks([r.task.currentWatermark(), 40]);
      // A fraction: the key's slices become panes first; [-100, 100) was purged before the restore.
      r.processElement({ k: 'a', v: 2.5, ts: 60 });
      r.processWatermark(Infinity);
      return { lines: [...h.lines(), ...r.lines()], panes: r.task.state.keys('panes').length };
    };
    const sliced = lines(append);
    expect(sliced).toEqual(lines({ ...append, definition: perPaneWindowAggregate }));
    expect(sliced.lines).toContain('+I {"k":"a","window_start":-100,"window_end":100,"window_time":99,"n":1,"s":2.5}');
    expect(sliced.panes).toBe(0);
  });

  for (const [what, ts] of [
    ['a slice it holds', 160],
    ['a new slice', 20],
  ] as const) {
    it(`a record in ${what}, on time for a window purged before a restore under a lower watermark, reopens it as a pane would`, () => {
      const p = { type: 'hop', sizeMs: 200, slideMs: 100, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] };
      const run = (opts: HarnessOptions) => {
        const h = new OperatorHarness('window', p, opts);
        h.processElement({ k: 'a', ts: 150 });
        h.processWatermark(210);
        // As if merged with a subtask whose watermark was 50: the lowest goes on.
        const r = h.restored(h.snapshot());
        r.task.restoreWatermarks([r.task.currentWatermark(), 50]);
        r.processElement({ k: 'a', ts });
        r.processWatermark(Infinity);
        return [...h.lines(), ...r.lines()];
      };
      const sliced = run(append);
      expect(sliced).toEqual(run({ ...append, definition: perPaneWindowAggregate }));
      // [0, 200) fired with the first record, and again, with the second alone, after the restore.
      expect(sliced.filter((l) => l.includes('"window_start":0,')).length).toBe(2);
    });
  }

  it('shows sliced windows in inspect() as panes', () => {
    const p = { type: 'hop', sizeMs: 300, slideMs: 100, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] };
    const rows = [{ k: 'a', ts: 120 }, { k: 'a', ts: 150 }, { k: 'b', ts: 210 }];
    const views = (h: OperatorHarness) => JSON.stringify((h.task.operator.inspect!() as { panes: unknown[] }).panes);
    const [sliced, panes] = fedAlike(p, (h) => {
      for (const r of rows) h.processElement(r);
      h.processWatermark(250);
    });
    expect(views(sliced)).toBe(views(panes));
    expect(sliced.task.state.keys('panes')).toEqual([]);
  });

  it.each([0, 150])('shows windows purged from slices as panes would (lateness %i ms): rows and the result emitted', (allowedLatenessMs) => {
    const p = { type: 'hop', sizeMs: 300, slideMs: 100, allowedLatenessMs, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'v', as: 'top' }] };
    const rows = [{ k: 'a', v: 3, ts: 120 }, { k: 'a', v: 9, ts: 150 }, { k: 'b', v: 1, ts: 210 }, { k: 'a', v: 4, ts: 380 }];
    const purged = (h: OperatorHarness) => JSON.stringify((h.task.operator.inspect!() as { recentlyPurged: unknown[] }).recentlyPurged);
    const [sliced, panes] = fedAlike(p, (h) => {
      for (const r of rows) h.processElement(r);
      h.processWatermark(450);
      // Within the lateness, a late record republishes a fired window before it is purged.
      h.processElement({ k: 'a', v: 20, ts: 390 });
      h.processWatermark(1000);
    });
    expect(purged(sliced)).toBe(purged(panes));
    expect(JSON.parse(purged(sliced)).length).toBeGreaterThan(3);
    expect(sliced.lines()).toEqual(panes.lines());
  });
});

/** The sliced window and the per-pane one over the same params, each fed by `feed`. */
function fedAlike(params: Record<string, unknown>, feed: (h: OperatorHarness) => void): [OperatorHarness, OperatorHarness] {
  const sliced = new OperatorHarness('window', params, append);
  const panes = new OperatorHarness('window', params, { ...append, definition: perPaneWindowAggregate });
  feed(sliced);
  feed(panes);
  return [sliced, panes];
}
