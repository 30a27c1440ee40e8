import type { JobPlan, PlanNode } from '../../pipeline/plan.ts';
import { subtaskId } from '../../checkpoint/types.ts';

/**
 * Slot sharing as in Flink: worker i hosts subtask i of every node whose parallelism is above i,
 * so a pipeline of parallelism N needs N workers and each worker holds one slice of the whole
 * graph. With fewer workers than that, subtask i goes to worker i mod workers.
 */
export function workerCountFor(plan: JobPlan, maxWorkers = Infinity): number {
  const widest = Math.max(1, ...plan.nodes.map((n) => n.parallelism));
  return Math.max(1, Math.min(widest, Math.floor(maxWorkers)));
}

export const workerOf = (index: number, workers: number): number => index % workers;

export interface Placement {
  node: PlanNode;
  index: number;
  id: string;
}

export function subtasksOn(plan: JobPlan, worker: number, workers: number): Placement[] {
  const out: Placement[] = [];
  for (const node of plan.nodes) {
    for (let index = 0; index < node.parallelism; index++) {
      if (workerOf(index, workers) === worker) out.push({ node, index, id: subtaskId(node.id, index) });
    }
  }
  return out;
}

/** Which worker hosts a subtask id (`node#index`). */
export function workerHosting(plan: JobPlan, subtask: string, workers: number): number | null {
  const at = subtask.lastIndexOf('#');
  const node = plan.nodes.find((n) => n.id === subtask.slice(0, at));
  const index = Number(subtask.slice(at + 1));
  if (!node || !Number.isInteger(index) || index < 0 || index >= node.parallelism) return null;
  return workerOf(index, workers);
}
