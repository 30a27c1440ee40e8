import type { DeadLetter, Element, Row } from './types.ts';
import { MIN_WATERMARK } from './types.ts';
import { NodeTask } from './nodeTask.ts';
import type { NodeMetrics, NodeTaskSnapshot } from './nodeTask.ts';
import { SourceTask } from './sourceTask.ts';
import type { SourceTaskSnapshot } from './sourceTask.ts';
import type { CommonSourceParams, SourceEnv, SourceReader } from './source.ts';
import { ManualClock } from './time/clock.ts';
import { combinedWatermark } from './time/valve.ts';
import { derivedSeed, seededRng } from './rng.ts';
import { operatorDefinition, sourceDefinition } from './registry.ts';
import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import type { KeyedStateBackend, StateTime } from '../state/backend.ts';
import { MemoryStateBackend } from '../state/memory/memoryBackend.ts';
import type { Timer } from './time/timers.ts';
import type { SourcePoll } from './sourceTask.ts';

type Message = { t: 'batch'; els: Element[] } | { t: 'wm'; wm: number } | { t: 'idle'; idle: boolean } | { t: 'end' };
type Task = { t: 'deliver'; edge: number; msg: Message } | { t: 'advance'; node: number; wm: number } | { t: 'ptimers'; node: number };

/** What one step moved, for step mode, traces and the observatory. */
export type StepEvent =
  | { type: 'source'; node: string; records: number; deadLetters: number; watermark: number | null; done: boolean }
  | { type: 'records'; edge: string; from: string; to: string; port: string; elements: Element[]; emitted: Record<string, number> }
  | { type: 'watermark'; edge: string; to: string; port: string; watermark: number; nodeWatermark: number }
  | { type: 'timer'; node: string; timer: Timer; emitted: Record<string, number> }
  | { type: 'idle'; edge: string; to: string; idle: boolean }
  | { type: 'end'; edge: string; to: string; nodeEnded: boolean };

export interface ExecutorOptions {
  /** Records per source read; 1 makes `step()` move one record at a time. */
  batchSize?: number;
  clock?: ManualClock;
  inputs?: Record<string, SourceEnv['input']>;
  /** Readers that replace a source node's own (by node id): benchmarks feed ready records this way. */
  readers?: Record<string, SourceReader>;
  /** Called with every changelog row that reaches a sink. */
  onSinkOutput?: (sinkId: string, els: readonly Element[]) => void;
  /** Keep every sink's changelog in memory (default true). */
  keepChangelog?: boolean;
  backend?: (node: PlanNode, time: StateTime) => KeyedStateBackend;
  /**
   * 'simulated' (default): processing time follows source offsets and rates, so a run is
   * reproducible. 'external': the caller sets the clock (a live run sets wall-clock time),
   * sources are read as soon as they have data, and idleness is measured on that clock.
   */
  processingTime?: 'simulated' | 'external';
  /** Called with every dead letter as it happens (they are also kept for `deadLetters()`). */
  onDeadLetter?: (d: DeadLetter) => void;
}

interface Channel {
  wm: number;
  idle: boolean;
  ended: boolean;
}

export interface JobSnapshot {
  clock: number;
  sources: Record<string, SourceTaskSnapshot & { lastEmit: number; idle: boolean }>;
  nodes: Record<string, NodeTaskSnapshot>;
  channels: Channel[];
}

interface SourceSlot {
  task: SourceTask;
  node: number;
  interval: number;
  idleTimeout: number;
  lastEmit: number;
  idle: boolean;
  ended: boolean;
}

/**
 * The deterministic, single-threaded executor: one FIFO of tasks, sources polled in order
 * of simulated processing time. Same plan, seed and input always give the same output.
 */
export class Executor {
  readonly clock: ManualClock;
  private readonly tasks: (NodeTask | null)[] = [];
  private readonly sources: SourceSlot[] = [];
  private readonly outEdges: number[][] = [];
  private readonly inEdges: number[][] = [];
  private readonly channels: Channel[];
  private readonly queue: Task[] = [];
  private head = 0;
  private readonly urgent: Task[] = [];
  private readonly batchSize: number;
  private readonly dead: DeadLetter[] = [];
  private readonly deadByNode = new Map<string, number>();
  private readonly changelogs = new Map<string, Element[]>();
  private readonly nodeEnded: boolean[];
  private readonly edgeTarget: number[];
  private readonly index: Map<string, number>;
  private trace: ((e: StepEvent) => void) | null = null;
  /** The source a live run polls first next time, so one busy input cannot starve the others. */
  private nextLive = 0;

  constructor(
    readonly plan: JobPlan,
    private readonly opts: ExecutorOptions = {},
  ) {
    this.clock = opts.clock ?? new ManualClock(0);
    this.batchSize = Math.max(1, opts.batchSize ?? 256);
    const index = new Map(plan.nodes.map((n, i) => [n.id, i]));
    this.index = index;
    this.edgeTarget = plan.edges.map((e) => index.get(e.to.node)!);
    this.channels = plan.edges.map(() => ({ wm: MIN_WATERMARK, idle: false, ended: false }));
    this.nodeEnded = plan.nodes.map(() => false);
    plan.nodes.forEach(() => {
      this.outEdges.push([]);
      this.inEdges.push([]);
    });
    plan.edges.forEach((e, i) => {
      this.outEdges[index.get(e.from.node)!].push(i);
      this.inEdges[index.get(e.to.node)!].push(i);
    });
    const defaultRate = plan.doc.settings?.defaultRatePerSec ?? 1000;
    const defaultIdle = plan.doc.settings?.idleTimeoutMs ?? Infinity;
    plan.nodes.forEach((n, i) => {
      const rng = seededRng(derivedSeed(plan.seed, n.id));
      if (n.isSource) {
        const def = sourceDefinition(n.kind);
        const reader = opts.readers?.[n.id] ?? def.open(n.params, { seed: derivedSeed(plan.seed, n.id), input: opts.inputs?.[n.id] });
        const p = def.taskParams?.(n.params) ?? (n.params as CommonSourceParams);
        this.sources.push({
          task: new SourceTask(n.id, reader, p),
          node: i,
          interval: 1000 / (p.ratePerSec ?? defaultRate),
          idleTimeout: p.eventTime?.idleTimeoutMs ?? defaultIdle,
          lastEmit: 0,
          idle: false,
          ended: false,
        });
        this.tasks.push(null);
        return;
      }
      let task: NodeTask | null = null;
      const time: StateTime = { processingTime: () => this.clock.now(), eventTime: () => task!.currentEventTime() };
      const backend = opts.backend?.(n, time) ?? new MemoryStateBackend(time, plan.maxParallelism);
      task = new NodeTask(n, operatorDefinition(n.kind), backend, this.clock, rng, (d) => this.deadLetter(d));
      this.tasks.push(task);
      if (n.isSink) this.changelogs.set(n.id, []);
    });
    for (const t of this.tasks) t?.open();
  }

  onTrace(listener: ((e: StepEvent) => void) | null): void {
    this.trace = listener;
  }

  private deadLetter(d: DeadLetter): void {
    this.dead.push(d);
    this.deadByNode.set(d.nodeId, (this.deadByNode.get(d.nodeId) ?? 0) + 1);
    this.opts.onDeadLetter?.(d);
  }

  /** True when every source ended and every message was processed. */
  isFinished(): boolean {
    return this.pending() === 0 && this.sources.every((s) => s.ended);
  }

  private pending(): number {
    return this.queue.length - this.head + this.urgent.length;
  }

  /** Performs one unit of work and says what moved; null when the job has finished. */
  step(): StepEvent[] | null {
    const events: StepEvent[] = [];
    const prev = this.trace;
    this.trace = (e) => {
      events.push(e);
      prev?.(e);
    };
    try {
      return this.stepOnce() ? events : null;
    } finally {
      this.trace = prev;
    }
  }

  /**
   * Runs until finished, out of work, or `maxSteps` units of work; returns the steps taken.
   * Out of work before finishing means a live source has no data yet: run again when it has.
   */
  run(maxSteps = Infinity): number {
    let n = 0;
    while (n < maxSteps && this.stepOnce()) n++;
    return n;
  }

  private stepOnce(): boolean {
    const task = this.urgent.pop() ?? this.takeQueued();
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (task) {
      this.runTask(task);
      return true;
    }
    if (this.scheduleProcessingTimers()) return true;
    return this.pollSource();
  }

  /**
   * The next queued task; its slot is emptied at once. A consumed slot would otherwise keep its
   * batch (every element and row of it) reachable until the queue is compacted, which at 4096
   * tasks is up to a million processed elements surviving into the old generation.
   */
  private takeQueued(): Task | undefined {
    if (this.head >= this.queue.length) return undefined;
    const task = this.queue[this.head];
    this.queue[this.head++] = CONSUMED;
    return task;
  }

  private runTask(task: Task): void {
    if (task.t === 'advance') return this.advance(task.node, task.wm);
    if (task.t === 'ptimers') return this.fireProcessingTimers(task.node);
    const edge = this.plan.edges[task.edge];
    const target = this.edgeTarget[task.edge];
    const node = this.tasks[target]!;
    const ch = this.channels[task.edge];
    const msg = task.msg;
    if (msg.t === 'batch') {
      if (node.node.isSink) this.recordSink(node.node.id, msg.els);
      node.processBatch(edge.to.port, msg.els);
      const emitted = this.route(target, node);
      this.trace?.({ type: 'records', edge: edge.id, from: edge.from.node, to: edge.to.node, port: edge.to.port, elements: msg.els, emitted });
    } else if (msg.t === 'wm') {
      ch.wm = Math.max(ch.wm, msg.wm);
      const combined = this.combinedWatermark(target);
      this.trace?.({ type: 'watermark', edge: edge.id, to: edge.to.node, port: edge.to.port, watermark: msg.wm, nodeWatermark: combined });
      if (combined > node.currentWatermark()) this.urgent.push({ t: 'advance', node: target, wm: combined });
    } else if (msg.t === 'idle') {
      ch.idle = msg.idle;
      this.trace?.({ type: 'idle', edge: edge.id, to: edge.to.node, idle: msg.idle });
      const combined = this.combinedWatermark(target);
      if (combined > node.currentWatermark()) this.urgent.push({ t: 'advance', node: target, wm: combined });
    } else {
      ch.ended = true;
      const all = this.inEdges[target].every((i) => this.channels[i].ended);
      this.trace?.({ type: 'end', edge: edge.id, to: edge.to.node, nodeEnded: all });
      if (all && !this.nodeEnded[target]) {
        this.nodeEnded[target] = true;
        node.endInput();
        this.route(target, node);
        this.broadcast(target, { t: 'end' });
      }
    }
  }

  private combinedWatermark(target: number): number {
    return combinedWatermark(this.inEdges[target].map((i) => this.channels[i]));
  }

  /** Fires due event-time timers (one per step in step mode), then forwards the watermark. */
  private advance(target: number, wm: number): void {
    const node = this.tasks[target]!;
    const oneAtATime = this.batchSize === 1;
    for (;;) {
      const t = node.timers.pollDue('event', wm);
      if (!t) break;
      node.setWatermark(Math.max(node.currentWatermark(), Math.min(wm, t.ts)));
      node.fireTimer(t);
      const emitted = this.route(target, node);
      this.trace?.({ type: 'timer', node: node.node.id, timer: t, emitted });
      if (oneAtATime) {
        this.urgent.push({ t: 'advance', node: target, wm });
        return;
      }
    }
    node.advanceWatermark(wm);
    this.route(target, node);
    this.broadcast(target, { t: 'wm', wm });
  }

  private scheduleProcessingTimers(): boolean {
    const now = this.clock.now();
    let any = false;
    this.tasks.forEach((t, i) => {
      const next = t?.timers.nextTime('processing');
      if (next !== undefined && next <= now) {
        this.queue.push({ t: 'ptimers', node: i });
        any = true;
      }
    });
    return any;
  }

  private fireProcessingTimers(target: number): void {
    const node = this.tasks[target]!;
    const now = this.clock.now();
    for (let t = node.timers.pollDue('processing', now); t; t = node.timers.pollDue('processing', now)) {
      node.fireTimer(t);
      const emitted = this.route(target, node);
      this.trace?.({ type: 'timer', node: node.node.id, timer: t, emitted });
      if (this.batchSize === 1) break;
    }
  }

  /** Polls the source whose next record is due first in simulated processing time. */
  private pollSource(): boolean {
    if (this.opts.processingTime === 'external') return this.pollLive();
    let waiting: SourceSlot[] | null = null;
    for (;;) {
      let best: SourceSlot | null = null;
      let bestDue = Infinity;
      for (const s of this.sources) {
        if (s.ended || waiting?.includes(s)) continue;
        const due = s.task.offset() * s.interval;
        if (due < bestDue) {
          best = s;
          bestDue = due;
        }
      }
      if (!best) return false;
      // Read no further than the moment another source is due, so sources interleave by their rates.
      let otherDue = Infinity;
      for (const s of this.sources) if (s !== best && !s.ended && !waiting?.includes(s)) otherDue = Math.min(otherDue, s.task.offset() * s.interval);
      const count = Math.min(this.batchSize, Math.max(1, Math.floor((otherDue - bestDue) / best.interval) + 1));
      const poll = best.task.poll(count);
      if (!moved(poll)) {
        (waiting ??= []).push(best);
        continue;
      }
      this.clock.set(bestDue);
      this.markIdleSources(best);
      this.clock.set(bestDue + Math.max(0, count - 1) * best.interval);
      this.emitPoll(best, poll);
      return true;
    }
  }

  /** A live run: the first source, round-robin, that has something; else idleness checks. */
  private pollLive(): boolean {
    const n = this.sources.length;
    for (let k = 0; k < n; k++) {
      const i = (this.nextLive + k) % n;
      const s = this.sources[i];
      if (s.ended) continue;
      const poll = s.task.poll(this.batchSize);
      if (!moved(poll)) continue;
      this.nextLive = (i + 1) % n;
      this.markIdleSources(s);
      this.emitPoll(s, poll);
      return true;
    }
    return this.markIdleSources(null);
  }

  private emitPoll(best: SourceSlot, poll: SourcePoll): void {
    for (const d of poll.deadLetters) this.deadLetter(d);
    if (poll.elements.length || this.opts.processingTime !== 'external') best.lastEmit = this.clock.now();
    if (best.idle && poll.elements.length) {
      best.idle = false;
      this.broadcast(best.node, { t: 'idle', idle: false });
    }
    if (poll.elements.length) this.broadcast(best.node, { t: 'batch', els: poll.elements });
    if (poll.watermark !== null) this.broadcast(best.node, { t: 'wm', wm: poll.watermark });
    if (poll.done) {
      best.ended = true;
      this.broadcast(best.node, { t: 'end' });
    }
    const id = this.plan.nodes[best.node].id;
    this.trace?.({ type: 'source', node: id, records: poll.elements.length, deadLetters: poll.deadLetters.length, watermark: poll.watermark, done: poll.done });
  }

  /** Marks sources idle that emitted nothing for their idle timeout; true when any became idle. */
  private markIdleSources(polled: SourceSlot | null): boolean {
    const now = this.clock.now();
    let any = false;
    for (const s of this.sources) {
      if (s === polled || s.ended || s.idle) continue;
      if (now - s.lastEmit >= s.idleTimeout) {
        s.idle = true;
        any = true;
        this.broadcast(s.node, { t: 'idle', idle: true });
      }
    }
    return any;
  }

  private broadcast(from: number, msg: Message): void {
    for (const e of this.outEdges[from]) this.queue.push({ t: 'deliver', edge: e, msg });
  }

  private route(from: number, node: NodeTask): Record<string, number> {
    const out = node.drain();
    const counts: Record<string, number> = {};
    if (!out) return counts;
    for (const [port, els] of out) {
      counts[port] = els.length;
      for (const e of this.outEdges[from]) if (this.plan.edges[e].from.port === port) this.queue.push({ t: 'deliver', edge: e, msg: { t: 'batch', els } });
    }
    return counts;
  }

  private recordSink(id: string, els: Element[]): void {
    if (this.opts.keepChangelog !== false) {
      const log = this.changelogs.get(id)!;
      for (const e of els) log.push(e);
    }
    this.opts.onSinkOutput?.(id, els);
  }

  private nodeIndex(id: string): number {
    return this.index.get(id) ?? -1;
  }

  // ---- results ----

  changelog(sinkId: string): Element[] {
    return this.changelogs.get(sinkId) ?? [];
  }

  /** The sink's materialized table, sorted by primary key. */
  view(sinkId: string): Row[] {
    const t = this.tasks[this.nodeIndex(sinkId)];
    const op = t?.operator as { rows?: () => Row[] } | undefined;
    return op?.rows?.() ?? [];
  }

  deadLetters(): readonly DeadLetter[] {
    return this.dead;
  }

  task(nodeId: string): NodeTask | null {
    return this.tasks[this.nodeIndex(nodeId)] ?? null;
  }

  metrics(): Record<string, NodeMetrics> {
    const out: Record<string, NodeMetrics> = {};
    this.plan.nodes.forEach((n, i) => {
      const t = this.tasks[i];
      const dl = this.deadByNode.get(n.id) ?? 0;
      if (t) out[n.id] = t.metrics(dl);
      else {
        const s = this.sources.find((x) => x.node === i)!;
        out[n.id] = { recordsIn: 0, recordsOut: s.task.offset() - dl, watermark: s.task.watermark(), counters: {}, deadLetters: dl, timers: 0 };
      }
    });
    return out;
  }

  // ---- snapshots ----

  /** A consistent cut: only taken between units of work, with nothing in flight. */
  snapshot(): JobSnapshot {
    if (this.pending() > 0) throw new Error('snapshot() needs a quiescent executor; call drainInFlight() first');
    const sources: JobSnapshot['sources'] = {};
    for (const s of this.sources) sources[this.plan.nodes[s.node].id] = { ...s.task.snapshot(), lastEmit: s.lastEmit, idle: s.idle };
    const nodes: JobSnapshot['nodes'] = {};
    this.tasks.forEach((t, i) => {
      if (t) nodes[this.plan.nodes[i].id] = t.snapshot();
    });
    return { clock: this.clock.now(), sources, nodes, channels: this.channels.map((c) => ({ ...c })) };
  }

  /** Processes everything already queued without reading more input. */
  drainInFlight(): void {
    while (this.pending() > 0) this.stepOnce();
  }

  restore(s: JobSnapshot): void {
    this.queue.length = 0;
    this.head = 0;
    this.urgent.length = 0;
    this.clock.set(s.clock);
    for (const slot of this.sources) {
      const snap = s.sources[this.plan.nodes[slot.node].id];
      if (!snap) continue;
      slot.task.restore(snap);
      slot.lastEmit = snap.lastEmit;
      slot.idle = snap.idle;
      slot.ended = false;
    }
    this.tasks.forEach((t, i) => {
      const snap = s.nodes[this.plan.nodes[i].id];
      if (t && snap) t.restore(snap);
    });
    s.channels.forEach((c, i) => Object.assign(this.channels[i], c));
    this.nodeEnded.fill(false);
  }
}

/** Fills consumed queue slots: one shared task keeps the array's elements of one kind. */
const CONSUMED: Task = { t: 'ptimers', node: -1 };

/** Whether a poll changed anything; a live source with no data yet changes nothing. */
const moved = (p: SourcePoll): boolean => p.elements.length > 0 || p.deadLetters.length > 0 || p.watermark !== null || p.done;
