import type { JobPlan } from '../pipeline/plan.ts';
import type { LoadOptions } from './protocol.ts';

/** Some node runs in more than one subtask: only then do Web Workers run anything in parallel. */
export const hasParallelNode = (plan: JobPlan): boolean => plan.nodes.some((n) => n.parallelism > 1);

/** Where this load runs: on Web Workers when asked for and the job has a parallel node, else in one worker. */
export const runsOnWorkers = (plan: JobPlan, opts: LoadOptions): boolean => opts.runtime === 'workers' && hasParallelNode(plan);

const SWITCH = 'choose "Run in: one worker" in the run settings and run again';

/** Why this job cannot start on Web Workers, or null. */
export function unsupportedOnWorkers(plan: JobPlan, opts: LoadOptions): string | null {
  if (opts.savepoint) return `starting from a savepoint runs in one worker; ${SWITCH}`;
  const feed = plan.nodes.find((n) => n.kind === 'feedSource');
  if (feed) return `live feed "${feed.id}" is connected from the engine worker, and a run on Web Workers cannot receive it yet; ${SWITCH}`;
  return null;
}

/** What a control that needs the operators in this thread says on a run on Web Workers. */
export function inProcessOnly(what: string): string {
  return `${what} needs the run in one worker: on Web Workers each subtask's state lives in another thread; ${SWITCH}`;
}
