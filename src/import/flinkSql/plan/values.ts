/**
 * Inline VALUES, as a bounded source of the rows written: `FROM (VALUES (…), (…)) AS t(a, b)` and
 * `INSERT INTO t VALUES (…), (…)`. Each value is a constant, evaluated once; each column's type is
 * the values' common type (INT with DOUBLE is DOUBLE, NULL fits any). The rows are appends with no
 * event time, emitted in the order written, and the source ends after them (Flink's values source).
 * A value that is an expression the grammar does not read in VALUES is read by valueCells.ts.
 */
import { compileExpr } from '../../../expr/index.ts';
import type { FieldType } from '../../../core/streamInfo.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, findAll, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { nodeId } from './env.ts';
import { weirExpr } from './expr.ts';
import { exprType } from './exprForms.ts';
import { liftedValue } from './valueCells.ts';

/** The common type of one column's values, or a refusal naming the row that differs. */
function commonType(types: (FieldType | null)[], at: Tree[], column: string): FieldType {
  let t: FieldType | null = null;
  types.forEach((x, i) => {
    if (x === null || x === t) return;
    if (t === null) t = x;
    else if ((t === 'integer' && x === 'number') || (t === 'number' && x === 'integer')) t = 'number';
    else fail(at[i], 'VALUES', `column \`${column}\` holds ${t} values and, in row ${i + 1}, a ${x}; CAST them to one type`);
  });
  return t ?? 'string';
}

/** `valuesDefinition` → an inline source; `alias` is the FROM item's `AS t(a, b)`, `names` an INSERT's columns. */
export function planValues(values: Tree, env: Env, alias: Tree | null, names: string[] | null = null): Rel {
  const rows = childrenOf(values, 'valuesRowDefinition').map((r) => childrenOf(r, 'valueDefinition'));
  const width = rows[0]?.length ?? 0;
  rows.forEach((r, i) => {
    if (r.length !== width) fail(r[0] ?? values, 'VALUES', `row ${i + 1} has ${r.length} values, the first has ${width}`);
  });
  const qual = alias ? unquote(childOf(alias, 'identifier')!.getText()) : null;
  const aliasCols = alias && find(alias, 'identifierList') ? findAll(find(alias, 'identifierList')!, 'identifier').map((i) => unquote(i.getText())) : null;
  if (aliasCols && aliasCols.length !== width) fail(alias, 'VALUES … AS t(…)', `name the ${width} columns: AS ${qual ?? 't'}(${Array.from({ length: width }, (_, i) => `c${i + 1}`).join(', ')})`);
  const cols = aliasCols ?? names ?? Array.from({ length: width }, (_, i) => `EXPR$${i}`);
  if (names && names.length !== width) fail(values, 'INSERT INTO … VALUES', `each row has ${width} values for the ${names.length} columns (${names.join(', ')})`);
  return constantRows(rows, cols, qual, values, env);
}

/** Rows of constant expressions → an inline source whose columns are `cols`, qualified by `qual`. */
export function constantRows(rows: Tree[][], cols: string[], qual: string | null, at: Tree, env: Env, construct = 'VALUES'): Rel {
  const values = at;
  const scope = { cols: [] as Col[], sql: env.sql, tryCasts: env.prep.tryCasts };
  const liftedScope = { ...scope, sql: env.prep.unlifted };
  const texts = rows.map((r) =>
    r.map((v) => {
      const lifted = liftedValue(v, env.prep.valueCells, env.prep.unlifted);
      return lifted ? weirExpr(lifted, liftedScope, construct) : weirExpr(v, scope, construct);
    }),
  );
  const types = cols.map((c, j) => commonType(texts.map((r) => exprType(r[j], [])), rows.map((r) => r[j]), c));
  const data = texts.map((r, i) =>
    Object.fromEntries(
      cols.map((c, j) => {
        try {
          return [c, compileExpr(r[j]).evaluate({})];
        } catch (e) {
          return fail(rows[i][j], construct, `the value does not evaluate: ${(e as Error).message}`);
        }
      }),
    ),
  );
  const id = nodeId(env, 'values');
  env.g.add({ id, kind: 'inlineSource', params: { rows: data, schema: Object.fromEntries(cols.map((c, j) => [c, types[j]])) }, inputs: [], at: values });
  return { node: id, cols: cols.map((c, j) => ({ field: c, name: c, quals: qual ? [qual] : [], type: types[j] })), eventTime: null, procTime: [], updating: false };
}
