import type { NodeTask } from '../engine/nodeTask.ts';

/**
 * How time reaches an operator subtask: a new combined input watermark fires the event-time
 * timers it passes, in timestamp order and each at its own time, before the operator sees the
 * watermark itself; the host's clock fires processing-time timers. `route` sends on what each
 * step emitted, so downstream sees timer output before the watermark that caused it.
 */

/** Advances the operator to watermark `min`; false when it is not ahead of the current one. */
export function advanceEventTime(task: NodeTask, min: number, route: () => void): boolean {
  if (min <= task.currentWatermark()) return false;
  for (let t = task.timers.pollDue('event', min); t; t = task.timers.pollDue('event', min)) {
    task.setWatermark(Math.max(task.currentWatermark(), t.ts));
    task.fireTimer(t);
    route();
  }
  task.advanceWatermark(min);
  route();
  return true;
}

/** Fires the processing-time timers due at `now`; true when any fired. */
export function fireProcessingTimers(task: NodeTask, now: number, route: () => void): boolean {
  let fired = false;
  for (let t = task.timers.pollDue('processing', now); t; t = task.timers.pollDue('processing', now)) {
    task.fireTimer(t);
    route();
    fired = true;
  }
  return fired;
}
