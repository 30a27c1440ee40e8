import type { DeadLetter, Element } from '../core/types.ts';
import { NodeTask } from '../engine/nodeTask.ts';
import { SourceTask } from '../engine/sourceTask.ts';
import type { SourcePoll } from '../engine/sourceTask.ts';
import { operatorDefinition, sourceDefinition } from '../engine/registry.ts';
import type { Clock } from '../core/clock.ts';
import { derivedSeed, seededRng } from '../core/rng.ts';
import { keyGroupOf, keyGroupRange } from '../core/keys.ts';
import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import type { KeyedStateBackend, KeyedStateSnapshot, PersistResult, StateTime } from '../state/backend.ts';
import { isDurableBackend } from '../state/backend.ts';
import { MemoryStateBackend } from '../state/memory/memoryBackend.ts';
import type { AlignerAction } from '../checkpoint/barrierAligner.ts';
import type { DeadLetterEpoch, Epoch, PendingCommit, SubtaskSnapshot } from '../checkpoint/types.ts';
import { parseSubtaskId, subtaskId } from '../checkpoint/types.ts';
import type { ChannelMessage } from './messages.ts';
import { InputChannels } from './inputChannels.ts';
import type { InChannel, InputChannelView } from './inputChannels.ts';
import { OutputPartitioning, edgeShape } from './outputPartitioning.ts';
import type { ChannelSink } from './outputPartitioning.ts';
import { splitReader, type SplitReader, type SplitSourceSnapshot } from './sourceSplit.ts';
import { InjectingReader, type InjectionLog } from './injectionLog.ts';
import { EpochBuffer } from './epochBuffer.ts';
import type { CommonSourceParams, SourceEnv, SourceReader } from '../core/source.ts';

export type { InputChannelView } from './inputChannels.ts';

/** What a runner needs from whoever hosts it: channels with credit, acks, published output. */
export interface RunnerHost extends ChannelSink {
  readonly clock: Clock;
  /**
   * The synchronous part of a snapshot is done. With a durable backend, `keyedWrite` is still
   * writing the keyed state; the host waits for it and puts its handle into `snap.keyed`.
   */
  snapshotTaken(checkpointId: number, snap: SubtaskSnapshot, timing: { alignMs: number; syncMs: number; buffered: number }, keyedWrite?: Promise<PersistResult>): void;
  declined(checkpointId: number, subtask: string, reason: string): void;
  /** Committed sink epochs and dead-letter epochs; the job master publishes each `origin@epoch` once. */
  publish(sinkId: string, commits: PendingCommit[]): void;
  publishDeadLetters(epochs: DeadLetterEpoch[]): void;
  /** Sink output that no checkpoint can roll back (see `RunnerDeps.finalOutput`), published as it arrives. */
  publishFinal?(sinkId: string, els: readonly Element[]): void;
  /**
   * A dead letter as it happens (live counts, failing on UDF errors). False: the host is failing
   * the job and the record must not be kept.
   */
  deadLetter(d: DeadLetter, subtask: string): boolean;
  /**
   * Sink input as it arrives, before its epoch is committed (the preview stream). `since`: the
   * last checkpoint this sink took before these changes (0: none in this attempt and no restore);
   * they become committed with the first checkpoint after it that completes, or vanish on a restore.
   */
  preview?(sinkId: string, origin: string, since: number, els: readonly Element[]): void;
}

/**
 * An observer's view into a subtask (the observatory's tap). Null when nobody observes, so
 * the hot path pays one null check per batch.
 */
export interface RunnerTap {
  /** Elements of an incoming batch to process one at a time and report: 'all', some indexes, or none. */
  pick(runner: SubtaskRunner, port: string, els: readonly Element[]): 'all' | readonly number[] | null;
  /** One picked element was processed: what it made the operator emit and whether it wrote state. */
  processed(runner: SubtaskRunner, port: string, el: Element, out: ReadonlyMap<string, readonly Element[]> | null, stateChanged: boolean): void;
  /** Everything the subtask emits (sources: each poll), before it is partitioned and sent. */
  output(runner: SubtaskRunner, out: ReadonlyMap<string, readonly Element[]>): void;
}

export interface RunnerDeps {
  plan: JobPlan;
  node: PlanNode;
  index: number;
  host: RunnerHost;
  backend?: (time: StateTime) => KeyedStateBackend;
  inputs?: Record<string, SourceEnv['input']>;
  /** Readers that replace a source node's own (by node id): live inputs, benchmarks' ready records. */
  readers?: Record<string, GivenReader>;
  /** Records injected into running sources; subtask 0 of each source reads its entries. */
  injections?: InjectionLog;
  /** Records per source read. */
  batchSize?: number;
  /** Durable backends: write only what changed since the previous checkpoint. */
  incremental?: boolean;
  /**
   * Sources: read at most this many records between two barriers, then wait for the next
   * checkpoint. Makes checkpoint positions depend on input progress, not on how fast the
   * thread runs (default: no limit).
   */
  maxRecordsPerCheckpoint?: number;
  /**
   * False when nobody consumes the published sink output (no changelog kept, no listener): sinks
   * then keep only their table and buffer no epochs. Default true.
   */
  publishOutput?: boolean;
  /** The plan is this runner's own copy (deployed to a worker), so sources need not copy what they read from it. */
  ownsPlan?: boolean;
  /**
   * Nothing can roll this run back (no checkpoints, no restarts: a plain run to the end): sinks
   * hand each batch to `host.publishFinal` as it arrives instead of buffering it into epochs.
   */
  finalOutput?: boolean;
}

/**
 * A reader handed to a source instead of its own: one object, read by the source's only subtask,
 * or one per subtask (each split reads its positions of a whole stream of its own).
 */
export type GivenReader = SourceReader | ((subtask: number) => SourceReader);

/** A source subtask's idleness (Flink's WatermarkStrategy.withIdleness): silent this long on the host's clock. */
interface Idleness {
  timeoutMs: number;
  lastEmit: number;
  idle: boolean;
}

/**
 * One parallel instance of one operator (or source): the only thing that runs operators,
 * wherever the job runs. Pure: it never touches a thread, a port or a timer; a host feeds its
 * input channels and calls `runOne` when it may run.
 */
export class SubtaskRunner {
  readonly id: string;
  readonly node: PlanNode;
  readonly index: number;
  readonly task: NodeTask | null = null;
  readonly source: SourceTask | null = null;
  private readonly split: SplitReader | null = null;
  private readonly injecting: InjectingReader | null = null;
  private readonly injections: InjectionLog | null = null;
  /** The source's own reader, under split and injection: a live one keeps messages for replay. */
  private readonly reader: SourceReader | null = null;
  /** A live reader's offset at each checkpoint this subtask snapshotted and that has not completed yet. */
  private readonly readerOffsets = new Map<number, number>();
  private readonly host: RunnerHost;
  private readonly inputs = new InputChannels();
  private readonly outputs: OutputPartitioning;
  /** A sink's output, published per committed epoch (null when nobody consumes it, or when it publishes final output). */
  private readonly sinkEpochs: EpochBuffer<Element> | null;
  private readonly publishesFinal: boolean;
  private readonly deadLetters: EpochBuffer<DeadLetter>;
  private readonly expected = new Set<number>();
  /** The last checkpoint this subtask snapshotted (or restored from): what preview changes follow. */
  private lastCheckpoint = 0;
  private readonly barriersToInject: number[] = [];
  private readonly idleness: Idleness | null = null;
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
    const publishes = node.isSink && deps.publishOutput !== false;
    this.publishesFinal = publishes && deps.finalOutput === true && host.publishFinal !== undefined;
    this.sinkEpochs = publishes && !this.publishesFinal ? new EpochBuffer<Element>(this.id) : null;
    this.deadLetters = new EpochBuffer<DeadLetter>(this.id);
    const seed = derivedSeed(plan.seed, this.id);
    if (node.isSource) {
      const def = sourceDefinition(node.kind);
      const given = deps.readers?.[node.id];
      // Subtasks sharing one reader would each take the records the others skip: all but 1/p lost.
      if (typeof given === 'object' && node.parallelism > 1) throw new Error(`source "${node.id}" runs at parallelism ${node.parallelism} but is given one reader (a live feed or standard input), which only one subtask can read: set its parallelism to 1 (the operators after it can still run in parallel)`);
      const reader = (typeof given === 'function' ? given(index) : given) ?? def.open(node.params, { seed: derivedSeed(plan.seed, node.id), input: deps.inputs?.[node.id], ownsParams: deps.ownsPlan });
      const params: CommonSourceParams = def.taskParams?.(node.params) ?? (node.params as CommonSourceParams);
      this.reader = reader;
      this.split = splitReader(reader, index, node.parallelism);
      this.injections = deps.injections ?? null;
      if (index === 0 && deps.injections) this.injecting = new InjectingReader(this.split, deps.injections.of(node.id));
      this.source = new SourceTask(node.id, this.injecting ?? this.split, params);
      this.recordIntervalMs = 1000 / (params.ratePerSec ?? plan.doc.settings?.defaultRatePerSec ?? 1000);
      const timeoutMs = params.eventTime?.idleTimeoutMs ?? plan.doc.settings?.idleTimeoutMs;
      if (timeoutMs !== undefined) this.idleness = { timeoutMs, lastEmit: host.clock.now(), idle: false };
    } else {
      let task: NodeTask | null = null;
      const time: StateTime = { processingTime: () => host.clock.now(), eventTime: () => task!.currentEventTime() };
      const backend = deps.backend?.(time) ?? new MemoryStateBackend(time, plan.maxParallelism);
      task = new NodeTask(node, operatorDefinition(node.kind), backend, host.clock, seededRng(seed), (d) => this.deadLetter(d));
      this.task = task;
      task.open();
    }
  }

  /** A sink that hands its input on as published output (epochs or final output). */
  get publishesChangelog(): boolean {
    return this.sinkEpochs !== null || this.publishesFinal;
  }

  private deadLetter(d: DeadLetter): void {
    if (!this.host.deadLetter(d, this.id)) return;
    this.deadLetterCount++;
    this.deadLetters.add(d);
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
    return this.idleness ? this.idleness.idle : this.idle;
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
    return this.reader?.waiting?.() === true && !this.injecting?.pending().length;
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
    if (this.idleness) this.trackIdleness(this.idleness, poll.elements.length > 0);
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
    const s = this.idleness;
    if (!s || this.finished || s.idle) return false;
    this.trackIdleness(s, false);
    return s.idle;
  }

  /**
   * When this source goes idle if nothing arrives before (on the host's clock; null: it has no
   * idle timeout, or is idle or finished already). A host that sleeps while nothing is runnable
   * wakes by then, so idleness does not depend on other work keeping the host busy.
   */
  idleDeadline(): number | null {
    const s = this.idleness;
    return !s || s.idle || this.finished ? null : s.lastEmit + s.timeoutMs;
  }

  private idleDue(): boolean {
    const at = this.idleDeadline();
    return at !== null && this.host.clock.now() >= at;
  }

  /** The records a source has read so far (its split's offset). */
  sourceOffset(): number {
    return this.source!.offset();
  }

  /** Records end idleness before they go out; silence for the timeout starts it. */
  private trackIdleness(s: Idleness, emitted: boolean): void {
    const now = this.host.clock.now();
    if (emitted) {
      s.lastEmit = now;
      if (s.idle) {
        s.idle = false;
        this.outputs.broadcast({ t: 'idle', idle: false });
      }
    } else if (!s.idle && now - s.lastEmit >= s.timeoutMs) {
      s.idle = true;
      this.outputs.broadcast({ t: 'idle', idle: true });
    }
  }

  private handle(ci: number, c: InChannel, msg: ChannelMessage): void {
    const task = this.task!;
    switch (msg.t) {
      case 'batch':
        if (this.sinkEpochs) {
          this.sinkEpochs.addAll(msg.els);
          this.host.preview?.(this.node.id, this.id, this.lastCheckpoint, msg.els);
        } else if (this.publishesFinal) this.host.publishFinal!(this.node.id, msg.els);
        if (this.tap) return this.tappedBatch(this.tap, c.port, msg.els);
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
    const task = this.task!;
    const min = this.inputs.watermark();
    if (min <= task.currentWatermark()) return;
    for (let t = task.timers.pollDue('event', min); t; t = task.timers.pollDue('event', min)) {
      task.setWatermark(Math.max(task.currentWatermark(), t.ts));
      task.fireTimer(t);
      this.route();
    }
    task.advanceWatermark(min);
    this.route();
    this.outputs.broadcast({ t: 'wm', wm: min });
  }

  private fireProcessingTimers(): boolean {
    const task = this.task!;
    const now = this.host.clock.now();
    let fired = false;
    for (let t = task.timers.pollDue('processing', now); t; t = task.timers.pollDue('processing', now)) {
      task.fireTimer(t);
      this.route();
      fired = true;
    }
    return fired;
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
    const backend = this.task?.state;
    if (backend && isDurableBackend(backend)) {
      // Only the dirty set is frozen here; chunks are written while the pipeline moves on.
      const persisted = backend.persist(id, { incremental: this.incremental });
      const snap = this.snapshot(id, { type: 'chunks', store: 'pending', chunks: [] });
      this.host.snapshotTaken(id, snap, { alignMs, syncMs: this.host.clock.now() - t0, buffered }, persisted.done);
      return;
    }
    const snap = this.snapshot(id);
    this.host.snapshotTaken(id, snap, { alignMs, syncMs: this.host.clock.now() - t0, buffered });
  }

  /** Entries of the injection log this source subtask has read (counted with its records). */
  injectedRead(): number {
    return this.injecting?.injected ?? 0;
  }

  private sourceSnapshot(checkpointId: number): SplitSourceSnapshot {
    let s = this.split!.snapshot(this.source!.snapshot());
    if (this.reader?.checkpointCompleted) this.readerOffsets.set(checkpointId, s.offset);
    if (this.reader?.carry) s = { ...s, carried: this.reader.carry() };
    if (!this.injecting) return s;
    const pending = this.injecting.pending();
    return { ...s, ...(this.injecting.injected ? { injected: this.injecting.injected } : {}), ...(pending.length ? { injectedPending: pending } : {}) };
  }

  private snapshot(checkpointId: number, durableKeyed?: SubtaskSnapshot['keyed']): SubtaskSnapshot {
    const base = { subtask: this.id, parallelism: this.node.parallelism, finished: this.finished, deadLetterEpochs: this.deadLetters.close(checkpointId), ...(this.derivedFrom ? { derivedFrom: this.derivedFrom } : {}) };
    if (this.source) {
      const records = { in: 0, out: this.recordsEmitted };
      return { ...base, keyed: { type: 'inline', snapshot: { maxParallelism: 0, keyGroups: {} } }, operator: { lists: {}, broadcast: {} }, timers: [], watermark: this.source.watermark(), counters: {}, records, source: this.sourceSnapshot(checkpointId) };
    }
    const task = this.task!;
    const s = durableKeyed
      ? { keyed: null, operator: task.operatorState.snapshot(), timers: task.timers.snapshot(), watermark: task.currentWatermark(), counters: { ...task.counters } }
      : task.snapshot();
    return {
      ...base,
      keyed: durableKeyed ?? { type: 'inline', snapshot: s.keyed! },
      operator: s.operator,
      timers: s.timers,
      watermark: s.watermark,
      counters: s.counters,
      records: { in: task.recordsIn, out: task.recordsOut },
      pendingCommits: this.sinkEpochs ? commitsOf(this.sinkEpochs.close(checkpointId)) : undefined,
    };
  }

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

  /** Processes picked elements one at a time so the tap sees exactly what each one caused. */
  private tappedBatch(tap: RunnerTap, port: string, els: Element[]): void {
    const task = this.task!;
    const pick = tap.pick(this, port, els);
    if (!pick || (pick !== 'all' && pick.length === 0)) {
      task.processBatch(port, els);
      return this.route();
    }
    const picked = pick === 'all' ? null : new Set(pick);
    let from = 0;
    for (let i = 0; i < els.length; i++) {
      if (picked && !picked.has(i)) continue;
      if (i > from) {
        task.processBatch(port, els.slice(from, i));
        this.route();
      }
      const before = mutationCount(task.state);
      task.processBatch(port, [els[i]]);
      const out = task.drain();
      tap.processed(this, port, els[i], out, mutationCount(task.state) !== before);
      if (out) this.routeOut(out);
      from = i + 1;
    }
    if (from < els.length) {
      task.processBatch(port, els.slice(from));
      this.route();
    }
  }

  // ---- checkpoint completion and restore ----

  /** `publish` false: whoever completed the checkpoint already published its epochs from the snapshots. */
  checkpointCompleted(id: number, publish = true): void {
    const offset = this.readerOffsets.get(id);
    if (offset !== undefined) {
      for (const k of [...this.readerOffsets.keys()]) if (k <= id) this.readerOffsets.delete(k);
      this.reader!.checkpointCompleted!(offset);
    }
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

  /**
   * An attempt that restores no checkpoint starts from the beginning. A live feed's reader outlives
   * attempts, so it is taken back to its first message, as a freshly opened reader would start.
   */
  startFresh(): void {
    if (this.reader?.checkpointCompleted) this.reader.seek(0);
  }

  /**
   * Restores from the snapshots of every old subtask of this node, keeping the key groups it now
   * owns. What they pre-committed but perhaps never published (sink epochs, dead letters) is the
   * job master's to publish: it holds the same snapshots.
   */
  restore(snaps: readonly SubtaskSnapshot[]): void {
    this.restoreCounts(snaps);
    if (this.source) {
      // A live reader first takes back the unread messages a checkpoint of another process carried.
      const own = snaps.find((x) => x.source && x.subtask === this.id)?.source as SplitSourceSnapshot | undefined;
      if (this.reader?.adopt && own?.carried !== undefined) this.reader.adopt(own.offset, own.carried);
      // A changed parallelism redistributes the old splits' remaining records (see sourceSplit.ts).
      this.source.restore(this.split!.restore(snaps, this.node.id));
      // The injection log is read by subtask 0 at every parallelism, so its position is old subtask 0's.
      const first = snaps.find((x) => x.source && x.subtask.endsWith('#0'))?.source as SplitSourceSnapshot | undefined;
      if (this.injecting) {
        this.injecting.injected = first?.injected ?? 0;
        this.injections?.adopt(this.node.id, this.injecting.injected, first?.injectedPending ?? []);
      }
      return;
    }
    const task = this.task!;
    const mp = this.maxParallelism;
    const [lo, hi] = keyGroupRange(this.index, this.node.parallelism, mp);
    const owns = (kg: number) => kg >= lo && kg <= hi;
    const backend = task.state;
    if (isDurableBackend(backend)) {
      this.ready = backend.restoreHandles(snaps.map((s) => s.keyed), owns);
    } else {
      if (snaps.some((s) => s.keyed.type !== 'inline')) throw new Error(`${this.id}: this checkpoint was written by a durable state backend; restore it with the same backend`);
      backend.restore(snaps.map((s) => (s.keyed as { snapshot: KeyedStateSnapshot }).snapshot), owns);
    }
    task.operatorState.restore(snaps.map((s) => s.operator), this.index, this.node.parallelism);
    task.timers.restore(snaps.flatMap((s) => s.timers), (k) => owns(keyGroupOf(k, mp)));
    task.restoreWatermarks(snaps.map((s) => s.watermark));
  }

  /**
   * The counts the old subtasks had at the checkpoint, so the node counters go on from the
   * restored state instead of starting again at zero. Old subtask j's counts go to new subtask
   * j mod p: at the same parallelism each keeps its own, after a rescale the node's totals stay exact.
   */
  private restoreCounts(snaps: readonly SubtaskSnapshot[]): void {
    let recordsIn = 0;
    let recordsOut = 0;
    const counters: Record<string, number> = {};
    for (const s of snaps) {
      if (parseSubtaskId(s.subtask).index % this.node.parallelism !== this.index) continue;
      recordsIn += s.records?.in ?? 0;
      recordsOut += s.records?.out ?? 0;
      for (const [k, v] of Object.entries(s.counters)) counters[k] = (counters[k] ?? 0) + v;
    }
    if (this.source) {
      this.recordsEmitted = recordsOut;
      return;
    }
    const task = this.task!;
    task.recordsIn = recordsIn;
    task.recordsOut = recordsOut;
    for (const k of Object.keys(task.counters)) delete task.counters[k];
    Object.assign(task.counters, counters);
  }
}

/** Sink epochs as snapshots and the wire carry them (their rows under `els`). */
const commitsOf = (epochs: Epoch<Element>[]): PendingCommit[] => epochs.map((e) => ({ origin: e.origin, epoch: e.epoch, els: e.items }));

/** Backends that count their writes (the heap backend) tell the tap whether a record changed state. */
function mutationCount(b: KeyedStateBackend): number {
  return (b as { mutations?: () => number }).mutations?.() ?? 0;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
