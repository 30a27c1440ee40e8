import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';

const counting = { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'v', as: 's' }] };
const tumble = (extra: Record<string, unknown> = {}) => new OperatorHarness('window', { type: 'tumble', sizeMs: 1000, ...counting, ...extra });
const line = (k: string, start: number, end: number, n: number, s: number, kind = '+I') =>
  `${kind} ${JSON.stringify({ k, window_start: start, window_end: end, window_time: end - 1, n, s })}`;

describe('window aggregate: tumble', () => {
  it('fires exactly when the watermark reaches end − 1, with ts = end − 1', () => {
    const h = tumble();
    h.processElement({ k: 'a', v: 1, ts: 100 }).processElement({ k: 'a', v: 2, ts: 999 }).processElement({ k: 'b', v: 5, ts: 1000 });
    h.processWatermark(998);
    expect(h.output()).toEqual([]);
    h.processWatermark(999);
    expect(h.lines()).toEqual([line('a', 0, 1000, 2, 3)]);
    expect(h.output()[0].ts).toBe(999);
    h.processWatermark(1999);
    expect(h.lines()).toEqual([line('a', 0, 1000, 2, 3), line('b', 1000, 2000, 1, 5)]);
    expect(h.task.counters).toMatchObject({ windowsFired: 2, windowsPurged: 2 });
    expect(h.task.timers.count()).toBe(0);
  });

  it('accepts out-of-order records while the watermark has not passed their window', () => {
    const h = tumble();
    h.processElement({ k: 'a', v: 1, ts: 1500 });
    h.processWatermark(900);
    h.processElement({ k: 'a', v: 10, ts: 200 }).processElement({ k: 'a', v: 100, ts: 1100 });
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([line('a', 0, 1000, 1, 10), line('a', 1000, 2000, 2, 101)]);
  });

  it('aligns windows with an offset and handles negative timestamps', () => {
    const h = tumble({ offsetMs: 250 });
    h.processElement({ k: 'a', v: 1, ts: -700 }).processElement({ k: 'a', v: 2, ts: 200 }).processElement({ k: 'a', v: 4, ts: 250 });
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([line('a', -750, 250, 2, 3), line('a', 250, 1250, 1, 4)]);
  });

  it('sends late records to the late port unchanged and counts them', () => {
    const h = tumble();
    h.processElement({ k: 'a', v: 1, ts: 10 });
    h.processWatermark(999);
    h.processElement({ k: 'a', v: 7, ts: 500 });
    h.processElement({ k: 'a', v: 7, ts: 400 }, { kind: '-D' });
    expect(h.output('late')).toEqual([
      { kind: '+I', row: { k: 'a', v: 7, ts: 500 }, ts: 500 },
      { kind: '-D', row: { k: 'a', v: 7, ts: 400 }, ts: 400 },
    ]);
    expect(h.task.counters.lateRecords).toBe(2);
    expect(h.lines()).toEqual([line('a', 0, 1000, 1, 1)]);
  });

  it('updates a fired window within the allowed lateness with -U/+U, then purges it', () => {
    const h = tumble({ allowedLatenessMs: 500 });
    h.processElement({ k: 'a', v: 1, ts: 10 });
    h.processWatermark(999);
    h.processElement({ k: 'a', v: 2, ts: 20 });
    h.processElement({ k: 'b', v: 9, ts: 30 });
    h.processWatermark(1498);
    h.processElement({ k: 'a', v: 4, ts: 30 });
    h.processWatermark(1499);
    h.processElement({ k: 'a', v: 8, ts: 40 });
    expect(h.lines()).toEqual([
      line('a', 0, 1000, 1, 1),
      line('a', 0, 1000, 1, 1, '-U'),
      line('a', 0, 1000, 2, 3, '+U'),
      line('b', 0, 1000, 1, 9),
      line('a', 0, 1000, 2, 3, '-U'),
      line('a', 0, 1000, 3, 7, '+U'),
    ]);
    expect(h.output().every((e) => e.ts === 999)).toBe(true);
    expect(h.lines('late')).toEqual(['+I {"k":"a","v":8,"ts":40}']);
    expect(h.task.counters).toMatchObject({ windowsFired: 2, windowsPurged: 2, lateRecords: 1 });
  });

  it('retracts -U/-D input from pending and fired panes; an emptied fired window emits -D', () => {
    const h = tumble({ allowedLatenessMs: 1000 });
    h.processElement({ k: 'a', v: 1, ts: 10 }).processElement({ k: 'a', v: 2, ts: 20 });
    h.processElement({ k: 'a', v: 2, ts: 20 }, { kind: '-U' }).processElement({ k: 'a', v: 5, ts: 20 }, { kind: '+U' });
    h.processWatermark(999);
    h.processElement({ k: 'a', v: 1, ts: 10 }, { kind: '-D' });
    h.processElement({ k: 'a', v: 5, ts: 20 }, { kind: '-D' });
    expect(h.lines()).toEqual([
      line('a', 0, 1000, 2, 6),
      line('a', 0, 1000, 2, 6, '-U'),
      line('a', 0, 1000, 1, 5, '+U'),
      line('a', 0, 1000, 1, 5, '-D'),
    ]);
  });

  it('dead-letters retractions of rows it never saw and records without event time', () => {
    const h = tumble();
    h.processElement({ k: 'a', v: 1, ts: 10 }, { kind: '-D' });
    h.processElement({ k: 'a', v: 1 }, { ts: null });
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['retraction for a window that holds no rows', 'no event time: a window needs records with a timestamp']);
    h.processWatermark(Infinity);
    expect(h.output()).toEqual([]);
  });

  it('does not emit a window whose rows were all retracted', () => {
    const h = tumble();
    h.processElement({ k: 'a', v: 1, ts: 10 }).processElement({ k: 'a', v: 1, ts: 10 }, { kind: '-D' });
    h.processWatermark(Infinity);
    expect(h.output()).toEqual([]);
    expect(h.task.counters.windowsPurged).toBe(1);
  });

  it('shows panes per key in inspect()', () => {
    const h = tumble({ allowedLatenessMs: 1000 });
    h.processElement({ k: 'a', v: 1, ts: 10 }).processElement({ k: 'b', v: 2, ts: 1010 });
    h.processWatermark(999);
    const view = h.task.operator.inspect!() as { watermark: number; panes: { key: unknown; start: number; status: string; value: { n: number } }[] };
    expect(view.watermark).toBe(999);
    expect(view.panes.map((p) => [p.key, p.start, p.status, p.value.n])).toEqual([
      ['a', 0, 'fired', 1],
      ['b', 1000, 'pending', 1],
    ]);
    h.processWatermark(1999);
    const later = h.task.operator.inspect!() as { recentlyPurged: { key: unknown; status: string }[] };
    expect(later.recentlyPurged).toMatchObject([{ key: 'a', status: 'purged' }]);
  });
});

describe('window aggregate: hop', () => {
  const hop = (extra: Record<string, unknown> = {}) => new OperatorHarness('window', { type: 'hop', sizeMs: 1000, slideMs: 500, ...counting, ...extra });

  it('counts each record in every window that contains it', () => {
    const h = hop({ offsetMs: 100 });
    h.processElement({ k: 'a', v: 1, ts: 150 }).processElement({ k: 'a', v: 2, ts: 700 }).processElement({ k: 'a', v: 4, ts: -10 });
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([
      line('a', -900, 100, 1, 4),
      line('a', -400, 600, 2, 5),
      line('a', 100, 1100, 2, 3),
      line('a', 600, 1600, 1, 2),
    ]);
  });

  it('adds a record late for some of its windows to the on-time ones only', () => {
    const h = hop();
    h.processElement({ k: 'a', v: 1, ts: 600 });
    h.processWatermark(999);
    expect(h.lines()).toEqual([line('a', 0, 1000, 1, 1)]);
    h.processElement({ k: 'a', v: 2, ts: 700 });
    expect(h.output('late')).toEqual([]);
    h.processElement({ k: 'a', v: 4, ts: 100 });
    expect(h.lines('late')).toEqual(['+I {"k":"a","v":4,"ts":100}']);
    h.processWatermark(Infinity);
    expect(h.lines().slice(1)).toEqual([line('a', 500, 1500, 2, 3)]);
    expect(h.task.counters.lateRecords).toBe(1);
  });
});

describe('window aggregate: cumulate', () => {
  it('emits growing windows that share a start, each at its own end', () => {
    const h = new OperatorHarness('window', { type: 'cumulate', sizeMs: 300, stepMs: 100, ...counting });
    h.processElement({ k: 'a', v: 1, ts: 50 }).processElement({ k: 'a', v: 2, ts: 150 }).processElement({ k: 'a', v: 4, ts: 320 });
    h.processWatermark(199);
    expect(h.lines()).toEqual([line('a', 0, 100, 1, 1), line('a', 0, 200, 2, 3)]);
    h.processWatermark(Infinity);
    expect(h.lines().slice(2)).toEqual([line('a', 0, 300, 2, 3), line('a', 300, 400, 1, 4), line('a', 300, 500, 1, 4), line('a', 300, 600, 1, 4)]);
  });

  it('takes negative timestamps and offsets', () => {
    const h = new OperatorHarness('window', { type: 'cumulate', sizeMs: 300, stepMs: 100, offsetMs: 50, ...counting });
    h.processElement({ k: 'a', v: 1, ts: -60 });
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([line('a', -250, -50, 1, 1), line('a', -250, 50, 1, 1)]);
  });
});
