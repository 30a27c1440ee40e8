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
});
