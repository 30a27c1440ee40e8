// The script's tree built statement by statement (and taken from the cache after an edit) is the
// whole-script parse's tree: the same rules, tokens, texts and positions.
import { describe, expect, it } from 'vitest';
import { ALL_CASES } from '../../../testing/sql/cases.ts';
import { MEDALLION_SQL, SALES_BY_STORE_SQL } from '../../../testing/sql/seedScripts.ts';
import { prepass } from '../../../import/flinkSql/plan/prepass.ts';
import { altOf, parseFlinkSql, ruleOf } from './parseTree.ts';
import type { Tree } from './parseTree.ts';
import { parseScript } from './statementTrees.ts';

type Ctx = Tree & { parent?: unknown };

/** Every node: its rule and alternative, or its token with text and position; rule nodes with their first and last token. */
function shape(t: Ctx, out: string[] = []): string[] {
  const tok = (k: Tree['start']) => (k ? `${k.text}@${k.line}:${k.column}/${k.start}-${k.stop}` : '-');
  if (t.symbol) out.push(tok(t.symbol));
  else out.push(`${ruleOf(t)}#${altOf(t)}[${tok(t.start)}..${tok(t.stop)}]`);
  for (const c of t.children ?? []) {
    if ((c as Ctx).parent !== t) out.push('!parent');
    shape(c, out);
  }
  return out;
}

const whole = (sql: string) => {
  const r = parseFlinkSql(sql);
  return r.tree ? shape(r.tree) : r.errors;
};
const pieces = (sql: string) => {
  const r = parseScript(sql);
  return r.tree ? shape(r.tree) : r.errors;
};

const SCRIPTS = [MEDALLION_SQL, SALES_BY_STORE_SQL, ...ALL_CASES.map((c) => c.sql)].map((s) => prepass(s).text);

describe('parseScript', () => {
  it('builds the whole-script tree for every oracle case and seed script', () => {
    for (const sql of SCRIPTS) expect(pieces(sql)).toEqual(whole(sql));
  });

  it('moves kept statements after an edit before, inside and after them', () => {
    for (const sql of [MEDALLION_SQL, SALES_BY_STORE_SQL].map((s) => prepass(s).text)) {
      pieces(sql);
      const cut = sql.indexOf(';') + 1;
      const edits = [
        `-- a comment\n\n${sql}`,
        `${sql.slice(0, cut - 1)} ;${sql.slice(cut)}`,
        `${sql.slice(0, cut)}\n${sql.slice(cut)}`,
        `${sql.slice(0, cut)} ${sql.slice(cut)}`,
        `${sql}\n-- the end`,
        sql,
      ];
      for (const edited of edits) expect(pieces(edited)).toEqual(whole(edited));
    }
  });

  it('parses a statement twice in one script into two trees, each in its place', () => {
    const stmt = "CREATE TABLE t (a INT) WITH ('connector' = 'datagen');";
    const sql = `${stmt}\n${stmt}\n  ${stmt}`;
    expect(pieces(sql)).toEqual(whole(sql));
    expect(pieces(sql)).toEqual(whole(sql));
  });

  it('does not split at a `;` in a string, a comment or a quoted name', () => {
    const sql = "CREATE TABLE `a;b` (s STRING) WITH ('connector' = 'datagen', 'x' = ';'); -- one; two\n/* three; */ SELECT s FROM `a;b`";
    expect(pieces(sql)).toEqual(whole(sql));
  });

  it('reports syntax errors as the whole-script parse does, also after a good parse of the same statements', () => {
    const bad = `${prepass(MEDALLION_SQL).text}\nSELEC oops;`;
    pieces(prepass(MEDALLION_SQL).text);
    expect(pieces(bad)).toEqual(whole(bad));
    expect(parseScript(bad).tree).toBeNull();
  });
});
