// Bad SQL never crashes the import: every oracle script, cut short, with a token dropped, repeated
// or moved, either plans or comes back as problems with a line and a column. A statement the
// planner does not foresee is one problem at that statement ("the planner cannot read"), which
// would hide a crash, so none may appear here either.
import { describe, expect, it } from 'vitest';
import { ALL_CASES } from '../../testing/sql/cases.ts';
import { importFlinkSql } from './index.ts';

function mutations(count: number, seed: number): string[] {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const tokens = pick(ALL_CASES).sql.split(/(\s+|(?=[(),;])|(?<=[(),;]))/).filter((x) => x !== undefined && x !== '');
    const k = Math.floor(rnd() * tokens.length);
    const op = i % 4;
    if (op === 0) tokens.splice(k, 1);
    else if (op === 1) tokens.splice(k, 0, pick(tokens));
    else if (op === 2) tokens.length = k;
    else {
      const j = Math.floor(rnd() * tokens.length);
      [tokens[k], tokens[j]] = [tokens[j], tokens[k]];
    }
    out.push(tokens.join(''));
  }
  return out;
}

describe('Flink SQL import of damaged scripts', () => {
  it('never throws, and every problem has a place', () => {
    for (const sql of mutations(100, 20261203)) {
      const r = importFlinkSql(sql);
      if (r.ok) continue;
      expect(r.errors.length, sql).toBeGreaterThan(0);
      for (const e of r.errors) {
        expect(e.line, sql).toBeGreaterThan(0);
        expect(e.column, sql).toBeGreaterThan(0);
        expect(e.message, sql).not.toMatch(/^the planner cannot read/);
      }
    }
  }, 120_000);

  it('CROSS JOIN UNNEST … AS t is refused at UNNEST, and the statements after it are still read', () => {
    const ddl = "CREATE TABLE e (user_id STRING, items STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'format' = 'json');\n";
    const r = importFlinkSql(`${ddl}SELECT user_id, t.item FROM e CROSS JOIN UNNEST(e.items) AS t;\nSELECT nope FROM e;\n`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors[0]).toMatchObject({ line: 2, construct: 'UNNEST' });
      expect(r.errors[1]).toMatchObject({ line: 3 });
    }
  });
});
