// Every oracle script is planned, run, compared with its expected final tables, and survives the
// round trip export → import → export unchanged.
import { describe, expect, it } from 'vitest';
import { planFlinkSql, importFlinkSql } from '../../import/flinkSql/index.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { runPipeline } from '../runPipeline.ts';
import { compareBags, inferColumns, SqlOracle } from '../oracle/sqlOracle.ts';
import type { PlainRow } from '../oracle/sqlOracle.ts';
import { TABLES } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { ALL_CASES, withInlineData } from './cases.ts';

function planOk(c: SqlOracleCase): PipelineDocument {
  const p = planFlinkSql(c.sql, c.name);
  const errors = p.problems.filter((x) => x.severity === 'error');
  if (!p.doc) throw new Error(`${c.name}: not planned:\n${errors.map((e) => `  ${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n')}`);
  return p.doc;
}

describe('Flink SQL oracle scripts', () => {
  it('has at least 60 scripts', () => expect(ALL_CASES.length).toBeGreaterThanOrEqual(60));

  for (const c of ALL_CASES) {
    it(`${c.name}: plans, runs and ends with the expected tables`, async () => {
      const doc = planOk(c);
      const run = runPipeline(withInlineData(doc));
      expect(run.deadLetters, 'dead letters').toEqual([]);
      const db = await SqlOracle.open();
      try {
        for (const [name, rows] of Object.entries(TABLES)) db.table(name, inferColumns(rows as PlainRow[]), rows as PlainRow[]);
        for (const [sink, want] of Object.entries(c.expected)) {
          expect(Object.keys(run.views), `sink ${sink}`).toContain(sink);
          const expected = typeof want === 'string' ? db.query(want) : want();
          expect(expected.length, `${sink}: the expectation is not empty`).toBeGreaterThan(0);
          const { missing, extra } = compareBags(run.views[sink] as PlainRow[], expected as PlainRow[], c.tolerance);
          expect({ missing, extra }, `${sink}`).toEqual({ missing: [], extra: [] });
        }
      } finally {
        db.close();
      }
    });
  }

  // One test per script: each names its script when it fails, and each has its own time budget.
  for (const c of ALL_CASES) {
    it(`round trip: export → import → export is stable: ${c.name}`, () => {
      const once = exportFlinkSql(planOk(c)).sql;
      const back = importFlinkSql(once);
      if (!back.ok) throw new Error(`${c.name}: the export does not import:\n${back.errors.map((e) => `${e.line}:${e.column} ${e.construct}: ${e.message}`).join('\n')}`);
      expect(exportFlinkSql(back.doc).sql, c.name).toBe(once);
    });
  }
});
