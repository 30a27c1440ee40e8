import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { isPackedRows, packRows, unpackRows } from './codec.ts';

/**
 * A compiled plan without its functions, so it can cross to a worker by structured clone.
 * The worker re-attaches each node's kind spec instead of compiling the document again: the
 * manager already validated it, and compiling (JSON-schema checks) made worker start-up slow.
 */
export type PortablePlan = Omit<JobPlan, 'nodes'> & { nodes: Omit<PlanNode, 'spec'>[] };

/**
 * `hosted`: the nodes with a subtask on the receiving worker. A source's params can be its whole
 * input (inline rows), and only the worker running the source reads them, so other workers get
 * the source without params; the document keeps its settings, not its nodes (the plan has them).
 * Every worker used to receive, clone and keep every inline row.
 */
export function portablePlan(plan: JobPlan, hosted?: ReadonlySet<string>): PortablePlan {
  const nodes = plan.nodes.map(({ spec: _spec, ...rest }) => {
    if (!hosted || !rest.isSource) return rest;
    if (!hosted.has(rest.id)) return { ...rest, params: {} };
    // An inline source's rows travel as columns (see packRows), rebuilt in the worker by revivePlan.
    const rows = rest.params.rows;
    return Array.isArray(rows) && rows.length >= PACK_ROWS_FROM ? { ...rest, params: { ...rest.params, rows: packRows(rows) } } : rest;
  });
  const doc = hosted ? { ...plan.doc, nodes: [], edges: [] } : plan.doc;
  return { ...plan, doc, nodes };
}

const PACK_ROWS_FROM = 64;

export function revivePlan(p: PortablePlan): JobPlan {
  return {
    ...p,
    nodes: p.nodes.map((n) => {
      const spec = kindSpec(n.kind);
      if (!spec) throw new Error(`this worker does not know the operator kind "${n.kind}"`);
      const params = isPackedRows(n.params.rows) ? { ...n.params, rows: unpackRows(n.params.rows) } : n.params;
      return { ...n, params, spec };
    }),
  };
}
