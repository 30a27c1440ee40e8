/**
 * Two forms of FROM and SELECT items that dt-sql-parser's tree does not hand over as the planner
 * reads them: a table alias with a column list, and a call of a function the grammar does not know.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, findAll, kids, ruleOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import type { FromRel } from './select.ts';

/** `FROM … AS t (a, b, …)`: the columns take these names, in order, as in Flink. */
export function renamedColumns(r: FromRel, list: Tree, alias: Tree): FromRel {
  const names = findAll(list, 'identifier').map((i) => unquote(i.getText()));
  if (r.tvf || r.rank) fail(alias, 'table alias column list', 'rename the columns of a window table function or a ranking in the SELECT list: SELECT a AS x');
  const visible = r.cols.filter((c) => !c.usingSide);
  if (names.length !== visible.length) fail(alias, 'table alias column list', `${names.length} names for the ${visible.length} columns (${visible.map((c) => c.name).join(', ')}); name every column, in order`);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) fail(alias, 'table alias column list', `\`${dup}\` is named twice`);
  const renamed = new Map(visible.map((c, i) => [c, names[i]]));
  return { ...r, cols: r.cols.filter((c) => !c.usingSide).map((c) => ({ ...c, name: renamed.get(c)! })) };
}

/**
 * dt-sql-parser reads `f(x)` without AS, for an f it does not know as a built-in, as the column
 * `f` followed by a stray `(x)`: the call would vanish. Said here, with the form it reads.
 */
export function unnamedCallOfUnknown(item: Tree, alias: Tree | null, env: Env): void {
  const [literal, rest] = kids(item);
  if (alias || !literal || ruleOf(literal) !== 'selectLiteralColumnName' || !rest || ruleOf(rest) !== 'expression' || !rest.getText().startsWith('(')) return;
  const head = childOf(literal, 'columnName');
  if (!head) return;
  const fn = unquote(head.getText());
  const created = env.functions.has(fn.toUpperCase());
  fail(
    head,
    `${fn}(…)`,
    created
      ? `name the call of a created function with AS (SELECT ${fn}(…) AS ${fn.toLowerCase()}_value): without a name the grammar cannot read it`
      : `not a Flink built-in function, and no CREATE FUNCTION ${fn} above; a function of your own is a map node with code (or CREATE FUNCTION ${fn} AS '…' and a call named with AS)`,
  );
}
