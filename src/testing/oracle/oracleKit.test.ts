import { describe, expect, it } from 'vitest';
import { seededRng } from '../../core/rng.ts';
import { compareBags, inferColumns, SqlOracle } from './sqlOracle.ts';
import { disorderedTimes, START } from './inputs.ts';

describe('oracle kit', () => {
  it('generates distinct event times that are out of order, but never beyond the bound', () => {
    const times = disorderedTimes(5_000, seededRng(9), 10, 700);
    expect(new Set(times).size).toBe(times.length);
    let max = -Infinity;
    let behind = 0;
    times.forEach((ts, i) => {
      expect(ts).toBeLessThanOrEqual(START + i * 10);
      // The source's watermark before this record is max − bound − 1: the record is never late.
      expect(ts).toBeGreaterThanOrEqual(max - 700);
      if (ts < max) behind++;
      max = Math.max(max, ts);
    });
    expect(behind).toBeGreaterThan(times.length / 2);
  });

  it('runs SQL with window functions over declared columns, NULLs included', async () => {
    const oracle = await SqlOracle.open();
    const rows = [
      { k: 'a', v: 1.5, n: 1 },
      { k: 'a', v: null, n: 2 },
      { k: 'b', n: 3 },
    ];
    expect(inferColumns(rows)).toEqual({ k: 'TEXT', v: 'REAL', n: 'INTEGER' });
    oracle.table('t', inferColumns(rows), rows);
    expect(oracle.query('SELECT k, SUM(v) AS s, ROW_NUMBER() OVER (ORDER BY k DESC) AS r FROM t GROUP BY k')).toEqual([
      { k: 'b', s: null, r: 1 },
      { k: 'a', s: 1.5, r: 2 },
    ]);
    oracle.close();
  });

  it('compares bags: float noise forgiven, NULL equals absent, everything else exact', () => {
    const sql = [
      { k: 'a', total: 0.3, n: 2, note: null },
      { k: 'a', total: 0.3, n: 2, note: null },
      { k: 'b', total: 512.9728125, n: 1 },
    ];
    const weir = [{ k: 'b', n: 1, total: 512.97281250000001 }, { k: 'a', total: 0.1 + 0.2, n: 2 }, { n: 2, k: 'a', total: 0.30000001 }];
    expect(compareBags(weir, sql)).toEqual({ missing: [], extra: [] });
    expect(compareBags(weir.slice(1), sql)).toEqual({ missing: [{ k: 'b', n: 1, total: 512.9728125 }], extra: [] });
    expect(compareBags([{ k: 'a', total: 0.31, n: 2 }], [sql[0]]).extra).toEqual([{ k: 'a', n: 2, total: 0.31 }]);
    expect(compareBags([{ k: 'a', n: 3 }], [{ k: 'a', n: 2 }]).missing).toEqual([{ k: 'a', n: 2 }]);
    expect(compareBags([{ k: 1 }], [{ k: '1' }]).extra).toEqual([{ k: 1 }]);
  });
});
