import type { NodeTask } from '../engine/nodeTask.ts';
import type { RunnerHost } from './runnerHost.ts';
import { keyGroupOf, keyGroupRange } from '../core/keys.ts';
import type { KeyedStateSnapshot } from '../state/backend.ts';
import { isDurableBackend } from '../state/backend.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import { parseSubtaskId } from '../checkpoint/types.ts';

/**
 * A subtask's part of a checkpoint: the synchronous copy handed to the host (with a durable
 * backend, only the dirty set is frozen and the chunks are written afterwards), what an
 * operator's snapshot holds (keyed state or its handle, operator state, timers, watermark,
 * counters), and how a new subtask takes that back from the snapshots of every old subtask of
 * its node, keeping the key groups it owns now, so a restore at another parallelism rescales the
 * state. Sources keep their position instead (sourceInput.ts).
 */

/**
 * Takes snapshot `id` and hands it to the host. `snapshot` builds it, given the pending handle
 * of a durable backend's keyed state (the host fills it in once the chunks are written).
 */
export function takeSnapshot(host: RunnerHost, task: NodeTask | null, incremental: boolean, id: number, alignMs: number, buffered: number, t0: number, snapshot: (durableKeyed?: SubtaskSnapshot['keyed']) => SubtaskSnapshot): void {
  const backend = task?.state;
  if (backend && isDurableBackend(backend)) {
    // Only the dirty set is frozen here; chunks are written while the pipeline moves on.
    const persisted = backend.persist(id, { incremental });
    const snap = snapshot({ type: 'chunks', store: 'pending', chunks: [] });
    host.snapshotTaken(id, snap, { alignMs, syncMs: host.clock.now() - t0, buffered }, persisted.done);
    return;
  }
  const snap = snapshot();
  host.snapshotTaken(id, snap, { alignMs, syncMs: host.clock.now() - t0, buffered });
}

type OperatorParts = Pick<SubtaskSnapshot, 'keyed' | 'operator' | 'timers' | 'watermark' | 'counters' | 'records'>;

/** The synchronous copy of an operator's state; with `durableKeyed`, the keyed state is that handle. */
export function operatorSnapshot(task: NodeTask, durableKeyed?: SubtaskSnapshot['keyed']): OperatorParts {
  const s = durableKeyed
    ? { keyed: null, operator: task.operatorState.snapshot(), timers: task.timers.snapshot(), watermark: task.currentWatermark(), counters: { ...task.counters } }
    : task.snapshot();
  return {
    keyed: durableKeyed ?? { type: 'inline', snapshot: s.keyed! },
    operator: s.operator,
    timers: s.timers,
    watermark: s.watermark,
    counters: s.counters,
    records: { in: task.recordsIn, out: task.recordsOut },
  };
}

/**
 * Restores subtask `index` of `parallelism` (`id`) from the old subtasks' snapshots. Returns the
 * promise a durable backend loads its chunks under (the host waits for it before running), or null.
 */
export function restoreOperatorState(task: NodeTask, snaps: readonly SubtaskSnapshot[], id: string, index: number, parallelism: number, maxParallelism: number): Promise<void> | null {
  const mp = maxParallelism;
  const [lo, hi] = keyGroupRange(index, parallelism, mp);
  const owns = (kg: number) => kg >= lo && kg <= hi;
  const backend = task.state;
  let ready: Promise<void> | null = null;
  if (isDurableBackend(backend)) {
    ready = backend.restoreHandles(snaps.map((s) => s.keyed), owns);
  } else {
    if (snaps.some((s) => s.keyed.type !== 'inline')) throw new Error(`${id}: this checkpoint was written by a durable state backend; restore it with the same backend`);
    backend.restore(snaps.map((s) => (s.keyed as { snapshot: KeyedStateSnapshot }).snapshot), owns);
  }
  task.operatorState.restore(snaps.map((s) => s.operator), index, parallelism);
  task.timers.restore(snaps.flatMap((s) => s.timers), (k) => owns(keyGroupOf(k, mp)));
  task.restoreWatermarks(snaps.map((s) => s.watermark));
  return ready;
}

type RestoredCounts = { recordsIn: number; recordsOut: number; counters: Record<string, number> };

/**
 * The counts the old subtasks had at the checkpoint, so the node counters go on from the
 * restored state instead of starting again at zero. Old subtask j's counts go to new subtask
 * j mod p: at the same parallelism each keeps its own, after a rescale the node's totals stay exact.
 */
export function restoredCounts(snaps: readonly SubtaskSnapshot[], index: number, parallelism: number): RestoredCounts {
  let recordsIn = 0;
  let recordsOut = 0;
  const counters: Record<string, number> = {};
  for (const s of snaps) {
    if (parseSubtaskId(s.subtask).index % parallelism !== index) continue;
    recordsIn += s.records?.in ?? 0;
    recordsOut += s.records?.out ?? 0;
    for (const [k, v] of Object.entries(s.counters)) counters[k] = (counters[k] ?? 0) + v;
  }
  return { recordsIn, recordsOut, counters };
}

/** An operator's counts go on from the restored ones (a source keeps only its records sent). */
export function setRestoredCounts(task: NodeTask, { recordsIn, recordsOut, counters }: RestoredCounts): void {
  task.recordsIn = recordsIn;
  task.recordsOut = recordsOut;
  for (const k of Object.keys(task.counters)) delete task.counters[k];
  Object.assign(task.counters, counters);
}
