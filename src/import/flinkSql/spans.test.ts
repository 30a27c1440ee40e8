// A planned document keeps its script and each node's span in it, so that the designer can link
// nodes and clauses after a reload, and the spans survive the document's JSON.
import { describe, expect, it } from 'vitest';
import { importFlinkSql } from './index.ts';
import { exportFlinkSql } from '../../export/flinkSql/index.ts';
import { compile } from '../../pipeline/compile.ts';
import { MEDALLION_SQL } from '../../testing/sql/seedScripts.ts';

const imported = (sql: string) => {
  const r = importFlinkSql(sql);
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('\n'));
  return r.doc;
};

describe('spans in the planned document', () => {
  it('give every node the span of the clause it came from, in the script the document keeps', () => {
    const doc = imported(MEDALLION_SQL);
    expect(doc.origin).toEqual({ sql: MEDALLION_SQL });
    const lines = MEDALLION_SQL.split('\n');
    for (const n of doc.nodes) {
      expect(n.origin, n.id).toBeDefined();
      const s = n.origin!.sql;
      expect(s.line <= s.endLine && s.endLine <= lines.length, n.id).toBe(true);
      expect(lines[s.line - 1].slice(s.column - 1).trim().length, `${n.id} starts on text`).toBeGreaterThan(0);
    }
    const join = doc.nodes.find((n) => n.id === 'order_wide_table_silver_join')!.origin!.sql;
    const clause = [lines[join.line - 1].slice(join.column - 1), ...lines.slice(join.line, join.endLine)].join('\n');
    expect(clause).toMatch(/LEFT JOIN/i);
  });

  it('are valid document fields and survive the JSON', () => {
    const doc = imported(MEDALLION_SQL);
    const back = JSON.parse(JSON.stringify(doc));
    expect(back).toEqual(doc);
    expect(compile(back).problems).toEqual([]);
  });

  it('do not reach the exported script: export → import → export is stable', () => {
    const first = exportFlinkSql(imported(MEDALLION_SQL)).sql;
    const again = imported(first);
    expect(again.origin?.sql).toBe(first);
    expect(exportFlinkSql(again).sql).toBe(first);
    // Re-planned from the exported script, the spans point into that script.
    for (const n of again.nodes) expect(first.split('\n')[n.origin!.sql.line - 1], n.id).toBeDefined();
  });
});
