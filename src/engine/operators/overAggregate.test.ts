import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { expectRestoreMatches, play } from '../../testing/restoreCheck.ts';
import type { Step } from '../../testing/restoreCheck.ts';
import { compareBags, SqlOracle } from '../../testing/oracle/sqlOracle.ts';

const aggregates = [
  { fn: 'sum', field: 'v', as: 's' },
  { fn: 'count', as: 'n' },
  { fn: 'min', field: 'v', as: 'lo' },
  { fn: 'max', field: 'v', as: 'hi' },
];
const over = (extra: Record<string, unknown>) => new OperatorHarness('overAggregate', { partitionBy: ['k'], aggregates, ...extra });

/** Rows out of order within a bound, a watermark every few rows; `ties` allows equal times per partition. */
function script(seed: number, ties: boolean): { steps: Step[]; rows: Record<string, unknown>[] } {
  let x = seed;
  const next = (m: number) => ((x = (x * 1103515245 + 12345) % 2147483648), x % m);
  const steps: Step[] = [];
  const rows: Record<string, unknown>[] = [];
  const used = new Set<string>();
  let maxTs = 0;
  for (let i = 0; i < 150; i++) {
    const k = `k${next(3)}`;
    let ts = maxTs - 40 + next(60);
    if (!ties) while (used.has(`${k}|${ts}`)) ts++;
    used.add(`${k}|${ts}`);
    maxTs = Math.max(maxTs, ts);
    const row = { k, v: next(100) - 20, ts };
    steps.push({ row, ts });
    rows.push(row);
    if (i % 5 === 4) steps.push({ wm: maxTs - 41 });
  }
  steps.push({ wm: Infinity });
  return { steps, rows };
}

async function oracle(rows: Record<string, unknown>[], frame: string): Promise<Record<string, unknown>[]> {
  const db = (await SqlOracle.open()).table('t', { k: 'TEXT', v: 'INTEGER', ts: 'INTEGER' }, rows);
  const w = `OVER (PARTITION BY k ORDER BY ts ${frame})`;
  const out = db.query(`SELECT k, v, ts, SUM(v) ${w} AS s, COUNT(*) ${w} AS n, MIN(v) ${w} AS lo, MAX(v) ${w} AS hi FROM t`);
  db.close();
  return out;
}

describe('over aggregate', () => {
  it('holds rows until the watermark passes them, then emits them in time order', () => {
    const h = over({ frame: 'rows' });
    h.processElement({ k: 'a', v: 1 }, { ts: 30 });
    h.processElement({ k: 'a', v: 2 }, { ts: 10 });
    expect(h.lines()).toEqual([]);
    h.processWatermark(20);
    expect(h.lines()).toEqual(['+I {"k":"a","v":2,"s":2,"n":1,"lo":2,"hi":2}']);
    h.processWatermark(30);
    expect(h.lines()[1]).toBe('+I {"k":"a","v":1,"s":3,"n":2,"lo":1,"hi":2}');
    expect(h.output().map((e) => e.ts)).toEqual([10, 30]);
  });

  it('drops and counts a row at or behind the watermark, as Flink does', () => {
    const h = over({ frame: 'range', precedingMs: 10 });
    h.processWatermark(50);
    h.processElement({ k: 'a', v: 1 }, { ts: 50 });
    h.processElement({ k: 'a', v: 2 }, { ts: 51 });
    h.processWatermark(Infinity);
    expect(h.task.counters.lateRecords).toBe(1);
    expect(h.lines()).toEqual(['+I {"k":"a","v":2,"s":2,"n":1,"lo":2,"hi":2}']);
  });

  it('RANGE: rows of the same time see each other; ROWS: arrival order breaks the tie', () => {
    const feed = (h: OperatorHarness) => {
      h.processElement({ k: 'a', v: 1 }, { ts: 5 });
      h.processElement({ k: 'a', v: 2 }, { ts: 5 });
      h.processWatermark(Infinity);
      return h.output().map((e) => e.row.s);
    };
    expect(feed(over({ frame: 'range' }))).toEqual([3, 3]);
    expect(feed(over({ frame: 'rows' }))).toEqual([1, 3]);
    expect(feed(over({ frame: 'rows', precedingRows: 0 }))).toEqual([1, 2]);
  });

  it('only inserts: an update goes to the dead-letter output', () => {
    const h = over({ frame: 'rows' });
    h.processElement({ k: 'a', v: 1 }, { ts: 5, kind: '-U' });
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['OVER aggregation takes only inserts, got -U']);
  });

  const frames: [string, Record<string, unknown>, string, boolean][] = [
    ['ROWS 3 PRECEDING', { frame: 'rows', precedingRows: 3 }, 'ROWS BETWEEN 3 PRECEDING AND CURRENT ROW', false],
    ['ROWS UNBOUNDED PRECEDING', { frame: 'rows' }, 'ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW', false],
    ['RANGE 25 PRECEDING', { frame: 'range', precedingMs: 25 }, 'RANGE BETWEEN 25 PRECEDING AND CURRENT ROW', true],
    ['RANGE UNBOUNDED PRECEDING', { frame: 'range' }, 'RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW', true],
  ];
  for (const [name, params, sql, ties] of frames) {
    it(`${name}: the final table equals SQLite's window function over the same rows`, async () => {
      const { steps, rows } = script(name.length * 7 + 3, ties);
      const h = over(params);
      play(h, steps);
      expect(h.task.counters.lateRecords ?? 0).toBe(0);
      const got = h.output().map((e) => ({ ...e.row }));
      expect(got).toHaveLength(rows.length);
      expect(compareBags(got, await oracle(rows, sql))).toEqual({ missing: [], extra: [] });
      // Per partition, output leaves in event-time order.
      for (const k of ['k0', 'k1', 'k2']) {
        const times = got.filter((r) => r.k === k).map((r) => r.ts as number);
        expect(times).toEqual([...times].sort((a, b) => a - b));
      }
    });

    it(`${name}: survives snapshot and restore at any point`, () => {
      const { steps } = script(name.length * 5 + 1, ties);
      const whole = expectRestoreMatches(() => over(params), steps, [9, 50, 111, steps.length - 2]);
      expect(whole.output()).toHaveLength(150);
      expect(whole.task.timers.count()).toBe(0);
    });
  }

  describe('LAG, FIRST_VALUE and LAST_VALUE, as Flink computes them', () => {
    const offsetCalls = [
      { fn: 'lag', field: 'v', as: 'prev' },
      { fn: 'lag', field: 'v', as: 'prev2', offset: 2, default: -1 },
      { fn: 'firstValue', field: 'v', as: 'first' },
      { fn: 'lastValue', field: 'v', as: 'last' },
    ];
    const withCalls = (aggs: unknown[], extra: Record<string, unknown>) => new OperatorHarness('overAggregate', { partitionBy: ['k'], aggregates: aggs, ...extra });
    const pick = (h: OperatorHarness, ...cols: string[]) => h.output().map((e) => [e.row.k, e.ts, ...cols.map((c) => e.row[c])]);

    it('LAG with offset and default, NULL inputs, rows out of order, two partitions', () => {
      const h = withCalls(offsetCalls, { frame: 'range' });
      h.processElement({ k: 'a', v: 10 }, { ts: 1 });
      h.processElement({ k: 'b', v: 5 }, { ts: 2 });
      h.processElement({ k: 'a', v: null }, { ts: 4 });
      h.processElement({ k: 'a', v: 30 }, { ts: 3 });
      h.processElement({ k: 'b', v: 7 }, { ts: 5 });
      h.processElement({ k: 'a', v: 40 }, { ts: 6 });
      h.processWatermark(Infinity);
      // LAG counts the NULL row as a row; FIRST_VALUE and LAST_VALUE skip it.
      expect(pick(h, 'prev', 'prev2', 'first', 'last')).toEqual([
        ['a', 1, null, -1, 10, 10],
        ['b', 2, null, -1, 5, 5],
        ['a', 3, 10, -1, 10, 30],
        ['a', 4, 30, 10, 10, 30],
        ['b', 5, 5, -1, 5, 7],
        ['a', 6, null, 30, 10, 40],
      ]);
    });

    it('ties in ORDER BY: in the RANGE window LAG gets, every row of one time sees all of them', () => {
      const feed = (h: OperatorHarness) => {
        for (const [v, ts] of [[1, 1], [2, 2], [3, 2], [4, 3]]) h.processElement({ k: 'a', v }, { ts });
        h.processWatermark(Infinity);
        return h.output().map((e) => [e.row.v, e.row.prev, e.row.first, e.row.last]);
      };
      // Flink's RowTimeRangeUnboundedPrecedingFunction adds every row of a time, then emits them all with one result.
      expect(feed(withCalls(offsetCalls.slice(0, 1).concat(offsetCalls.slice(2)), { frame: 'range' }))).toEqual([
        [1, null, 1, 1],
        [2, 2, 1, 3],
        [3, 2, 1, 3],
        [4, 3, 1, 4],
      ]);
      // A ROWS frame takes equal times one by one, in arrival order.
      expect(feed(withCalls(offsetCalls.slice(2), { frame: 'rows' })).map((r) => r[3])).toEqual([1, 2, 3, 4]);
    });

    it('FIRST_VALUE and LAST_VALUE over bounded frames skip NULLs and read the frame in time order', () => {
      const rows = withCalls(offsetCalls.slice(2), { frame: 'rows', precedingRows: 1 });
      [1, null, 3, null, null].forEach((v, i) => rows.processElement({ k: 'a', v }, { ts: i + 1 }));
      rows.processWatermark(Infinity);
      expect(pick(rows, 'first', 'last').map((r) => r.slice(2))).toEqual([[1, 1], [1, 1], [3, 3], [3, 3], [null, null]]);

      const range = withCalls(offsetCalls.slice(2), { frame: 'range', precedingMs: 2 });
      for (const [v, ts] of [[2, 2], [1, 1], [null, 5], [4, 6]]) range.processElement({ k: 'a', v }, { ts });
      range.processWatermark(3);
      // Restored mid-stream, the frame of time 6 still starts at time 4 and reads its rows in order.
      const restored = range.restored(range.snapshot());
      restored.processWatermark(Infinity);
      expect([...range.output(), ...restored.output()].map((e) => [e.ts, e.row.first, e.row.last])).toEqual([[1, 1, 1], [2, 1, 2], [5, null, null], [6, 4, 4]]);
    });

    it('a bounded RANGE frame is read in time order even when restored state lists its times as text sorts them', () => {
      const h = withCalls(offsetCalls.slice(2), { frame: 'range', precedingMs: 2 });
      h.processElement({ k: 'a', v: 1 }, { ts: 9 });
      h.processElement({ k: 'a', v: 2 }, { ts: 10 });
      h.processWatermark(10);
      const snap = h.snapshot() as unknown as { keyed: { keyGroups: Record<string, { state: string; value: [string, unknown, number][] }[]> } };
      const emitted = Object.values(snap.keyed.keyGroups).flat().find((s) => s.state === 'over.emitted')!;
      // A store that orders keys as text ("10" before "9"), as an IndexedDB index would.
      emitted.value.sort((x, y) => (x[0] < y[0] ? -1 : 1));
      expect(emitted.value.map((e) => e[0])).toEqual(['10', '9']);
      const restored = h.restored(snap as never);
      restored.processElement({ k: 'a', v: 3 }, { ts: 11 });
      restored.processWatermark(Infinity);
      expect(restored.output().map((e) => [e.ts, e.row.first, e.row.last])).toEqual([[11, 1, 3]]);
    });

    it('LAG keeps its last values in state: restored mid-stream it reaches rows from before the snapshot', () => {
      const h = withCalls(offsetCalls.slice(0, 2), { frame: 'range' });
      for (const [v, ts] of [[1, 1], [2, 2], [3, 3]]) h.processElement({ k: 'a', v }, { ts });
      h.processElement({ k: 'b', v: 9 }, { ts: 3 });
      h.processWatermark(3);
      const restored = h.restored(h.snapshot());
      restored.processElement({ k: 'a', v: 4 }, { ts: 4 });
      restored.processElement({ k: 'b', v: 8 }, { ts: 5 });
      restored.processWatermark(Infinity);
      expect(pick(restored, 'v', 'prev', 'prev2')).toEqual([
        ['a', 4, 4, 3, 2],
        ['b', 5, 8, 9, -1],
      ]);
    });

    it('LAG over random rows equals SQLite\'s LAG, and survives snapshot and restore at any point', async () => {
      const { steps, rows } = script(41, false);
      const params = { frame: 'range', aggregates: offsetCalls };
      const whole = expectRestoreMatches(() => over(params), steps, [7, 60, 133, steps.length - 2]);
      const db = (await SqlOracle.open()).table('t', { k: 'TEXT', v: 'INTEGER', ts: 'INTEGER' }, rows);
      const w = 'OVER (PARTITION BY k ORDER BY ts)';
      const want = db.query(`SELECT k, v, ts, LAG(v) ${w} AS prev, LAG(v, 2, -1) ${w} AS prev2, FIRST_VALUE(v) ${w} AS first, LAST_VALUE(v) ${w} AS last FROM t`);
      db.close();
      expect(compareBags(whole.output().map((e) => ({ ...e.row })), want)).toEqual({ missing: [], extra: [] });
    });
  });
});
