import type { JobPlan } from '../pipeline/plan.ts';
import { LocalCluster } from './localCluster.ts';
import type { ClusterOptions, ClusterResult } from './localCluster.ts';

/** The plan with one subtask per node: the parallelism a plain run uses, whatever the document asks. */
export function singleSubtaskPlan(plan: JobPlan): JobPlan {
  if (plan.nodes.every((n) => n.parallelism === 1)) return plan;
  return { ...plan, nodes: plan.nodes.map((n) => (n.parallelism === 1 ? n : { ...n, parallelism: 1 })) };
}

export type InProcessOptions = Pick<ClusterOptions, 'batchSize' | 'inputs' | 'readers' | 'keepChangelog' | 'onPublish' | 'onDeadLetter' | 'chain'>;

/**
 * A plain run in this thread: the one runtime with one subtask per node, processing time
 * simulated from the sources' rates, no checkpoints (so sinks publish as rows arrive). The same
 * document and input always give the same changelogs. Without a live source it returns
 * finished; the cluster stays readable (subtasks, state, metrics).
 */
export function runInProcess(plan: JobPlan, opts: InProcessOptions = {}): { cluster: LocalCluster; result: ClusterResult } {
  const cluster = inProcessCluster(plan, opts);
  return { cluster, result: cluster.runSync() };
}

/** The cluster `runInProcess` runs, for a caller that drives it: `schedule: 'live'` for a wall-clock run. */
export function inProcessCluster(plan: JobPlan, opts: InProcessOptions & { schedule?: 'simulated' | 'live' } = {}): LocalCluster {
  return new LocalCluster(singleSubtaskPlan(plan), { schedule: 'simulated', checkpointIntervalMs: null, ...opts });
}
