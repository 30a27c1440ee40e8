import type { Element } from '../core/types.ts';
import type { NodeTask } from '../engine/nodeTask.ts';
import type { KeyedStateBackend } from '../state/backend.ts';
import type { RunnerTap } from './runnerHost.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';

/** Backends that count their writes (the heap backend) tell the tap whether a record changed state. */
function mutationCount(b: KeyedStateBackend): number {
  return (b as { mutations?: () => number }).mutations?.() ?? 0;
}

/**
 * A batch processed under the observatory's tap: the elements it picks go through the operator
 * one at a time, so the tap sees exactly what each one emitted and whether it wrote state; the
 * runs between them stay batches. Apart from the runner because only an observed run pays for it.
 */
export function processTapped(runner: SubtaskRunner, tap: RunnerTap, task: NodeTask, port: string, els: Element[], route: () => void, routeOut: (out: Map<string, Element[]>) => void): void {
  const pick = tap.pick(runner, port, els);
  if (!pick || (pick !== 'all' && pick.length === 0)) {
    task.processBatch(port, els);
    return route();
  }
  const picked = pick === 'all' ? null : new Set(pick);
  let from = 0;
  for (let i = 0; i < els.length; i++) {
    if (picked && !picked.has(i)) continue;
    if (i > from) {
      task.processBatch(port, els.slice(from, i));
      route();
    }
    const before = mutationCount(task.state);
    task.processBatch(port, [els[i]]);
    const out = task.drain();
    tap.processed(runner, port, els[i], out, mutationCount(task.state) !== before);
    if (out) routeOut(out);
    from = i + 1;
  }
  if (from < els.length) {
    task.processBatch(port, els.slice(from));
    route();
  }
}
