// Subqueries in WHERE become semi/anti joins (and keyless joins with a one-row aggregate); what is
// not carried is refused at its line:column with the nearest supported form.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';

const TABLE = "CREATE TABLE t (a STRING, n BIGINT) WITH ('connector' = 'filesystem', 'path' = '/data/t.jsonl', 'format' = 'json');\n";
const SINK = "CREATE TABLE s (a STRING, n BIGINT) WITH ('connector' = 'print');\n";
const script = (q: string) => `${TABLE}${SINK}INSERT INTO s\n${q};`;

function plan(q: string) {
  const r = importFlinkSql(script(q));
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n'));
  return r.doc.nodes.filter((n) => n.kind === 'semiJoin' || n.kind === 'join' || n.kind === 'filter').map((n) => ({ kind: n.kind, params: n.params }));
}

function refused(q: string) {
  const r = importFlinkSql(script(q));
  expect(r.ok).toBe(false);
  return r.ok ? null! : r.errors[0];
}

describe('subqueries in WHERE', () => {
  it('IN, NOT IN, EXISTS and NOT EXISTS plan as semi/anti joins on their keys', () => {
    expect(plan('SELECT a, n FROM t WHERE n > 1 AND a IN (SELECT a FROM t WHERE n = 2)')).toEqual([
      { kind: 'filter', params: { where: '`n` > 1' } },
      { kind: 'filter', params: { where: '`n` = 2' } },
      { kind: 'semiJoin', params: { type: 'semi', leftKey: ['a'], rightKey: ['a'] } },
    ]);
    expect(plan('SELECT a, n FROM t WHERE a NOT IN (SELECT a FROM t)')).toEqual([{ kind: 'semiJoin', params: { type: 'anti', leftKey: [], rightKey: [], nullAware: { left: 'a', right: 'a' } } }]);
    expect(plan('SELECT a, n FROM t x WHERE NOT EXISTS (SELECT 1 FROM t y WHERE y.a = x.a AND y.n > x.n)')).toEqual([
      { kind: 'semiJoin', params: { type: 'anti', leftKey: ['a'], rightKey: ['a'], nonEquiCondition: '`n_right` > `n`' } },
    ]);
    expect(plan('SELECT a, n FROM t x WHERE NOT (NOT EXISTS (SELECT * FROM t y WHERE x.a = y.a))')).toEqual([{ kind: 'semiJoin', params: { type: 'semi', leftKey: ['a'], rightKey: ['a'] } }]);
  });

  it('EXISTS on IS NOT DISTINCT FROM keys is a null-safe semi join; mixed with `=` the null-safe pair is checked per pair', () => {
    expect(plan('SELECT a, n FROM t x WHERE EXISTS (SELECT 1 FROM t y WHERE y.a IS NOT DISTINCT FROM x.a AND x.n IS NOT DISTINCT FROM y.n)')).toEqual([
      { kind: 'semiJoin', params: { type: 'semi', leftKey: ['a', 'n'], rightKey: ['a', 'n'], nullSafeKeys: true } },
    ]);
    const mixed = plan('SELECT a, n FROM t x WHERE NOT EXISTS (SELECT 1 FROM t y WHERE y.a = x.a AND y.n IS NOT DISTINCT FROM x.n)');
    expect(mixed).toHaveLength(1);
    expect(mixed[0].params).toMatchObject({ type: 'anti', leftKey: ['a'], rightKey: ['a'] });
    expect(mixed[0].params).not.toHaveProperty('nullSafeKeys');
    expect(mixed[0].params.nonEquiCondition).toContain('IS NULL');
  });

  it('an uncorrelated scalar subquery is a keyless join with its aggregate', () => {
    expect(plan('SELECT a, n FROM t WHERE n >= (SELECT MAX(n) FROM t)').map((n) => n.kind)).toEqual(['join', 'filter']);
    expect(plan('SELECT a, (SELECT MAX(n) FROM t) AS n FROM t')).toEqual([{ kind: 'join', params: { type: 'left', leftKey: [], rightKey: [] } }]);
    expect(plan('SELECT a, n - (SELECT AVG(n) FROM t) AS n FROM t').map((n) => n.kind)).toEqual(['join']);
  });

  it('refuses what it does not carry, at its line:column, naming the nearest supported form', () => {
    const or = refused('SELECT a, n FROM t WHERE n > 1 OR a IN (SELECT a FROM t)');
    expect(or).toMatchObject({ line: 4, column: 41, construct: 'subquery in an expression' });
    expect(or.message).toMatch(/\[NOT\] EXISTS/);
    const agg = refused('SELECT a, n FROM t x WHERE n IN (SELECT MAX(n) FROM t y WHERE y.a = x.a GROUP BY y.a)');
    expect(agg).toMatchObject({ line: 4, construct: 'correlated IN subquery' });
    expect(refused('SELECT a, n FROM t x WHERE n > (SELECT AVG(n) FROM t y WHERE y.a = x.a)')).toMatchObject({ construct: 'correlated scalar subquery' });
    expect(refused('SELECT a, n FROM t WHERE n > (SELECT n FROM t)')).toMatchObject({ construct: 'scalar subquery', message: expect.stringMatching(/one row/) });
    expect(refused('SELECT a, n FROM t WHERE a IN (SELECT a, n FROM t)')).toMatchObject({ construct: 'IN (SELECT …)', message: expect.stringMatching(/EXISTS/) });
    expect(refused('SELECT a, COUNT(*) + (SELECT AVG(n) FROM t) AS n FROM t GROUP BY a')).toMatchObject({ line: 4, construct: 'scalar subquery in the SELECT list' });
    expect(refused('SELECT a, CASE WHEN a IN (SELECT a FROM t) THEN 1 ELSE 0 END AS n FROM t')).toMatchObject({ construct: 'subquery in an expression' });
  });
});
