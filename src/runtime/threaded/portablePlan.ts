import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';

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
  const nodes = plan.nodes.map(({ spec: _spec, ...rest }) => (hosted && rest.isSource && !hosted.has(rest.id) ? { ...rest, params: {} } : rest));
  const doc = hosted ? { ...plan.doc, nodes: [], edges: [] } : plan.doc;
  return { ...plan, doc, nodes };
}

export function revivePlan(p: PortablePlan): JobPlan {
  return {
    ...p,
    nodes: p.nodes.map((n) => {
      const spec = kindSpec(n.kind);
      if (!spec) throw new Error(`this worker does not know the operator kind "${n.kind}"`);
      return { ...n, spec };
    }),
  };
}
