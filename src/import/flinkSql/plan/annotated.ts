/**
 * Views of Weir's own export whose SQL only stands for the node: ported user code (a LATERAL
 * TABLE call or a WHERE on a function stub) and keyBy (a SELECT of every column). Their
 * `-- @weir` annotation holds the node's kind and params; the SQL gives the inputs and columns.
 */
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, findAll, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Graph, Rel } from './model.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { columnRef } from './expr.ts';
import { pathName } from './tableNames.ts';

const CODE_KINDS = new Set(['map', 'filter', 'flatMap', 'process', 'broadcastProcess', 'keyBy']);

/** The output names of a SELECT list: each item's alias, else the column it reads. */
function selectNames(sel: Tree): string[] {
  const list = find(childOf(sel, 'selectClause')!, 'selectList')!;
  return childrenOf(list, 'columnProjectItem').map((item) => {
    const alias = find(item, 'columnAlias');
    if (alias) return unquote(childOf(alias, 'identifier')!.getText());
    return columnRef(item)?.name ?? fail(item, 'SELECT list', 'give the column a name with AS');
  });
}

/** The node an annotated view of ported code or keyBy stands for, or null when the SQL says it all. */
export function annotatedNode(q: Tree, env: Env): Rel | null {
  const ann = env.annotation;
  if (!ann || typeof ann.kind !== 'string' || !CODE_KINDS.has(ann.kind) || !ann.params || typeof ann.params !== 'object') return null;
  const sel = find(q, 'selectStatement') ?? fail(q, `${ann.kind} view`, 'expected a SELECT');
  const from = childOf(sel, 'fromClause') ?? fail(sel, `${ann.kind} view`, 'expected FROM');
  const path = findAll(from, 'tablePath')[0] ?? fail(from, `${ann.kind} view`, 'expected the table or view it reads');
  const input = env.relation(pathName(path), path);
  const inputs: [string, string][] = [['in', input.node]];
  if (ann.kind === 'broadcastProcess') {
    const rules = typeof ann.rules === 'string' ? ann.rules : fail(path, 'broadcast process', "the annotation does not say which stream holds the rules ('rules')");
    inputs.push(['rules', env.relation(rules, path).node]);
  }
  const id = env.base;
  env.g.claim(id);
  env.g.add({ id, kind: ann.kind, params: ann.params as Record<string, unknown>, inputs, at: q });
  const names = selectNames(sel);
  const cols: Col[] = names.map((n) => ({ field: n, name: n, quals: [], type: input.cols.find((c) => c.field === n)?.type ?? null }));
  const eventTime = input.eventTime && names.includes(input.eventTime) ? input.eventTime : null;
  return { node: id, cols, eventTime, procTime: [], updating: input.updating && ann.kind !== 'process' };
}

/** An unannotated `<join>_versions` view of the export: a dedup keeping the last row per key by event time. */
export function isVersionsHelper(g: Graph, node: string, before: ReadonlySet<string>, name: string): boolean {
  const n = g.get(node);
  // Sources planned on the way do not count: they are read, not made, by the view.
  const added = g.nodes.filter((x) => !before.has(x.id) && x.inputs.length > 0);
  return name.endsWith('_versions') && added.length === 1 && n?.kind === 'dedup' && n.params.keep === 'last' && n.params.order === 'eventTime';
}
