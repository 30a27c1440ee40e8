/**
 * `FROM t CROSS JOIN UNNEST(t.arr) AS u (x, …)`, its comma form `FROM t, UNNEST(…) AS u (x)`,
 * `JOIN UNNEST(…) ON TRUE` and `LEFT JOIN UNNEST(…) ON TRUE`: a lateral expansion of each row of
 * the left side, planned as an `unnest` node (what Flink's planner makes of it: a correlate with
 * its built-in table function). Column names and types come from the alias list and the ARRAY /
 * MAP type the CREATE TABLE declares.
 */
import type { FieldType } from '../../../core/streamInfo.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, kids, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Rel } from './model.ts';
import { fail } from './model.ts';
import type { Env } from './env.ts';
import { nodeId, scopeOf } from './env.ts';
import { columnRef, resolveColumn, weirExpr } from './expr.ts';
import type { Collection } from './collectionType.ts';

/** The `UNNEST(…)` a join's right side is, with its alias, or null. */
export function unnestSide(rightT: Tree): { call: Tree; arg: Tree; alias: Tree | null } | null {
  const primary = find(rightT, 'tablePrimary');
  const call = primary ? childOf(primary, 'atomExpressionTable') : null;
  if (!call || !kids(call).some((k) => k.symbol?.text?.toUpperCase() === 'UNNEST')) return null;
  const arg = kids(call).find((k) => !k.symbol);
  if (!arg) fail(call, 'UNNEST()', 'name the array or map to expand: UNNEST(t.items)');
  return { call, arg, alias: find(rightT, 'tableAlias') };
}

type JoinKind = 'inner' | 'left' | 'right' | 'full' | 'cross';

/** `ON TRUE`, the only condition Flink's correlate takes for a LEFT JOIN. */
const isTrue = (t: Tree | null): boolean => !!t && t.getText().toUpperCase() === 'TRUE';

/** A field name for `name` that no input field has. */
function freeField(name: string, taken: Set<string>): string {
  let field = name;
  for (let k = 0; taken.has(field); k++) field = `${name}${k}`;
  taken.add(field);
  return field;
}

/** What the annotation of Weir's own export remembers of the node: the element types and fields. */
function annotated(env: Env): { types?: FieldType[]; elementFields?: string[] } {
  const p = env.annotation?.kind === 'unnest' ? (env.annotation.params as Record<string, unknown> | undefined) : undefined;
  return { types: Array.isArray(p?.types) ? (p.types as FieldType[]) : undefined, elementFields: Array.isArray(p?.elementFields) ? (p.elementFields as string[]) : undefined };
}

/**
 * The unnest node over `left`. `on` is the join's condition (or, for the comma form, the WHERE):
 * ON TRUE is nothing; for an inner expansion any other condition filters its rows; a LEFT one
 * takes only ON TRUE, as in Flink.
 */
export function planUnnest(t: Tree, left: Rel, side: NonNullable<ReturnType<typeof unnestSide>>, type: JoinKind, on: Tree | null, env: Env, filterAfter: (rel: Rel, cond: Tree) => Rel): Rel {
  if (type === 'right' || type === 'full') fail(t, `${type.toUpperCase()} JOIN UNNEST`, 'expand with CROSS JOIN UNNEST(…) or LEFT JOIN UNNEST(…) ON TRUE');
  if (type === 'left' && !isTrue(on)) fail(on ?? t, 'LEFT JOIN UNNEST', 'takes ON TRUE (as in Flink); filter the elements in a WHERE above');
  const scope = scopeOf(env, left);
  const expr = weirExpr(side.arg, scope, 'UNNEST');
  const ref = columnRef(side.arg);
  const col = ref ? resolveColumn(scope, ref.qual, ref.name, side.arg) : null;
  // A column of a known scalar type cannot be expanded (Flink's validator refuses it too). Weir's own
  // export writes json columns as STRING, so there its annotation, not the type, says what it is.
  if (col && col.type !== null && col.type !== 'json' && env.annotation?.kind !== 'unnest') fail(side.call, 'UNNEST', `\`${col.name}\` is ${col.type === 'string' ? 'text' : `a ${col.type}`}, not a collection; declare it ARRAY<…> or MAP<…> in its CREATE TABLE`);
  const collection: Collection | undefined = col?.collection;
  const aliasIds = side.alias ? childrenOf(side.alias, 'identifier') : [];
  const table = aliasIds.length ? unquote(aliasIds[0].getText()) : null;
  const list = side.alias ? find(side.alias, 'identifierList') : null;
  const listed = list ? childrenOf(find(list, 'identifierSeq') ?? list, 'identifier').map((i) => unquote(i.getText())) : null;
  const width = collection?.types.length;
  const names = listed ?? collection?.names ?? (width === 2 && !collection?.names ? null : ['EXPR$0']);
  if (!names) fail(side.call, 'UNNEST of a MAP', 'name its key and value columns: UNNEST(m) AS t (k, v)');
  if (width !== undefined && names.length !== width) {
    const what = collection!.names ? `rows of ${width} fields (${collection!.names.join(', ')})` : width === 2 ? 'map entries (key, value)' : 'single values';
    fail(list ?? side.call, `UNNEST(${ref?.name ?? '…'}) AS … (${names.join(', ')})`, `the elements are ${what}: name ${width} column${width === 1 ? '' : 's'}`);
  }
  const remembered = annotated(env);
  const taken = new Set(left.cols.map((c) => c.field));
  const fields = names.map((n) => freeField(n, taken));
  const types = remembered.types ?? collection?.types;
  const elementFields = remembered.elementFields ?? collection?.names ?? undefined;
  const id = nodeId(env, 'unnest');
  const params: Record<string, unknown> = { expr, as: fields };
  if (elementFields && names.length > 1) params.elementFields = elementFields;
  if (types && types.some((x) => x !== 'json')) params.types = types;
  if (type === 'left') params.outer = true;
  env.g.add({ id, kind: 'unnest', params, inputs: [['in', left.node]], at: t });
  const added: Col[] = names.map((n, i) => ({ field: fields[i], name: n, quals: table ? [table] : [], type: types?.[i] ?? 'json' }));
  const rel: Rel = { ...left, node: id, cols: [...left.cols, ...added], primaryKey: null };
  // Only an inner expansion gets here with a condition other than TRUE (or a comma form's WHERE).
  return on && !isTrue(on) ? filterAfter(rel, on) : rel;
}
