import type { PaneView, MergeView } from '../../engine/operators/window/panes.ts';
import type { SubtaskRunner } from '../subtaskRunner.ts';
import type { Recorder } from './recorder.ts';
import { finiteOrNull } from './ring.ts';
import type { PaneObservation, WindowObservation } from './types.ts';

interface KeeperView {
  watermark: number;
  panes: PaneView[];
  recentlyPurged: PaneView[];
  recentMerges: MergeView[];
}

/** Open panes (pending or fired but not yet purged), recently purged ones, merges and late rows. */
export function observeWindow(node: string, runners: readonly SubtaskRunner[], subtask: number | null, rec: Recorder): WindowObservation | null {
  const first = runners[0];
  if (!first || first.node.kind !== 'window') return null;
  const panes: PaneObservation[] = [];
  const merges: WindowObservation['merges'] = [];
  let lateRecords = 0;
  let watermark = Infinity;
  let inspected = 0;
  for (const r of runners) {
    if (subtask !== null && r.index !== subtask) continue;
    const task = r.task!;
    lateRecords += task.counters.lateRecords ?? 0;
    const v = task.operator.inspect?.() as KeeperView | undefined;
    if (!v) continue;
    inspected++;
    watermark = Math.min(watermark, v.watermark);
    for (const p of [...v.panes, ...v.recentlyPurged]) panes.push({ key: p.key, start: p.start, end: p.end, rows: p.rows, value: p.value, status: p.status });
    for (const m of v.recentMerges) merges.push({ key: m.key, from: m.from.map((w) => [w.start, w.end]), into: [m.into.start, m.into.end] });
  }
  panes.sort((a, b) => a.start - b.start || a.end - b.end);
  return {
    node,
    windowType: String(first.node.params.type ?? 'tumble'),
    watermark: finiteOrNull(watermark),
    watermarkEnded: inspected > 0 && watermark === Infinity,
    panes,
    merges,
    lateRecords,
    recentLate: rec.recentLate.get(node)?.toArray() ?? [],
  };
}
