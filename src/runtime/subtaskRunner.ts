import type { DeadLetter, Element } from '../core/types.ts';
import { NodeTask } from '../engine/nodeTask.ts';
import type { SourceTask } from '../engine/sourceTask.ts';
import type { SourcePoll } from '../engine/sourceTask.ts';
import { operatorDefinition } from '../engine/registry.ts';
import { derivedSeed, seededRng } from '../core/rng.ts';
import type { PlanNode } from '../pipeline/plan.ts';
import type { StateTime } from '../state/backend.ts';
import { MemoryStateBackend } from '../state/memory/memoryBackend.ts';
import type { AlignerAction } from '../checkpoint/barrierAligner.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import { subtaskId } from '../checkpoint/types.ts';
import type { ChannelMessage } from './messages.ts';
import { InputChannels } from './inputChannels.ts';
import type { InChannel, InputChannelView } from './inputChannels.ts';
import { OutputPartitioning, edgeShape } from './outputPartitioning.ts';
import { SourceInput, originsOf } from './sourceInput.ts';
import { TwoPhaseOutput } from './twoPhaseOutput.ts';
import { operatorSnapshot, restoreOperatorState, restoredCounts, setRestoredCounts, takeSnapshot } from './subtaskCheckpoint.ts';
import { advanceEventTime, fireProcessingTimers } from './operatorTimers.ts';
import { processTapped } from './tappedBatch.ts';
import type { RunnerDeps, RunnerHost, RunnerTap } from './runnerHost.ts';

export type { InputChannelView } from './inputChannels.ts';
export type { GivenReader, RunnerDeps, RunnerHost, RunnerTap } from './runnerHost.ts';

/**
 * One parallel instance of one operator (or source): the only thing that runs operators,
 * wherever the job runs. Pure: it never touches a thread, a port or a timer; a host feeds its
 * input channels and calls `runOne` when it may run. It drives the pieces around the operator:
 * input channels and barrier alignment (inputChannels.ts), output partitioning
 * (outputPartitioning.ts), a source's reading (sourceInput.ts), time (operatorTimers.ts),
 * two-phase output (twoPhaseOutput.ts) and its part of a checkpoint (subtaskCheckpoint.ts).
 */
export class SubtaskRunner {
  readonly id: string;
  readonly node: PlanNode;
  readonly index: number;
  readonly task: NodeTask | null = null;
  readonly source: SourceTask | null = null;
  private readonly sourceInput: SourceInput | null = null;
  private readonly host: RunnerHost;
  private readonly inputs = new InputChannels();
  private readonly outputs: OutputPartitioning;
  private readonly output: TwoPhaseOutput;
  private readonly expected = new Set<number>();
  /** The last checkpoint this subtask snapshotted (or restored from): what preview changes follow. */
  private lastCheckpoint = 0;
  private readonly barriersToInject: number[] = [];
  /** An operator whose every live input is idle is idle itself, and says so downstream. */
  private idle = false;
  private readonly maxParallelism: number;
  private readonly batchSize: number;
  private readonly incremental: boolean;
  private readonly maxRecordsPerCheckpoint: number;
  /** Records a source read since it injected its last barrier (or since it started). */
  private readSinceBarrier = 0;
  /** A source's time between two records at its rate, in simulated processing time (ms). */
  readonly recordIntervalMs: number = 0;
  /** Records a source sent (dead letters not included), for live metrics: as of the checkpoint after a restore. */
  recordsEmitted = 0;
  /** Dead letters this subtask produced in this attempt (replays included), for live metrics. */
  deadLetterCount = 0;
  /** Resolves once restored durable state is loaded; the host waits for it before running. */
  ready: Promise<void> = Promise.resolve();
  finished = false;
  tap: RunnerTap | null = null;
  /** Set when this view is chained behind that node and reads its arrangement (see chaining.ts). */
  derivedFrom: string | null = null;
  /** `route` as a callback, made once: timers and tapped batches send on what each step emitted. */
  private readonly routeStep = () => this.route();

  constructor(deps: RunnerDeps) {
    const { plan, node, index, host } = deps;
    this.node = node;
    this.index = index;
    this.host = host;
    this.id = subtaskId(node.id, index);
    this.maxParallelism = plan.maxParallelism;
    this.batchSize = deps.batchSize ?? 256;
    this.incremental = deps.incremental ?? true;
    this.maxRecordsPerCheckpoint = deps.maxRecordsPerCheckpoint ?? Infinity;
    plan.edges.forEach((e, ei) => {
      if (e.to.node !== node.id) return;
      const { from, forward } = edgeShape(plan, ei);
      for (const f of forward ? [index] : range(from.parallelism)) this.inputs.add(ei, e.to.port, f);
    });
    this.inputs.seal(host.clock);
    this.outputs = new OutputPartitioning(plan, node, index, host);
    this.output = new TwoPhaseOutput(this.id, node, host, deps);
    const seed = derivedSeed(plan.seed, this.id);
    if (node.isSource) {
      this.sourceInput = new SourceInput(deps, (idle) => this.outputs.broadcast({ t: 'idle', idle }));
      this.source = this.sourceInput.task;
      this.recordIntervalMs = this.sourceInput.recordIntervalMs;
    } else {
      let task: NodeTask | null = null;
      const time: StateTime = { processingTime: () => host.clock.now(), eventTime: () => task!.currentEventTime() };
      const backend = deps.backend?.(time) ?? new MemoryStateBackend(time, plan.maxParallelism);
      task = new NodeTask(node, operatorDefinition(node.kind), backend, host.clock, seededRng(seed), (d) => this.deadLetter(d), originsOf(deps));
      this.task = task;
      task.open();
    }
  }

  /** A sink that hands its input on as published output (epochs or final output). */
  get publishesChangelog(): boolean {
    return this.output.publishesChangelog;
  }

  private deadLetter(d: DeadLetter): void {
    if (!this.host.deadLetter(d, this.id)) return;
    this.deadLetterCount++;
    this.output.deadLetter(d);
  }

  channelIndex(edge: number, from: number): number {
    return this.inputs.indexOf(edge, from);
  }

  enqueue(channel: number, msg: ChannelMessage): void {
    this.inputs.enqueue(channel, msg);
  }

  /** Messages waiting on input channels (for queue-fill metrics and credit). */
  queued(channel: number): number {
    return this.inputs.queued(channel);
  }

  /** The coordinator triggered checkpoint `id`. */
  triggered(id: number): void {
    // The trigger travels apart from the data: a barrier can overtake it and the snapshot is
    // already taken. Expecting it again would make `finish` close the rows after it into that
    // old, already published epoch, where they are dropped as a duplicate.
    if (id <= this.lastCheckpoint) return;
    this.expected.add(id);
    if (this.finished) this.snapshotNow(id, 0, 0);
    else if (this.source) this.barriersToInject.push(id);
  }

  /** Runs one unit of work; false when nothing can run now. */
  runOne(): boolean {
    if (this.finished || !this.outputs.haveCredit()) return false;
    if (this.source) return this.runSource();
    const next = this.inputs.next();
    if (next) {
      this.handle(next.ci, next.c, next.msg);
      this.fireProcessingTimers();
      return true;
    }
    return this.fireProcessingTimers();
  }

  /** Input channels as the observatory shows them (queued messages, barriers in the queue). */
  inputChannels(): InputChannelView[] {
    return this.inputs.views();
  }

  /** The alignment in progress: blocked channels and the records waiting behind them. */
  alignment(): { checkpointId: number; blockedChannels: number[]; buffered: number } | null {
    return this.inputs.alignment();
  }

  /** A source with a triggered checkpoint whose barrier it has not injected yet. */
  hasPendingBarrier(): boolean {
    return this.barriersToInject.length > 0;
  }

  /** Watermark this subtask has reached (sources: the one they emit). */
  watermark(): number {
    return this.source ? this.source.watermark() : this.task!.currentWatermark();
  }

  /** Idle: a source silent for its idle timeout, or an operator whose every live input is idle. */
  isIdle(): boolean {
    const idleness = this.sourceInput?.idleness;
    return idleness ? idleness.idle : this.idle;
  }

  isAligning(): boolean {
    return this.inputs.isAligning();
  }

  /** Every downstream channel can take one more message. */
  outputsHaveCredit(): boolean {
    return this.outputs.haveCredit();
  }

  /**
   * Has work it may not do because a downstream channel is full: input to process (or a source
   * to read) but no credit. A sink has no outputs, so it is never backpressured.
   */
  backpressured(): boolean {
    if (this.finished || this.outputs.haveCredit()) return false;
    return this.source ? !this.waitsForBarrier() : this.inputs.hasReadable();
  }

  /** True when a call to runOne would do something. */
  runnable(): boolean {
    if (this.finished || !this.outputs.haveCredit()) return false;
    // A live source waiting for input still runs once its silence reaches the idle timeout: it goes idle.
    if (this.source) return this.barriersToInject.length > 0 || (!this.waitsForBarrier() && (!this.waitsForInput() || this.idleDue()));
    if (this.inputs.hasReadable()) return true;
    const next = this.task!.timers.nextTime('processing');
    return next !== undefined && next <= this.host.clock.now();
  }

  private runSource(): boolean {
    const src = this.source!;
    const id = this.barriersToInject.shift();
    if (id !== undefined) {
      const t0 = this.host.clock.now();
      this.snapshotNow(id, 0, 0, t0);
      this.outputs.broadcast({ t: 'barrier', id });
      this.readSinceBarrier = 0;
      return true;
    }
    if (this.waitsForBarrier()) return false;
    const before = src.offset();
    this.emitRead(src.poll(Math.min(this.batchSize, this.maxRecordsPerCheckpoint - this.readSinceBarrier)));
    this.readSinceBarrier += src.offset() - before;
    return true;
  }

  /** A live source with nothing received yet (and no injected record to read) waits for its input. */
  waitsForInput(): boolean {
    return this.sourceInput?.waitsForInput() === true;
  }

  /** A source that read its records-per-checkpoint limit waits for the next barrier. */
  private waitsForBarrier(): boolean {
    return this.barriersToInject.length === 0 && this.readSinceBarrier >= this.maxRecordsPerCheckpoint;
  }

  /**
   * A source's read without sending it yet, for a scheduler that simulates processing time: it
   * reads, sets the clock to when those records are due, then calls `emitRead`. Null when the
   * read moved nothing (a live source with no data yet).
   */
  readSource(count: number): SourcePoll | null {
    const poll = this.source!.poll(count);
    return poll.elements.length > 0 || poll.deadLetters.length > 0 || poll.watermark !== null || poll.done ? poll : null;
  }

  /** Sends what a source read: dead letters, the end of idleness, records, the watermark, the end. */
  emitRead(poll: SourcePoll): void {
    for (const d of poll.deadLetters) this.deadLetter(d);
    this.sourceInput?.idleness?.track(poll.elements.length > 0);
    if (poll.elements.length) {
      this.recordsEmitted += poll.elements.length;
      this.tap?.output(this, new Map([['out', poll.elements]]));
      this.outputs.emitAll(poll.elements);
    }
    if (poll.watermark !== null) this.outputs.broadcast({ t: 'wm', wm: poll.watermark });
    if (poll.done) this.finish();
  }

  /** A source silent for its idle timeout (on the host's clock) goes idle now; true when it just did. */
  markIdleIfSilent(): boolean {
    const s = this.sourceInput?.idleness;
    if (!s || this.finished || s.idle) return false;
    s.track(false);
    return s.idle;
  }

  /**
   * When this source goes idle if nothing arrives before (on the host's clock; null: it has no
   * idle timeout, or is idle or finished already). A host that sleeps while nothing is runnable
   * wakes by then, so idleness does not depend on other work keeping the host busy.
   */
  idleDeadline(): number | null {
    const s = this.sourceInput?.idleness;
    return !s || this.finished ? null : s.deadline();
  }

  private idleDue(): boolean {
    const at = this.idleDeadline();
    return at !== null && this.host.clock.now() >= at;
  }

  /** The records a source has read so far (its split's offset). */
  sourceOffset(): number {
    return this.source!.offset();
  }

  private handle(ci: number, c: InChannel, msg: ChannelMessage): void {
    const task = this.task!;
    switch (msg.t) {
      case 'batch':
        this.output.sinkInput(msg.els, this.lastCheckpoint);
        if (this.tap) return processTapped(this, this.tap, task, c.port, msg.els, this.routeStep, (out) => this.routeOut(out));
        task.processBatch(c.port, msg.els);
        this.route();
        return;
      case 'wm':
        c.wm = Math.max(c.wm, msg.wm);
        return this.advance();
      case 'idle':
        c.idle = msg.idle;
        this.advance();
        return this.propagateIdleness();
      case 'barrier':
        return this.onAligner(this.inputs.onBarrier(ci, msg.id));
      case 'end': {
        this.onAligner(this.inputs.onEnd(ci));
        // The ended input no longer holds the watermark back (see combinedWatermark).
        this.advance();
        if (this.inputs.portEnded(c.port)) {
          task.endPort(c.port);
          this.route();
        }
        if (this.inputs.allEnded()) {
          task.endInput();
          this.route();
          this.finish();
        } else this.propagateIdleness();
        return;
      }
    }
  }

  /** As Flink's StatusWatermarkValve: idle when every live input is idle, active again with the first active one. */
  private propagateIdleness(): void {
    const idle = this.inputs.allIdle();
    if (idle === this.idle) return;
    this.idle = idle;
    this.outputs.broadcast({ t: 'idle', idle });
  }

  private advance(): void {
    const min = this.inputs.watermark();
    if (advanceEventTime(this.task!, min, this.routeStep)) this.outputs.broadcast({ t: 'wm', wm: min });
  }

  private fireProcessingTimers(): boolean {
    return fireProcessingTimers(this.task!, this.host.clock.now(), this.routeStep);
  }

  private onAligner(actions: AlignerAction[]): void {
    for (const a of actions) {
      if (a.type === 'aborted') this.host.declined(a.checkpointId, this.id, a.reason);
      else {
        this.snapshotNow(a.checkpointId, a.alignMs, a.buffered);
        this.outputs.broadcast({ t: 'barrier', id: a.checkpointId });
      }
    }
  }

  /** The synchronous part: copy state, close the sink and dead-letter epochs, hand the copy to the host. */
  private snapshotNow(id: number, alignMs: number, buffered: number, t0 = this.host.clock.now()): void {
    this.expected.delete(id);
    this.lastCheckpoint = id;
    takeSnapshot(this.host, this.task, this.incremental, id, alignMs, buffered, t0, (durableKeyed) => this.snapshot(id, durableKeyed));
  }

  /** Entries of the injection log this source subtask has read (counted with its records). */
  injectedRead(): number {
    return this.sourceInput?.injectedRead() ?? 0;
  }

  private snapshot(checkpointId: number, durableKeyed?: SubtaskSnapshot['keyed']): SubtaskSnapshot {
    const base = { subtask: this.id, parallelism: this.node.parallelism, finished: this.finished, deadLetterEpochs: this.output.closeDeadLetters(checkpointId), ...(this.derivedFrom ? { derivedFrom: this.derivedFrom } : {}) };
    if (this.sourceInput) return this.sourceInput.subtaskSnapshot(base, checkpointId, this.recordsEmitted);
    return { ...base, ...operatorSnapshot(this.task!, durableKeyed), pendingCommits: this.output.closeSinkEpochs(checkpointId) };
  }

  /** End of input (or of a source's data): no more barriers to inject, snapshots still expected are taken now. */
  private finish(): void {
    this.finished = true;
    this.barriersToInject.length = 0;
    this.outputs.broadcast({ t: 'end' });
    for (const id of [...this.expected]) this.snapshotNow(id, 0, 0);
  }

  private route(): void {
    const out = this.task!.drain();
    if (out) this.routeOut(out);
  }

  private routeOut(out: Map<string, Element[]>): void {
    this.tap?.output(this, out);
    for (const [port, els] of out) this.outputs.emit(port, els);
  }

  // ---- checkpoint completion and restore ----

  /** `publish` false: whoever completed the checkpoint already published its epochs from the snapshots. */
  checkpointCompleted(id: number, publish = true): void {
    this.sourceInput?.checkpointCompleted(id);
    this.output.checkpointCompleted(id, publish);
  }

  /** The whole job finished: publish the tail. */
  jobFinished(): void {
    this.output.jobFinished();
  }

  /**
   * An attempt that restores no checkpoint starts from the beginning. A live feed's reader outlives
   * attempts, so it is taken back to its first message, as a freshly opened reader would start.
   */
  startFresh(): void {
    this.sourceInput?.startFresh();
  }

  /**
   * Restores from the snapshots of every old subtask of this node, keeping the key groups it now
   * owns. What they pre-committed but perhaps never published (sink epochs, dead letters) is the
   * job master's to publish: it holds the same snapshots.
   */
  restore(snaps: readonly SubtaskSnapshot[]): void {
    const counts = restoredCounts(snaps, this.index, this.node.parallelism);
    if (this.sourceInput) {
      this.recordsEmitted = counts.recordsOut;
      return this.sourceInput.restore(snaps, this.id, this.node.id);
    }
    setRestoredCounts(this.task!, counts);
    const ready = restoreOperatorState(this.task!, snaps, this.id, this.index, this.node.parallelism, this.maxParallelism);
    if (ready) this.ready = ready;
  }
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
