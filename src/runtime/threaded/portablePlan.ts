import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';

/**
 * A compiled plan without its functions, so it can cross to a worker by structured clone.
 * The worker re-attaches each node's kind spec instead of compiling the document again: the
 * manager already validated it, and compiling (JSON-schema checks) made worker start-up slow.
 */
export type PortablePlan = Omit<JobPlan, 'nodes'> & { nodes: Omit<PlanNode, 'spec'>[] };

export function portablePlan(plan: JobPlan): PortablePlan {
  return { ...plan, nodes: plan.nodes.map(({ spec: _spec, ...rest }) => rest) };
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
