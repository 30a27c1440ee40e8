/**
 * One CREATE TEMPORARY VIEW → one pipeline node, recognised by the shape of its query: UNION ALL,
 * window TVF, GROUP BY, join, LATERAL TABLE, ROW_NUMBER() pattern, WHERE, or a plain SELECT list.
 */
import type { Query, Select } from './query.ts';
import type { Annotation, ImportContext, ImportedNode, Relation } from './context.ts';
import { expectColumns, fail, itemName, plainItems, singleTable } from './context.ts';
import { plainColumn, weirExpr } from './exprs.ts';
import { aggregateNode, isAggregate, isSessionWindow, sessionNode, windowTvfNode } from './aggregates.ts';
import { isCodePredicate, joinNode, lateralNode } from './joins.ts';
import { isRanking, rankingNode } from './ranking.ts';

function unionNode(cx: ImportContext, name: string, q: Extract<Query, { kind: 'union' }>, ann: Annotation | null): ImportedNode {
  const first = plainItems(q.branches[0]);
  const inputs: [string, string][] = q.branches.map((b) => {
    const rel = singleTable(cx, b.from, 'UNION ALL');
    if (b.where || b.groupBy) fail(b.tok, 'UNION ALL', 'each branch selects columns from one table or view, nothing more');
    const cols = plainItems(b);
    if (!first || !cols || cols.join() !== first.join()) fail(b.tok, 'UNION ALL', 'every branch selects the same plain columns in the same order');
    if ([...cols].sort().join() !== [...rel.columns].sort().join()) fail(b.tok, 'UNION ALL', `\`${rel.name}\` has the columns (${rel.columns.join(', ')}); a branch must select all of them`);
    return ['in', rel.name];
  });
  return { id: name, kind: 'union', params: {}, inputs, annotation: ann };
}

function filterNode(cx: ImportContext, name: string, s: Select, input: Relation, ann: Annotation | null): ImportedNode {
  expectColumns(s, input.columns, 'WHERE');
  const where = s.where!;
  if (isCodePredicate(cx, where)) {
    const code = (ann?.params as { code?: string } | undefined)?.code;
    if (code === undefined) fail(where, 'WHERE', 'the predicate is a ported function; the import needs its original code in the view\'s @weir annotation');
    return { id: name, kind: 'filter', params: { code }, inputs: [['in', input.name]], annotation: ann };
  }
  return { id: name, kind: 'filter', params: { where: weirExpr(where, cx.sql, 'WHERE') }, inputs: [['in', input.name]], annotation: ann };
}

/** A plain SELECT list: keyBy (when annotated), map with `set` (when annotated and shaped so), else project. */
function selectNode(cx: ImportContext, name: string, s: Select, input: Relation, ann: Annotation | null): ImportedNode {
  const inputs: [string, string][] = [['in', input.name]];
  if (ann?.kind === 'keyBy') {
    expectColumns(s, input.columns, 'key by');
    return { id: name, kind: 'keyBy', params: (ann.params as Record<string, unknown>) ?? fail(s.tok, 'key by', 'the annotation lacks the key'), inputs, annotation: ann };
  }
  const names = s.items.map((it) => itemName(it) ?? fail(it.expr, 'SELECT list', 'give the expression a name with AS'));
  if (new Set(names).size !== names.length) fail(s.tok, 'SELECT list', 'two columns have the same name');
  if (ann?.kind === 'map' && input.columns.every((c, i) => names[i] === c)) {
    const set = s.items.flatMap((it, i) => (plainColumn(it.expr) === names[i] ? [] : [{ name: names[i], expr: weirExpr(it.expr, cx.sql, 'SELECT list') }]));
    if (set.length) return { id: name, kind: 'map', params: { set }, inputs, annotation: ann };
  }
  const fields = s.items.map((it, i) => ({ name: names[i], expr: weirExpr(it.expr, cx.sql, 'SELECT list') }));
  return { id: name, kind: 'project', params: { fields }, inputs, annotation: ann };
}

export function viewNode(cx: ImportContext, name: string, q: Query, ann: Annotation | null, helpers: Map<string, string>): ImportedNode {
  if (q.kind === 'union') return unionNode(cx, name, q, ann);
  const f = q.from;
  if (f.kind === 'tvf') return windowTvfNode(cx, name, q, ann);
  if (f.kind === 'join') {
    if (f.right.kind === 'lateral') return lateralNode(cx, name, q, ann);
    if (f.type === 'cross') fail(f.tok, 'CROSS JOIN', 'only CROSS JOIN LATERAL TABLE(…) is supported');
    return joinNode(cx, name, q, ann, helpers);
  }
  if (f.kind === 'subquery') {
    if (isRanking(q)) return rankingNode(cx, name, q, ann);
    fail(f.tok, 'subquery', 'the import reads subqueries only in the ROW_NUMBER() patterns (Top-N, deduplication)');
  }
  if (f.kind === 'lateral') fail(f.tok, 'LATERAL TABLE', 'join it to its input: FROM t AS i CROSS JOIN LATERAL TABLE(…)');
  if (isSessionWindow(q)) return sessionNode(cx, name, q, ann);
  if (isAggregate(cx, q)) return aggregateNode(cx, name, q, ann);
  const input = singleTable(cx, f, 'FROM');
  if (f.alias) fail(f.tok, 'FROM', 'a table alias is only read in joins');
  if (q.where) return filterNode(cx, name, q, input, ann);
  return selectNode(cx, name, q, input, ann);
}

/** Output columns of a view: the names of its (first branch's) select items. */
export function viewColumns(q: Query): string[] {
  const s = q.kind === 'union' ? q.branches[0] : q;
  return s.items.map((it) => itemName(it) ?? fail(it.expr, 'SELECT list', 'give the expression a name with AS'));
}
