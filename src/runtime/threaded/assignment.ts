import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import { subtaskId } from '../../checkpoint/types.ts';

/**
 * Slot sharing as in Flink: worker i hosts subtask i of every node whose parallelism is above i,
 * so a pipeline of parallelism N needs N workers and each worker holds one slice of the whole
 * graph. With fewer workers than that, subtask i goes to worker i mod workers.
 *
 * Nodes listed in `ownWorker` leave slot sharing (as a separate slot-sharing group in Flink): each
 * of their subtasks gets a worker of its own, after the shared ones, so that a thread that blocks
 * (e.g. a benchmark's pacer sleeping until a record's scheduled time) never stalls the rest of the job.
 */
export function workerCountFor(plan: JobPlan, maxWorkers = Infinity, ownWorker: readonly string[] = []): number {
  const own = plan.nodes.filter((n) => ownWorker.includes(n.id));
  const widest = Math.max(1, ...plan.nodes.filter((n) => !ownWorker.includes(n.id)).map((n) => n.parallelism));
  return Math.max(1, Math.min(widest, Math.floor(maxWorkers))) + own.reduce((s, n) => s + n.parallelism, 0);
}

/** The worker of subtask `index` of `node`, for a job of `workers` workers. */
export function placement(plan: JobPlan, workers: number, ownWorker: readonly string[] = []): (node: string, index: number) => number {
  const first = new Map<string, number>();
  let next = workers;
  for (const n of [...plan.nodes].reverse()) {
    if (!ownWorker.includes(n.id)) continue;
    next -= n.parallelism;
    first.set(n.id, next);
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

export function subtasksOn(plan: JobPlan, worker: number, workers: number, ownWorker: readonly string[] = []): Placement[] {
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
export function workerHosting(plan: JobPlan, subtask: string, workers: number, ownWorker: readonly string[] = []): number | null {
  const at = subtask.lastIndexOf('#');
  const node = plan.nodes.find((n) => n.id === subtask.slice(0, at));
  const index = Number(subtask.slice(at + 1));
  if (!node || !Number.isInteger(index) || index < 0 || index >= node.parallelism) return null;
  return placement(plan, workers, ownWorker)(node.id, index);
}
