import type { Element } from '../core/types.ts';
import type { NodeTask } from '../engine/nodeTask.ts';
import type { KeyedStateBackend } from '../state/backend.ts';
import type { RunnerTap } from './runnerHost.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';

/** Backends that count their writes (the heap backend) tell the tap whether a record changed state. */
function mutationCount(b: KeyedStateBackend): number {
  return (b as { mutations?: () => number }).mutations?.() ?? 0;
}

/** Appends what one part of the batch emitted to what the batch emitted so far (arrays of its own). */
function collect(into: Map<string, Element[]>, out: ReadonlyMap<string, readonly Element[]>): void {
  for (const [port, els] of out) {
    const all = into.get(port);
    if (!all) into.set(port, els.slice());
    else for (let i = 0; i < els.length; i++) all.push(els[i]);
  }
}

/**
 * A batch processed under the observatory's tap: the elements it picks go through the operator
 * one at a time, so the tap sees exactly what each one emitted and whether it wrote state; the
 * runs between them stay batches. What the whole batch emitted is sent on once, as the untapped
 * batch is: per port the same elements in the same order, so the channels (and with them the
 * schedule and the run's history) do not depend on which records are traced. Apart from the
 * runner because only an observed run pays for it.
 */
export function processTapped(runner: SubtaskRunner, tap: RunnerTap, task: NodeTask, port: string, els: Element[], route: () => void, routeOut: (out: Map<string, Element[]>) => void): void {
  const pick = tap.pick(runner, port, els);
  if (!pick || (pick !== 'all' && pick.length === 0)) {
    task.processBatch(port, els);
    return route();
  }
  const emitted = new Map<string, Element[]>();
  const n = pick === 'all' ? els.length : pick.length;
  let next = 0;
  for (let k = 0; k < n; k++) {
    const i = pick === 'all' ? k : pick[k];
    if (i > next) processRun(task, port, els, next, i, emitted);
    const before = mutationCount(task.state);
    task.processBatch(port, [els[i]]);
    const out = task.drain();
    tap.processed(runner, port, els[i], out, mutationCount(task.state) !== before);
    if (out) collect(emitted, out);
    next = i + 1;
  }
  if (next < els.length) processRun(task, port, els, next, els.length, emitted);
  if (emitted.size) routeOut(emitted);
}

/** Elements `from` to `to` (exclusive) as one batch, untraced. */
function processRun(task: NodeTask, port: string, els: Element[], from: number, to: number, emitted: Map<string, Element[]>): void {
  task.processBatch(port, from === 0 && to === els.length ? els : els.slice(from, to));
  const out = task.drain();
  if (out) collect(emitted, out);
}
