import type { DeadLetter, Element } from '../engine/types.ts';
import { MIN_WATERMARK } from '../engine/types.ts';
import { combinedWatermark } from '../engine/time/valve.ts';
import { NodeTask } from '../engine/nodeTask.ts';
import { SourceTask } from '../engine/sourceTask.ts';
import { operatorDefinition, sourceDefinition } from '../engine/registry.ts';
import type { Clock } from '../engine/time/clock.ts';
import { derivedSeed, seededRng } from '../engine/rng.ts';
import { keyGroupOf, keyGroupRange } from '../engine/keys.ts';
import type { KeyFields } from '../engine/keys.ts';
import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import type { KeyedStateBackend, PersistResult, StateTime } from '../state/backend.ts';
import { isDurableBackend } from '../state/backend.ts';
import { MemoryStateBackend } from '../state/memory/memoryBackend.ts';
import { BarrierAligner } from '../checkpoint/barrierAligner.ts';
import type { AlignerAction } from '../checkpoint/barrierAligner.ts';
import type { PendingCommit, SubtaskSnapshot } from '../checkpoint/types.ts';
import { subtaskId } from '../checkpoint/types.ts';
import type { ChannelMessage } from './messages.ts';
import { effectivePartitioning, partitionerFor } from './partitioner.ts';
import type { Partitioner } from './partitioner.ts';
import { splitReader, type SplitReader } from './sourceSplit.ts';
import { SinkCommitter } from './sinkCommitter.ts';
import type { SourceEnv } from '../engine/source.ts';

/** What a runner needs from whoever hosts it: channels with credit, acks, published output. */
export interface RunnerHost {
  readonly clock: Clock;
  hasCredit(edge: number, from: number, to: number): boolean;
  send(edge: number, from: number, to: number, msg: ChannelMessage): void;
  /** The synchronous part of a snapshot is done; the host writes it and acknowledges. */
  /**
   * The synchronous part of a snapshot is done. With a durable backend, `keyedWrite` is still
   * writing the keyed state; the host waits for it and puts its handle into `snap.keyed`.
   */
  snapshotTaken(checkpointId: number, snap: SubtaskSnapshot, timing: { alignMs: number; syncMs: number; buffered: number }, keyedWrite?: Promise<PersistResult>): void;
  declined(checkpointId: number, subtask: string, reason: string): void;
  publish(sinkId: string, commits: PendingCommit[]): void;
  deadLetter(d: DeadLetter): void;
}

interface InChannel {
  edge: number;
  port: string;
  from: number;
  queue: ChannelMessage[];
  head: number;
  wm: number;
  idle: boolean;
  ended: boolean;
}

interface OutEdge {
  edge: number;
  port: string;
  targets: number[];
  partition: Partitioner;
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

/** Read-only view of one input channel, for queue fill and barriers in flight. */
export interface InputChannelView {
  edge: number;
  port: string;
  from: number;
  queued: number;
  watermark: number;
  blocked: boolean;
  /** Barriers waiting in the queue with their distance from the head (0 = next to be read). */
  barriers: { checkpointId: number; position: number }[];
}

export interface RunnerDeps {
  plan: JobPlan;
  node: PlanNode;
  index: number;
  host: RunnerHost;
  backend?: (time: StateTime) => KeyedStateBackend;
  inputs?: Record<string, SourceEnv['input']>;
  /** Records per source read. */
  batchSize?: number;
  /** Durable backends: write only what changed since the previous checkpoint. */
  incremental?: boolean;
}

/**
 * One parallel instance of one operator (or source). Pure: it never touches a thread,
 * a port or a timer; a host feeds its channels and calls `runOne` when it may run.
 */
export class SubtaskRunner {
  readonly id: string;
  readonly node: PlanNode;
  readonly index: number;
  readonly task: NodeTask | null = null;
  readonly source: SourceTask | null = null;
  private readonly split: SplitReader | null = null;
  private readonly host: RunnerHost;
  private readonly channels: InChannel[] = [];
  private readonly outs: OutEdge[] = [];
  private readonly aligner: BarrierAligner;
  private readonly committer: SinkCommitter | null;
  private readonly expected = new Set<number>();
  private readonly barriersToInject: number[] = [];
  private rr = 0;
  private readonly maxParallelism: number;
  private readonly batchSize: number;
  private readonly incremental: boolean;
  /** Resolves once restored durable state is loaded; the host waits for it before running. */
  ready: Promise<void> = Promise.resolve();
  finished = false;
  tap: RunnerTap | null = null;

  constructor(deps: RunnerDeps) {
    const { plan, node, index, host } = deps;
    this.node = node;
    this.index = index;
    this.host = host;
    this.id = subtaskId(node.id, index);
    this.maxParallelism = plan.maxParallelism;
    this.batchSize = deps.batchSize ?? 256;
    this.incremental = deps.incremental ?? true;
    plan.edges.forEach((e, ei) => {
      const fromNode = plan.nodes.find((n) => n.id === e.from.node)!;
      const toNode = plan.nodes.find((n) => n.id === e.to.node)!;
      const how = effectivePartitioning(e, fromNode.parallelism, toNode.parallelism, operatorKeyFields(toNode, e.to.port));
      const forward = how.partitioning === 'forward';
      if (e.to.node === node.id) {
        for (const from of forward ? [index] : range(fromNode.parallelism)) {
          this.channels.push({ edge: ei, port: e.to.port, from, queue: [], head: 0, wm: MIN_WATERMARK, idle: false, ended: false });
        }
      }
      if (e.from.node === node.id) {
        const targets = forward ? [index] : range(toNode.parallelism);
        this.outs.push({ edge: ei, port: e.from.port, targets, partition: partitionerFor(how, index, targets.length, plan.maxParallelism) });
      }
    });
    this.aligner = new BarrierAligner(this.channels.length, host.clock);
    this.committer = node.isSink ? new SinkCommitter(this.id) : null;
    const seed = derivedSeed(plan.seed, this.id);
    if (node.isSource) {
      const def = sourceDefinition(node.kind);
      const reader = def.open(node.params, { seed: derivedSeed(plan.seed, node.id), input: deps.inputs?.[node.id] });
      this.split = splitReader(reader, index, node.parallelism);
      this.source = new SourceTask(node.id, this.split, def.taskParams?.(node.params) ?? node.params);
    } else {
      let task: NodeTask | null = null;
      const time: StateTime = { processingTime: () => host.clock.now(), eventTime: () => task!.currentEventTime() };
      const backend = deps.backend?.(time) ?? new MemoryStateBackend(time, plan.maxParallelism);
      task = new NodeTask(node, operatorDefinition(node.kind), backend, host.clock, seededRng(seed), (d) => host.deadLetter(d));
      this.task = task;
      task.open();
    }
  }

  channelIndex(edge: number, from: number): number {
    return this.channels.findIndex((c) => c.edge === edge && c.from === from);
  }

  enqueue(channel: number, msg: ChannelMessage): void {
    this.channels[channel].queue.push(msg);
  }

  /** Messages waiting on input channels (for queue-fill metrics and credit). */
  queued(channel: number): number {
    const c = this.channels[channel];
    return c.queue.length - c.head;
  }

  /** The coordinator triggered checkpoint `id`. */
  triggered(id: number): void {
    this.expected.add(id);
    if (this.finished) this.snapshotNow(id, 0, 0);
    else if (this.source) this.barriersToInject.push(id);
  }

  /** Runs one unit of work; false when nothing can run now. */
  runOne(): boolean {
    if (this.finished || !this.outputsHaveCredit()) return false;
    if (this.source) return this.runSource();
    const n = this.channels.length;
    for (let k = 0; k < n; k++) {
      const c = this.channels[(this.rr + k) % n];
      if (c.head >= c.queue.length) continue;
      if (this.aligner.isBlocked((this.rr + k) % n)) continue;
      const ci = (this.rr + k) % n;
      this.rr = (ci + 1) % n;
      const msg = c.queue[c.head++];
      if (c.head > 256 && c.head * 2 > c.queue.length) {
        c.queue.splice(0, c.head);
        c.head = 0;
      }
      this.handle(ci, c, msg);
      this.fireProcessingTimers();
      return true;
    }
    return this.fireProcessingTimers();
  }

  /** Input channels as the observatory shows them (queued messages, barriers in the queue). */
  inputChannels(): InputChannelView[] {
    return this.channels.map((c, i) => {
      const barriers: InputChannelView['barriers'] = [];
      for (let j = c.head; j < c.queue.length; j++) {
        const m = c.queue[j];
        if (m.t === 'barrier') barriers.push({ checkpointId: m.id, position: j - c.head });
      }
      return { edge: c.edge, port: c.port, from: c.from, queued: c.queue.length - c.head, watermark: c.wm, blocked: this.aligner.isBlocked(i), barriers };
    });
  }

  /** The alignment in progress: blocked channels and the records waiting behind them. */
  alignment(): { checkpointId: number; blockedChannels: number[]; buffered: number } | null {
    const st = this.aligner.state();
    if (st.kind !== 'aligning') return null;
    const blockedChannels = [...st.arrived].sort((a, b) => a - b);
    let buffered = st.buffered;
    for (const ci of blockedChannels) {
      const c = this.channels[ci];
      for (let j = c.head; j < c.queue.length; j++) {
        const m = c.queue[j];
        if (m.t === 'batch') buffered += m.els.length;
      }
    }
    return { checkpointId: st.checkpointId, blockedChannels, buffered };
  }

  /** A source with a triggered checkpoint whose barrier it has not injected yet. */
  hasPendingBarrier(): boolean {
    return this.barriersToInject.length > 0;
  }

  /** Watermark this subtask has reached (sources: the one they emit). */
  watermark(): number {
    return this.source ? this.source.watermark() : this.task!.currentWatermark();
  }

  isAligning(): boolean {
    return this.aligner.state().kind === 'aligning';
  }

  /** True when a call to runOne would do something. */
  runnable(): boolean {
    if (this.finished || !this.outputsHaveCredit()) return false;
    if (this.source) return true;
    for (let i = 0; i < this.channels.length; i++) {
      const c = this.channels[i];
      if (c.head < c.queue.length && !this.aligner.isBlocked(i)) return true;
    }
    const next = this.task!.timers.nextTime('processing');
    return next !== undefined && next <= this.host.clock.now();
  }

  private outputsHaveCredit(): boolean {
    for (const o of this.outs) for (const t of o.targets) if (!this.host.hasCredit(o.edge, this.index, t)) return false;
    return true;
  }

  private runSource(): boolean {
    const src = this.source!;
    const id = this.barriersToInject.shift();
    if (id !== undefined) {
      const t0 = this.host.clock.now();
      this.snapshotNow(id, 0, 0, t0);
      this.broadcast({ t: 'barrier', id });
      return true;
    }
    const poll = src.poll(this.batchSize);
    for (const d of poll.deadLetters) this.host.deadLetter(d);
    if (poll.elements.length) {
      this.tap?.output(this, new Map([['out', poll.elements]]));
      this.emitBatch(this.outs, poll.elements);
    }
    if (poll.watermark !== null) this.broadcast({ t: 'wm', wm: poll.watermark });
    if (poll.done) this.finish();
    return true;
  }

  private handle(ci: number, c: InChannel, msg: ChannelMessage): void {
    const task = this.task!;
    switch (msg.t) {
      case 'batch':
        if (this.committer) this.committer.buffer(msg.els);
        if (this.tap) return this.tappedBatch(this.tap, c.port, msg.els);
        task.processBatch(c.port, msg.els);
        this.route();
        return;
      case 'wm':
        c.wm = Math.max(c.wm, msg.wm);
        return this.advance();
      case 'idle':
        c.idle = msg.idle;
        return this.advance();
      case 'barrier':
        return this.onAligner(this.aligner.onBarrier(ci, msg.id));
      case 'end': {
        c.ended = true;
        this.onAligner(this.aligner.onEndOfInput(ci));
        if (this.channels.every((x) => x.ended)) {
          task.endInput();
          this.route();
          this.finish();
        }
        return;
      }
    }
  }

  private advance(): void {
    const task = this.task!;
    const min = combinedWatermark(this.channels);
    if (min <= task.currentWatermark()) return;
    for (let t = task.timers.pollDue('event', min); t; t = task.timers.pollDue('event', min)) {
      task.setWatermark(Math.max(task.currentWatermark(), t.ts));
      task.fireTimer(t);
      this.route();
    }
    task.advanceWatermark(min);
    this.route();
    this.broadcast({ t: 'wm', wm: min });
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
        this.broadcast({ t: 'barrier', id: a.checkpointId });
      }
    }
  }

  /** The synchronous part: copy state, close the sink epoch, hand the copy to the host. */
  private snapshotNow(id: number, alignMs: number, buffered: number, t0 = this.host.clock.now()): void {
    this.expected.delete(id);
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

  snapshot(checkpointId: number, durableKeyed?: SubtaskSnapshot['keyed']): SubtaskSnapshot {
    const base = { subtask: this.id, parallelism: this.node.parallelism, finished: this.finished };
    if (this.source) {
      return { ...base, keyed: { type: 'inline', snapshot: { maxParallelism: 0, keyGroups: {} } }, operator: { lists: {}, broadcast: {} }, timers: [], watermark: this.source.watermark(), counters: {}, source: this.split!.snapshot(this.source.snapshot()) };
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
      pendingCommits: this.committer?.preCommit(checkpointId),
    };
  }

  private finish(): void {
    this.finished = true;
    this.barriersToInject.length = 0;
    this.broadcast({ t: 'end' });
    for (const id of [...this.expected]) this.snapshotNow(id, 0, 0);
  }

  private route(): void {
    const out = this.task!.drain();
    if (out) this.routeOut(out);
  }

  private routeOut(out: Map<string, Element[]>): void {
    this.tap?.output(this, out);
    for (const [port, els] of out) this.emitBatch(this.outs.filter((o) => o.port === port), els);
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

  private emitBatch(outs: OutEdge[], els: Element[]): void {
    for (const o of outs) {
      const parts = o.partition(els);
      for (let i = 0; i < o.targets.length; i++) if (parts[i].length) this.host.send(o.edge, this.index, o.targets[i], { t: 'batch', els: parts[i] });
    }
  }

  private broadcast(msg: ChannelMessage): void {
    for (const o of this.outs) for (const t of o.targets) this.host.send(o.edge, this.index, t, msg);
  }

  // ---- checkpoint completion and restore ----

  /** `publish` false: whoever completed the checkpoint already published its epochs from the snapshots. */
  checkpointCompleted(id: number, publish = true): void {
    if (!this.committer) return;
    const ready = this.committer.commit(id);
    if (publish) this.host.publish(this.node.id, ready);
  }

  /** The whole job finished: publish the tail. */
  jobFinished(): void {
    if (this.committer) this.host.publish(this.node.id, this.committer.commitAll());
  }

  /** Restores from the snapshots of every old subtask of this node, keeping the key groups it now owns. */
  restore(snaps: readonly SubtaskSnapshot[]): PendingCommit[] {
    if (this.source) {
      // A changed parallelism redistributes the old splits' remaining records (see sourceSplit.ts).
      this.source.restore(this.split!.restore(snaps, this.node.id));
      return [];
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
      backend.restore(snaps.map((s) => (s.keyed as { snapshot: import('../state/backend.ts').KeyedStateSnapshot }).snapshot), owns);
    }
    task.operatorState.restore(snaps.map((s) => s.operator), this.index, this.node.parallelism);
    task.timers.restore(snaps.flatMap((s) => s.timers), (k) => owns(keyGroupOf(k, mp)));
    task.setWatermark(Math.min(...snaps.map((s) => s.watermark)));
    // Sink epochs pre-committed but perhaps never published: the first subtask re-publishes them.
    return this.committer && this.index === 0 ? snaps.flatMap((s) => s.pendingCommits ?? []) : [];
  }
}

function operatorKeyFields(target: PlanNode, port: string): KeyFields | null {
  if (target.isSource) return null;
  return operatorDefinition(target.kind).keyFields?.(target.params, port, target.inputs) ?? null;
}

/** Backends that count their writes (the heap backend) tell the tap whether a record changed state. */
function mutationCount(b: KeyedStateBackend): number {
  return (b as { mutations?: () => number }).mutations?.() ?? 0;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

