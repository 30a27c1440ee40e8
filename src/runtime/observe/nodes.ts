import { keyGroupRange } from '../../core/keys.ts';
import type { LocalCluster } from '../localCluster.ts';
import type { SubtaskRunner } from '../subtaskRunner.ts';
import { finiteOrNull } from './ring.ts';
import { isObservable } from './stateSource.ts';
import type { ObservedTable } from './stateSource.ts';
import { approxSize } from '../../state/size.ts';
import type { NodeObservation, SubtaskObservation } from './types.ts';

/** Snapshot timings stay visible this long (job time) after the snapshot. */
export const SNAPSHOT_SHOWN_MS = 1000;

export interface SnapshotMark {
  checkpointId: number;
  syncMs: number;
  asyncMs: number | null;
  at: number;
}

/** Large states are re-measured every few frames: metrics walk every key. */
const BIG_STATE = 20_000;
const BIG_STATE_EVERY = 10;

export class NodeObserver {
  private readonly metricsCache = new WeakMap<SubtaskRunner, { keys: number; bytes: number; frame: number }>();
  private frameNo = 0;

  constructor(
    private readonly cluster: LocalCluster,
    private readonly snapshots: ReadonlyMap<string, SnapshotMark>,
  ) {}

  observe(): NodeObservation[] {
    this.frameNo++;
    const now = this.cluster.clock.now();
    const plan = this.cluster.plan;
    return plan.nodes.map((n) => {
      const runners = this.cluster.subtasksOf(n.id);
      const alive = this.cluster.phaseNow() !== 'failed';
      const subtasks = runners.map((r) => this.subtask(r, now, plan.maxParallelism, alive));
      let recordsIn = 0;
      let recordsOut = 0;
      let lateRecords = 0;
      let deadLetters = 0;
      for (const r of runners) {
        // A source has no task: it counts what it sent, restored with a checkpoint like the operators' counts.
        if (!r.task) {
          recordsOut += r.recordsEmitted;
          continue;
        }
        recordsIn += r.task.recordsIn;
        recordsOut += r.task.recordsOut;
        lateRecords += r.task.counters.lateRecords ?? 0;
        deadLetters += r.task.counters.deadLetters ?? 0;
      }
      const wms = runners.map((r) => r.watermark());
      return {
        node: n.id,
        recordsIn,
        recordsOut,
        deadLetters,
        lateRecords,
        watermark: wms.length ? finiteOrNull(Math.min(...wms)) : null,
        keys: subtasks.reduce((s, x) => s + x.keys, 0),
        bytes: subtasks.reduce((s, x) => s + x.bytes, 0),
        subtasks,
      };
    });
  }

  private subtask(r: SubtaskRunner, now: number, maxParallelism: number, alive: boolean): SubtaskObservation {
    const { keys, bytes } = this.stateSize(r);
    const al = r.alignment();
    const channels = al ? r.inputChannels() : [];
    const snap = this.snapshots.get(r.id);
    return {
      id: r.id,
      index: r.index,
      keys,
      bytes,
      keyGroups: keyGroupRange(r.index, r.node.parallelism, maxParallelism),
      watermark: finiteOrNull(r.watermark()),
      aligning: al && {
        checkpointId: al.checkpointId,
        blockedInputs: al.blockedChannels.map((ci) => `${channels[ci].port}#${channels[ci].from}`),
        buffered: al.buffered,
      },
      lastSnapshot: snap && now - snap.at <= SNAPSHOT_SHOWN_MS ? { ...snap } : null,
      alive,
    };
  }

  private stateSize(r: SubtaskRunner): { keys: number; bytes: number } {
    if (!r.task) return { keys: 0, bytes: 0 };
    if (isObservable(r.task.state)) return estimateSize(r.task.state.observeTables());
    const cached = this.metricsCache.get(r);
    if (cached && cached.keys > BIG_STATE && this.frameNo - cached.frame < BIG_STATE_EVERY) return cached;
    const m = r.task.stateMetrics();
    const fresh = { keys: m.keyCount, bytes: m.approxBytes, frame: this.frameNo };
    this.metricsCache.set(r, fresh);
    return fresh;
  }
}

/** Entries sampled per state for the byte estimate: a frame never walks every key for a size. */
const SIZE_SAMPLE = 32;

/**
 * Keys: the largest state's key count (exact when the states share keys, as operators' do).
 * Bytes: the average size of the first few entries times the entry count, per state.
 */
function estimateSize(tables: ObservedTable[]): { keys: number; bytes: number } {
  let keys = 0;
  let bytes = 0;
  for (const t of tables) {
    keys = Math.max(keys, t.table.size);
    if (t.table.size === 0) continue;
    let n = 0;
    let sampled = 0;
    for (const [k, c] of t.table) {
      sampled += approxSize(k) + approxSize(c.v) + 24;
      if (++n >= SIZE_SAMPLE) break;
    }
    bytes += Math.round((sampled / n) * t.table.size);
  }
  return { keys, bytes };
}
