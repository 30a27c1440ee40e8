/** What every operator mapping shares: its signature and small SELECT builders. */
import type { PlanNode } from '../../../pipeline/plan.ts';
import type { ExportContext, Relation, ViewDef } from '../context.ts';
import { ident, identList } from '../sqlText.ts';

export interface OperatorArgs {
  node: PlanNode;
  cx: ExportContext;
  /** The node's own output relation (named after the node id), from its inferred stream. */
  out: Relation;
}

/**
 * Maps one node to the views that compute it; the last view is named after the node. Returns null
 * when SQL cannot express the node at all (after warning why), which makes everything downstream unavailable.
 */
export type OperatorExport = (args: OperatorArgs) => ViewDef[] | null;

/** The one relation on port `in`, or null after a warning when it is missing. */
export function needInput(a: OperatorArgs, port = 'in'): Relation | null {
  const rel = a.cx.input(a.node, port);
  if (!rel) a.cx.warn(a.node.id, `skipped: its ${port} input is a stream Flink SQL cannot produce (see the warnings upstream)`);
  return rel;
}

/** The node's label for comments: `id` or `id` ("Label"). */
export function describe(node: PlanNode): string {
  return node.label && node.label !== node.id ? `\`${node.id}\` (${node.label})` : `\`${node.id}\``;
}

export const view = (name: string, comments: string[], query: string): ViewDef => ({ name, comments, query });

/** SELECT `a`, `b` FROM `t` */
export const selectAll = (columns: readonly string[], from: string): string => `SELECT ${identList(columns)}\nFROM ${ident(from)}`;

/** Indents every line of a subquery by two spaces. */
export const indent = (sql: string): string =>
  sql
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

/** `expr AS \`name\``, or just the expression when it already is that bare column. */
export function selectItem(expr: string, name: string): string {
  return expr === ident(name) ? expr : `${expr} AS ${ident(name)}`;
}

/** The node's params as its kind's params type; the compiler has checked them against the kind's schema. */
export const paramsOf = <P>(node: PlanNode): P => node.params as unknown as P;
