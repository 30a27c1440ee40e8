import type { DeadLetter, Element } from '../core/types.ts';
import type { PlanNode } from '../pipeline/plan.ts';
import type { Epoch, PendingCommit } from '../checkpoint/types.ts';
import { EpochBuffer } from './epochBuffer.ts';
import type { RunnerDeps, RunnerHost } from './runnerHost.ts';

/** Sink epochs as snapshots and the wire carry them (their rows under `els`). */
const commitsOf = (epochs: Epoch<Element>[]): PendingCommit[] => epochs.map((e) => ({ origin: e.origin, epoch: e.epoch, els: e.items }));

/**
 * What a subtask hands on only once a checkpoint commits it: a sink's rows and every subtask's
 * dead letters, buffered per epoch, closed into each snapshot and published when that checkpoint
 * completes (or at the job's end), so a restore that replays records publishes nothing twice.
 * A plain run that nothing can roll back publishes a sink's rows as they arrive instead.
 */
export class TwoPhaseOutput {
  /** A sink's output, published per committed epoch (null when nobody consumes it, or when it publishes final output). */
  private readonly sinkEpochs: EpochBuffer<Element> | null;
  private readonly publishesFinal: boolean;
  private readonly deadLetters: EpochBuffer<DeadLetter>;

  constructor(
    private readonly id: string,
    private readonly node: PlanNode,
    private readonly host: RunnerHost,
    deps: Pick<RunnerDeps, 'publishOutput' | 'finalOutput'>,
  ) {
    const publishes = node.isSink && deps.publishOutput !== false;
    this.publishesFinal = publishes && deps.finalOutput === true && host.publishFinal !== undefined;
    this.sinkEpochs = publishes && !this.publishesFinal ? new EpochBuffer<Element>(id) : null;
    this.deadLetters = new EpochBuffer<DeadLetter>(id);
  }

  /** A sink that hands its input on as published output (epochs or final output). */
  get publishesChangelog(): boolean {
    return this.sinkEpochs !== null || this.publishesFinal;
  }

  deadLetter(d: DeadLetter): void {
    this.deadLetters.add(d);
  }

  /** A sink's input batch: into the open epoch (and the preview), or straight out as final output. */
  sinkInput(els: readonly Element[], lastCheckpoint: number): void {
    if (this.sinkEpochs) {
      this.sinkEpochs.addAll(els);
      this.host.preview?.(this.node.id, this.id, lastCheckpoint, els);
    } else if (this.publishesFinal) this.host.publishFinal!(this.node.id, els);
  }

  /** At barrier `id`: closes the dead-letter epoch; the uncommitted ones belong in the snapshot. */
  closeDeadLetters(id: number) {
    return this.deadLetters.close(id);
  }

  /** At barrier `id`: closes the sink epoch; the uncommitted ones belong in the snapshot (undefined: no sink output). */
  closeSinkEpochs(id: number): PendingCommit[] | undefined {
    return this.sinkEpochs ? commitsOf(this.sinkEpochs.close(id)) : undefined;
  }

  /** `publish` false: whoever completed the checkpoint already published its epochs from the snapshots. */
  checkpointCompleted(id: number, publish: boolean): void {
    const ready = this.sinkEpochs?.commit(id) ?? [];
    const dead = this.deadLetters.commit(id);
    if (!publish) return;
    if (ready.length) this.host.publish(this.node.id, commitsOf(ready));
    if (dead.length) this.host.publishDeadLetters(dead);
  }

  /** The whole job finished: publish the tail. */
  jobFinished(): void {
    if (this.sinkEpochs) this.host.publish(this.node.id, commitsOf(this.sinkEpochs.commitAll()));
    const dead = this.deadLetters.commitAll();
    if (dead.length) this.host.publishDeadLetters(dead);
  }
}
