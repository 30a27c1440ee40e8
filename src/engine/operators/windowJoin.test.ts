import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { expectRestoreMatches } from '../../testing/restoreCheck.ts';
import type { Step } from '../../testing/restoreCheck.ts';

const inputs = { left: { fields: { id: 'integer', a: 'integer' } }, right: { fields: { id: 'integer', b: 'integer' } } } as const;
const wj = (type: string, extra: Record<string, unknown> = {}) =>
  new OperatorHarness('windowJoin', { type, leftKey: ['id'], rightKey: ['id'], window: { type: 'tumble', sizeMs: 100 }, ...extra }, { inputs });

describe('window join', () => {
  it('inner: rows meet only inside one window and leave once, when it closes', () => {
    const h = wj('inner');
    h.processElement({ id: 1, a: 1 }, { port: 'left', ts: 10 });
    h.processElement({ id: 1, b: 2 }, { port: 'right', ts: 90 });
    h.processElement({ id: 1, b: 3 }, { port: 'right', ts: 110 }); // next window: no partner
    h.processWatermark(98);
    expect(h.lines()).toEqual([]);
    h.processWatermark(99);
    expect(h.lines()).toEqual(['+I {"id":1,"a":1,"window_start":0,"window_end":100,"window_time":99,"id_right":1,"b":2,"window_start_right":0,"window_end_right":100,"window_time_right":99}']);
    h.processWatermark(Infinity);
    expect(h.lines()).toHaveLength(1);
    expect(h.output()[0].ts).toBe(99);
    expect(h.task.timers.count()).toBe(0);
  });

  it('full outer with a residual: unmatched rows of each side are padded once; late rows are dropped and counted', () => {
    const h = wj('full', { nonEquiCondition: 'b > a' });
    h.processElement({ id: 1, a: 5 }, { port: 'left', ts: 10 });
    h.processElement({ id: 1, b: 3 }, { port: 'right', ts: 20 });
    h.processElement({ id: 2, b: 9 }, { port: 'right', ts: 30 });
    h.processWatermark(150);
    h.processElement({ id: 1, a: 1 }, { port: 'left', ts: 50 });
    const rows = h.output().map((e) => [e.row.id, e.row.a, e.row.id_right, e.row.b]);
    expect(rows).toEqual([
      [1, 5, null, null],
      [null, null, 1, 3],
      [null, null, 2, 9],
    ]);
    expect(h.output().every((e) => e.kind === '+I')).toBe(true);
    expect(h.task.counters.lateRecords).toBe(1);
  });

  it('on window columns of the inputs (after Window aggregates)', () => {
    const w = { window_start: 'timestamp', window_end: 'timestamp' } as const;
    const windowed = { left: { fields: { ...inputs.left.fields, ...w } }, right: { fields: { ...inputs.right.fields, ...w } } };
    const h = new OperatorHarness('windowJoin', { type: 'inner', leftKey: ['id'], rightKey: ['id'], window: { type: 'columns' } }, { inputs: windowed });
    h.processElement({ id: 1, a: 1, window_start: 0, window_end: 60 }, { port: 'left', ts: 59 });
    h.processElement({ id: 1, b: 1, window_start: 0, window_end: 60 }, { port: 'right', ts: 59 });
    h.processElement({ id: 1, b: 2, window_start: 60, window_end: 120 }, { port: 'right', ts: 119 });
    h.processWatermark(Infinity);
    expect(h.output().map((e) => e.row.b)).toEqual([1]);
  });

  it('survives snapshot and restore', () => {
    const steps: Step[] = [];
    for (let i = 0; i < 60; i++) {
      steps.push({ row: { id: i % 3, [i % 2 ? 'a' : 'b']: i }, port: i % 2 ? 'left' : 'right', ts: i * 13 });
      if (i % 6 === 5) steps.push({ wm: i * 13 - 40 });
    }
    steps.push({ wm: Infinity });
    const whole = expectRestoreMatches(() => wj('left', { window: { type: 'hop', sizeMs: 200, slideMs: 100 } }), steps, [4, 33, 62]);
    expect(whole.output().length).toBeGreaterThan(30);
  });
});
