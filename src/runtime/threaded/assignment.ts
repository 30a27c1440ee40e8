import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import { subtaskId } from '../../checkpoint/types.ts';

/** `JobOptions.ownWorker`: a node id, or a group of node ids that share workers of their own. */
export type OwnWorker = readonly (string | readonly string[])[];

/** The groups taken out of slot sharing, a lone node id being a group of one. */
function ownGroups(ownWorker: OwnWorker): readonly (readonly string[])[] {
  return ownWorker.map((g) => (typeof g === 'string' ? [g] : g));
}

/**
 * Slot sharing as in Flink: worker i hosts subtask i of every node whose parallelism is above i,
 * so a pipeline of parallelism N needs N workers and each worker holds one slice of the whole
 * graph. With fewer workers than that, subtask i goes to worker i mod workers.
 *
 * Entries of `ownWorker` leave slot sharing (as separate slot-sharing groups in Flink): a node id
 * gets a worker of its own per subtask, after the shared ones, so that a thread that blocks (e.g. a
 * benchmark's pacer sleeping until a record's scheduled time) never stalls the rest of the job. A
 * list of node ids is one group: subtask i of each of them shares the group's worker i (e.g. the
 * source that feeds that pacer, so their records cross no thread between them).
 */
export function workerCountFor(plan: JobPlan, maxWorkers = Infinity, ownWorker: OwnWorker = []): number {
  const own = new Set(ownGroups(ownWorker).flat());
  const widest = Math.max(1, ...plan.nodes.filter((n) => !own.has(n.id)).map((n) => n.parallelism));
  return Math.max(1, Math.min(widest, Math.floor(maxWorkers))) + ownGroups(ownWorker).reduce((s, g) => s + groupWidth(plan, g), 0);
}

const groupWidth = (plan: JobPlan, group: readonly string[]): number => Math.max(0, ...plan.nodes.filter((n) => group.includes(n.id)).map((n) => n.parallelism));

/** The worker of subtask `index` of `node`, for a job of `workers` workers. */
export function placement(plan: JobPlan, workers: number, ownWorker: OwnWorker = []): (node: string, index: number) => number {
  const first = new Map<string, number>();
  let next = workers;
  for (const g of [...ownGroups(ownWorker)].reverse()) {
    next -= groupWidth(plan, g);
    for (const id of g) first.set(id, next);
  }
  const shared = next;
  return (node, index) => {
    const own = first.get(node);
    return own === undefined ? index % shared : own + index;
  };
}

export interface Placement {
  node: PlanNode;
  index: number;
  id: string;
}

export function subtasksOn(plan: JobPlan, worker: number, workers: number, ownWorker: OwnWorker = []): Placement[] {
  const at = placement(plan, workers, ownWorker);
  const out: Placement[] = [];
  for (const node of plan.nodes) {
    for (let index = 0; index < node.parallelism; index++) {
      if (at(node.id, index) === worker) out.push({ node, index, id: subtaskId(node.id, index) });
    }
  }
  return out;
}

/** Which worker hosts a subtask id (`node#index`). */
export function workerHosting(plan: JobPlan, subtask: string, workers: number, ownWorker: OwnWorker = []): number | null {
  const at = subtask.lastIndexOf('#');
  const node = plan.nodes.find((n) => n.id === subtask.slice(0, at));
  const index = Number(subtask.slice(at + 1));
  if (!node || !Number.isInteger(index) || index < 0 || index >= node.parallelism) return null;
  return placement(plan, workers, ownWorker)(node.id, index);
}
