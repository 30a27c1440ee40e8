import type { DeadLetter, Row } from '../core/types.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import type { CheckpointRecord, CheckpointStore } from '../checkpoint/types.ts';
import type { NodeMetrics, NodeTask } from '../engine/nodeTask.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';
import type { ChainPlan } from './chaining.ts';
import type { LoadMeter, SubtaskLoadTimes } from './loadMeter.ts';
import { mergeViews, type JobMaster } from './jobMaster.ts';
import type { ClusterSubtasks } from './clusterSubtasks.ts';
import type { ClusterOptions, ClusterPhase, ClusterResult } from './clusterTypes.ts';

/**
 * The read side of the in-process cluster: what the observatory, the CLI and tests read of a
 * run (its phase, subtasks, metrics, load, checkpoints, dead letters and result) and never
 * change by reading. LocalCluster (localCluster.ts) adds everything that drives the run.
 */
export abstract class ClusterReadout {
  abstract readonly plan: JobPlan;
  protected abstract readonly opts: ClusterOptions;
  protected abstract readonly jobId: string;
  protected abstract readonly deployed: ClusterSubtasks;
  protected abstract readonly master: JobMaster;
  protected abstract readonly load: LoadMeter | null;
  protected abstract coordinator: CheckpointCoordinator;
  protected abstract phase: ClusterPhase;
  protected abstract failReason: string | undefined;
  protected abstract steps: number;

  /** Which aggregate → view pairs run chained in this attempt, and why the others do not. */
  chains(): ChainPlan {
    return this.deployed.chained;
  }

  phaseNow(): ClusterPhase {
    return this.phase;
  }

  /** True when every subtask finished and the job's tail was published. */
  isFinished(): boolean {
    return this.phase === 'finished';
  }

  running(): boolean {
    return this.phase === 'running';
  }

  subtasks(): readonly SubtaskRunner[] {
    return this.deployed.runners;
  }

  /** The subtasks of one node, in index order. */
  subtasksOf(node: string): readonly SubtaskRunner[] {
    return this.deployed.byNode.get(node) ?? [];
  }

  channelCapacity(): number {
    return this.opts.channelCapacity ?? 8;
  }

  checkpointStore(): CheckpointStore {
    return this.master.store;
  }

  job(): string {
    return this.jobId;
  }

  /** The checkpoint whose barriers are travelling now, if any. Asked after every step of a paced run: no copy of the history. */
  inFlightCheckpoint(): number | null {
    return this.coordinator?.pendingId() ?? null;
  }

  /** Committed dead letters, each once: a record replayed after a recovery is not reported again. */
  deadLetters(): readonly DeadLetter[] {
    return this.master.deadLetters();
  }

  checkpointHistory(): CheckpointRecord[] {
    return this.master.checkpointHistory();
  }

  /** Busy and backpressured ms per subtask id so far (all attempts); null without `loadClock`. */
  loadTimes(): Map<string, SubtaskLoadTimes> | null {
    return this.load?.read() ?? null;
  }

  /** The operator instance of one node's subtask (tests and benchmarks look at its state). */
  task(nodeId: string, index = 0): NodeTask | null {
    return this.deployed.byNode.get(nodeId)?.[index]?.task ?? null;
  }

  /** Per node, its subtasks' metrics added up (watermark: the lowest). */
  metrics(): Record<string, NodeMetrics> {
    return this.deployed.metrics();
  }

  result(status: ClusterResult['status'] = this.phase === 'finished' ? 'finished' : 'failed', reason = this.failReason): ClusterResult {
    const sinks = this.deployed.runners.filter((r) => r.node.isSink);
    const { plan, master: m } = this;
    let views: Record<string, Row[]> | null = null;
    return {
      status,
      reason,
      restarts: m.restarts,
      steps: this.steps,
      // Sorting every table costs a fraction of a microsecond per row: only when someone reads them.
      get views() {
        return (views ??= mergeViews(plan, sinks.map((r) => ({ [r.node.id]: (r.task?.operator as unknown as { rows(): Row[] }).rows() }))));
      },
      changelogs: m.changelogs(),
      checkpoints: this.checkpointHistory(),
      deadLetters: m.deadLetters(),
    };
  }
}
