import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';

const params = {
  type: 'session',
  gapMs: 10,
  groupBy: ['k'],
  aggregates: [
    { fn: 'count', as: 'n' },
    { fn: 'max', field: 'v', as: 'top' },
  ],
};
// Some tests feed retractions, so the input is declared updating.
const session = (extra: Record<string, unknown> = {}) => new OperatorHarness('window', { ...params, ...extra }, { inputs: { in: { changelog: 'update' } } });
const line = (k: string, start: number, end: number, n: number, top: number, kind = '+I') =>
  `${kind} ${JSON.stringify({ k, window_start: start, window_end: end, window_time: end - 1, n, top })}`;
const eventTimers = (h: OperatorHarness) => h.task.timers.snapshot().map((t) => [t.key, t.ts, t.namespace]);

describe('window aggregate: session', () => {
  it('merges two sessions and their accumulators when a bridging record arrives', () => {
    const h = session();
    h.processElement({ k: 'a', v: 3, ts: 0 }).processElement({ k: 'a', v: 7, ts: 25 });
    expect(eventTimers(h)).toEqual([
      ['a', 9, '0|10'],
      ['a', 34, '25|35'],
    ]);
    h.processElement({ k: 'a', v: 5, ts: 12 });
    // [12, 22) touches neither [0, 10) nor [25, 35), so it opens a session of its own
    expect(eventTimers(h).map((t) => t[2])).toEqual(['0|10', '12|22', '25|35']);
    h.processElement({ k: 'a', v: 1, ts: 8 });
    // [8, 18) overlaps [0, 10) and [12, 22): three records form one session, the old timers are gone
    expect(eventTimers(h)).toEqual([
      ['a', 21, '0|22'],
      ['a', 34, '25|35'],
    ]);
    expect(h.task.counters.sessionMerges).toBe(1);
    const view = h.task.operator.inspect!() as { panes: { start: number; end: number; rows: number }[]; recentMerges: unknown[] };
    expect(view.panes.map((p) => [p.start, p.end, p.rows])).toEqual([
      [0, 22, 3],
      [25, 35, 1],
    ]);
    expect(view.recentMerges).toEqual([
      {
        key: 'a',
        from: [
          { start: 0, end: 10 },
          { start: 12, end: 22 },
        ],
        into: { start: 0, end: 22 },
      },
    ]);
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([line('a', 0, 22, 3, 5), line('a', 25, 35, 1, 7)]);
  });

  it('merges windows that only touch and keeps keys apart', () => {
    const h = session();
    h.processElement({ k: 'a', v: 1, ts: 0 }).processElement({ k: 'b', v: 2, ts: 10 }).processElement({ k: 'a', v: 4, ts: 10 });
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([line('b', 10, 20, 1, 2), line('a', 0, 20, 2, 4)]);
  });

  it('chains bridges into one session', () => {
    const h = session();
    for (const ts of [0, 20, 40]) h.processElement({ k: 'a', v: ts, ts });
    h.processElement({ k: 'a', v: -1, ts: 10 }).processElement({ k: 'a', v: -2, ts: 30 });
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([line('a', 0, 50, 5, 40)]);
    expect(h.task.counters.sessionMerges).toBe(2);
    expect(h.task.timers.count()).toBe(0);
  });

  it('fires at session end − 1; a late record joining a live session is not late', () => {
    const h = session();
    h.processElement({ k: 'a', v: 1, ts: 100 });
    h.processWatermark(105);
    h.processElement({ k: 'a', v: 2, ts: 94 }); // own window [94, 104) is late, but it touches [100, 110)
    h.processElement({ k: 'a', v: 3, ts: 80 }); // [80, 90) is late and touches nothing
    expect(h.lines('late')).toEqual(['+I {"k":"a","v":3,"ts":80}']);
    h.processWatermark(108);
    expect(h.output()).toEqual([]);
    h.processWatermark(109);
    expect(h.lines()).toEqual([line('a', 94, 110, 2, 2)]);
  });

  it('withdraws a fired session with -D when a record within the lateness extends it', () => {
    const h = session({ allowedLatenessMs: 20 });
    h.processElement({ k: 'a', v: 1, ts: 0 });
    h.processWatermark(12);
    h.processElement({ k: 'a', v: 2, ts: 5 });
    expect(h.lines()).toEqual([line('a', 0, 10, 1, 1), line('a', 0, 10, 1, 1, '-D')]);
    h.processWatermark(14);
    expect(h.lines().slice(2)).toEqual([line('a', 0, 15, 2, 2)]);
    h.processElement({ k: 'a', v: 9, ts: 1 });
    expect(h.lines().slice(3)).toEqual([line('a', 0, 15, 2, 2, '-U'), line('a', 0, 15, 3, 9, '+U')]);
    h.processWatermark(Infinity);
    expect(h.task.counters).toMatchObject({ windowsFired: 2, windowsPurged: 1 });
  });

  it('retracts from the session that holds the record time', () => {
    const h = session();
    h.processElement({ k: 'a', v: 1, ts: 0 }).processElement({ k: 'a', v: 8, ts: 5 });
    h.processElement({ k: 'a', v: 8, ts: 5 }, { kind: '-D' });
    h.processElement({ k: 'a', v: 8, ts: 50 }, { kind: '-D' });
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['retraction for a session window that holds no rows']);
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([line('a', 0, 15, 1, 1)]);
  });
});

describe('window aggregate: records for windows already fired but within the lateness', () => {
  it('fires a new pane at once when its window end has passed', () => {
    const h = new OperatorHarness('window', { type: 'tumble', sizeMs: 100, allowedLatenessMs: 1000, groupBy: [], aggregates: [{ fn: 'count', as: 'n' }] });
    h.processWatermark(500);
    h.processElement({ v: 1, ts: 50 });
    expect(h.lines()).toEqual(['+I {"window_start":0,"window_end":100,"window_time":99,"n":1}']);
    expect(h.output()[0].ts).toBe(99);
    h.processWatermark(1098);
    h.processElement({ v: 1, ts: 60 });
    h.processWatermark(1099);
    h.processElement({ v: 1, ts: 70 });
    expect(h.lines().slice(1)).toEqual(['-U {"window_start":0,"window_end":100,"window_time":99,"n":1}', '+U {"window_start":0,"window_end":100,"window_time":99,"n":2}']);
    expect(h.output('late').length).toBe(1);
  });
});
