import type { DeadLetter, Element, Row } from '../core/types.ts';
import { ManualClock } from '../core/clock.ts';
import { LoadMeter } from './loadMeter.ts';
import type { SubtaskLoadTimes } from './loadMeter.ts';
import { seededRng } from '../core/rng.ts';
import type { Rng } from '../core/rng.ts';
import type { JobPlan, PlanNode } from '../pipeline/plan.ts';
import type { KeyedStateBackend, PersistResult, StateTime } from '../state/backend.ts';
import { isDurableBackend } from '../state/backend.ts';
import type { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import type { CheckpointManifest, CheckpointRecord, CheckpointStore, SubtaskSnapshot } from '../checkpoint/types.ts';
import { SubtaskRunner } from './subtaskRunner.ts';
import { applyChains, viewChains, type ChainPlan } from './chaining.ts';
import type { GivenReader, RunnerHost, RunnerTap } from './subtaskRunner.ts';
import type { ChannelMessage } from './messages.ts';
import type { RestartStrategy } from './restartStrategy.ts';
import type { CommonSourceParams, SourceEnv } from '../core/source.ts';
import type { NodeMetrics } from '../engine/nodeTask.ts';
import type { NodeTask } from '../engine/nodeTask.ts';
import { sourceDefinition } from '../engine/registry.ts';
import { InjectionLog } from './injectionLog.ts';
import { parseInjectValues, type InjectParse } from './injectValues.ts';
import { JobMaster, mergeViews } from './jobMaster.ts';
import { InProcessScheduler, followsSourceTime } from './inProcessSchedule.ts';
import type { SchedulePolicy } from './inProcessSchedule.ts';
import { RunHistory } from './runHistory.ts';
import type { HoldMode, Replayable } from './runHistory.ts';

/** When and how to fail a subtask on purpose. */
export interface Kill {
  atStep: number;
  /** Wait until this also holds: some subtask is aligning barriers, or a snapshot write is in flight. */
  when?: 'any' | 'aligning' | 'writing';
  /** Subtask id to kill; a seeded random live one when absent. */
  subtask?: string;
}

export interface ClusterOptions {
  jobId?: string;
  /** Seeds the scheduler's interleaving; the job's own seed stays in the plan. */
  scheduleSeed?: number;
  /** How the in-process scheduler picks the next subtask (see SchedulePolicy); default 'seeded'. */
  schedule?: SchedulePolicy;
  checkpointIntervalMs?: number | null;
  store?: CheckpointStore;
  retain?: number;
  restart?: RestartStrategy;
  channelCapacity?: number;
  inputs?: Record<string, SourceEnv['input']>;
  /** Readers that replace a source node's own (by node id), such as live inputs: one per source, or one per subtask. */
  readers?: Record<string, GivenReader>;
  kills?: Kill[];
  onPublish?: (sinkId: string, els: readonly Element[]) => void;
  /** Every dead letter as it happens (a replay after a restart included); `result().deadLetters` has each once. */
  onDeadLetter?: (d: DeadLetter) => void;
  /**
   * Keep every sink's published changelog for the result (default true). A long-running job
   * that consumes `onPublish` (the designer) turns it off, or the log grows without bound.
   */
  keepChangelog?: boolean;
  maxSteps?: number;
  /** Records per source read (smaller batches interleave more finely). */
  batchSize?: number;
  /**
   * Measures busy and backpressured time per subtask on this clock (the designer: wall time).
   * Without it nothing is measured and a step pays nothing for it.
   */
  loadClock?: () => number;
  /**
   * Chain an upsert view behind the GROUP BY that feeds it (default true; see chaining.ts). The
   * designer turns it off: its observatory shows and steps every operator on its own.
   */
  chain?: boolean;
  /** Keyed state backend per subtask (default: memory). A durable one persists its own chunks at checkpoints. */
  backend?: (node: PlanNode, subtask: number, time: StateTime, attempt: number) => KeyedStateBackend | Promise<KeyedStateBackend>;
}

export interface ClusterResult {
  status: 'finished' | 'failed';
  reason?: string;
  restarts: number;
  steps: number;
  views: Record<string, Row[]>;
  changelogs: Record<string, Element[]>;
  checkpoints: CheckpointRecord[];
  deadLetters: DeadLetter[];
}

class Killed extends Error {}

/** What the cluster reports while it runs, for the observatory and for traces. */
export type ClusterEvent =
  | { type: 'message'; edge: string; from: string; to: string; kind: ChannelMessage['t']; records?: number; watermark?: number; checkpointId?: number }
  | { type: 'snapshot'; subtask: string; checkpointId: number; alignMs: number; syncMs: number; buffered: number }
  | { type: 'checkpoint'; checkpointId: number; status: 'triggered' | 'completed' | 'aborted'; reason?: string }
  | { type: 'failure'; reason: string; attempt: number }
  | { type: 'restored'; checkpointId: number | null; attempt: number }
  | { type: 'finished' }
  | { type: 'failed'; reason: string };

export type ClusterPhase = 'created' | 'running' | 'finished' | 'failed';

/** The observatory's tap: the runner tap plus every batch put on a channel. */
export interface ClusterTap extends RunnerTap {
  sent(edge: number, from: number, to: number, els: readonly Element[]): void;
}

export type StepTarget = 'record' | 'watermark' | 'barrier';

/** What `stepUntil` did: whether a source emitted the target, and what sources emitted meanwhile. */
export interface StepUntilResult {
  reached: boolean;
  steps: number;
  phase: ClusterPhase;
  /** Records, watermarks and barriers the sources put on their channels during these steps. */
  sourceRecords: number;
  sourceWatermarks: number;
  sourceBarriers: number;
}

const STEP_MESSAGE: Record<StepTarget, ChannelMessage['t']> = { record: 'batch', watermark: 'wm', barrier: 'barrier' };

/**
 * The in-process transport of the job master: every subtask of the plan in one thread,
 * bounded channels with credit, all under a seeded scheduler with a manual clock (one step,
 * one millisecond). The JobMaster owns checkpoints, publication and restarts, as it does over
 * worker threads; the same SubtaskRunner runs the operators. Runs replay exactly, which chaos
 * tests, stepping, breakpoints and time travel need.
 */
export class LocalCluster implements Replayable {
  readonly clock = new ManualClock(0);
  /** Every step and control so far: replayed into a fresh cluster, it reaches any earlier point exactly. */
  readonly history = new RunHistory();
  private runners: SubtaskRunner[] = [];
  private readonly byNode = new Map<string, SubtaskRunner[]>();
  private coordinator!: CheckpointCoordinator;
  private readonly master: JobMaster;
  private readonly rng: Rng;
  private readonly jobId: string;
  private attempt = 0;
  private writes: { attempt: number; id: number; snap: SubtaskSnapshot; timing: { alignMs: number; syncMs: number; buffered: number }; takenAt: number; keyedWrite?: Promise<PersistResult> }[] = [];
  private readonly kills: Kill[];
  private nextCheckpointAt: number;
  private steps = 0;
  private phase: ClusterPhase = 'created';
  private failReason: string | undefined;
  private pendingKill: string | null = null;
  private listener: ((e: ClusterEvent) => void) | null = null;
  private tap: ClusterTap | null = null;
  /** While stepUntil runs: what sources sent, and whether sources are held back to let the rest settle. */
  private sourceSent: { batch: number; wm: number; barrier: number; records: number } | null = null;
  private sourcesPaused: HoldMode = 'no';
  private readonly fromSource: boolean[];
  private readonly scheduler: InProcessScheduler;
  /** 'simulated' and 'live': the clock follows the sources (or the caller), not the steps. */
  private readonly sourceTime: boolean;
  private sourceRunners: SubtaskRunner[] = [];
  /** Records injected from the UI: part of the sources' input, so every attempt and restore sees them. */
  private readonly injections = new InjectionLog();
  private readonly load: LoadMeter | null;
  /** What the last deploy put in force. */
  private chained: ChainPlan = { chains: [], unchained: [] };

  constructor(
    readonly plan: JobPlan,
    private readonly opts: ClusterOptions = {},
  ) {
    this.rng = seededRng(opts.scheduleSeed ?? 1);
    this.jobId = opts.jobId ?? plan.doc.name;
    this.kills = [...(opts.kills ?? [])].sort((a, b) => a.atStep - b.atStep);
    this.nextCheckpointAt = opts.checkpointIntervalMs ?? Infinity;
    this.master = new JobMaster(plan, {
      jobId: this.jobId,
      // Its subtasks make each snapshot afresh, sharing only parts nobody mutates: nothing to copy in.
      store: opts.store ?? new MemoryCheckpointStore({ ownership: 'handover' }),
      clock: this.clock,
      retain: opts.retain,
      restart: opts.restart,
      keepChangelog: opts.keepChangelog,
      onPublish: opts.onPublish ? (sinkId, c) => opts.onPublish!(sinkId, c.els) : undefined,
    });
    this.fromSource = plan.edges.map((e) => plan.nodes.find((n) => n.id === e.from.node)?.isSource ?? false);
    this.scheduler = new InProcessScheduler(opts.schedule ?? 'seeded', this.clock, this.rng, opts.batchSize ?? 256);
    this.sourceTime = followsSourceTime(this.scheduler.policy);
    this.load = opts.loadClock ? new LoadMeter(opts.loadClock) : null;
  }

  /** Which aggregate → view pairs run chained in this attempt, and why the others do not. */
  chains(): ChainPlan {
    return this.chained;
  }

  private host(attempt: number): RunnerHost {
    const capacity = this.opts.channelCapacity ?? 8;
    return {
      clock: this.clock,
      hasCredit: (edge, from, to) => {
        const r = this.target(edge, to);
        return r.queued(r.channelIndex(edge, from)) < capacity;
      },
      send: (edge, from, to, msg: ChannelMessage) => {
        if (attempt !== this.attempt) return;
        const r = this.target(edge, to);
        r.enqueue(r.channelIndex(edge, from), msg);
        if (this.listener) this.emitMessage(edge, from, to, msg);
        if (this.tap && msg.t === 'batch') this.tap.sent(edge, from, to, msg.els);
        if (this.sourceSent && this.fromSource[edge]) this.countSourceSend(msg);
        if (msg.t === 'barrier') this.history.mark('barrier');
        else if (this.fromSource[edge]) this.history.mark(msg.t === 'batch' ? 'record' : 'watermark');
      },
      snapshotTaken: (id, snap, timing, keyedWrite) => {
        if (attempt !== this.attempt) return;
        this.writes.push({ attempt, id, snap, timing, takenAt: this.clock.now(), keyedWrite });
        this.listener?.({ type: 'snapshot', subtask: snap.subtask, checkpointId: id, ...timing });
      },
      declined: (id, subtask, reason) => {
        if (attempt === this.attempt) void this.coordinator.decline(id, subtask, reason);
      },
      publish: (sinkId, commits) => {
        if (attempt === this.attempt) this.master.publish(sinkId, commits);
      },
      publishDeadLetters: (epochs) => {
        if (attempt === this.attempt) this.master.publishDeadLetters(epochs);
      },
      publishFinal: (sinkId, els) => {
        if (attempt === this.attempt) this.master.output.final(sinkId, els);
      },
      deadLetter: (d) => {
        if (attempt !== this.attempt) return false;
        this.opts.onDeadLetter?.(d);
        return true;
      },
    };
  }

  onEvent(listener: ((e: ClusterEvent) => void) | null): void {
    this.listener = listener;
  }

  /** Installs (or removes, with null) the observatory's tap on every subtask, now and after restarts. */
  setTap(tap: ClusterTap | null): void {
    this.tap = tap;
    for (const r of this.runners) r.tap = tap;
  }

  private countSourceSend(msg: ChannelMessage): void {
    const s = this.sourceSent!;
    if (msg.t === 'batch') {
      s.batch++;
      s.records += msg.els.length;
    } else if (msg.t === 'wm') s.wm++;
    else if (msg.t === 'barrier') s.barrier++;
  }

  private emitMessage(edge: number, from: number, to: number, msg: ChannelMessage): void {
    const e = this.plan.edges[edge];
    this.listener!({
      type: 'message',
      edge: e.id,
      from: `${e.from.node}#${from}`,
      to: `${e.to.node}#${to}`,
      kind: msg.t,
      records: msg.t === 'batch' ? msg.els.length : undefined,
      watermark: msg.t === 'wm' ? msg.wm : undefined,
      checkpointId: msg.t === 'barrier' ? msg.id : undefined,
    });
  }

  private target(edge: number, to: number): SubtaskRunner {
    return this.byNode.get(this.plan.edges[edge].to.node)![to];
  }

  /** (Re)creates every subtask; with snapshots, restores them and re-publishes pre-committed sink output. */
  private async deploy(checkpointId?: number): Promise<void> {
    this.retireRunners();
    const backends = new Map<string, (time: StateTime) => KeyedStateBackend>();
    // Backends may need to open (IndexedDB); the runner binds state synchronously, so open first.
    if (this.opts.backend) for (const n of this.plan.nodes) if (!n.isSource) for (let i = 0; i < n.parallelism; i++) backends.set(`${n.id}#${i}`, await this.openBackend(n, i));
    this.spawnRunners(backends);
    const { manifest, snaps, retained } = await this.master.restorePoint(checkpointId, new Set(this.chained.chains.map((c) => c.view)));
    if (snaps) {
      for (const r of this.runners) r.restore(snaps[r.node.id] ?? []);
      await Promise.all(this.runners.map((r) => r.ready));
    } else for (const r of this.sourceRunners) r.startFresh();
    this.beginAttempt(manifest?.checkpointId ?? null, retained);
  }

  /** A fresh first attempt without awaiting anything: nothing to open, nothing to restore (`runSync`). */
  private deploySync(): void {
    if (this.opts.backend || this.opts.kills?.length || this.opts.checkpointIntervalMs != null) {
      throw new Error('a synchronous run takes no state backend factory, no kills and no checkpoint interval; use run()');
    }
    this.retireRunners();
    this.spawnRunners(new Map(), true);
    this.beginAttempt(null, []);
  }

  private retireRunners(): void {
    this.attempt++;
    this.writes = [];
    // A killed attempt's durable backends release their namespace before the new ones open it.
    for (const r of this.runners) if (r.task && isDurableBackend(r.task.state)) r.task.state.close();
    this.runners = [];
    this.byNode.clear();
  }

  /** `finalOutput`: nothing can roll this attempt back, so sinks publish without epochs. */
  private spawnRunners(backends: ReadonlyMap<string, (time: StateTime) => KeyedStateBackend>, finalOutput = false): void {
    const host = this.host(this.attempt);
    for (const n of this.plan.nodes) {
      const list: SubtaskRunner[] = [];
      for (let index = 0; index < n.parallelism; index++) {
        const backend = backends.get(`${n.id}#${index}`);
        const runner = new SubtaskRunner({ plan: this.plan, node: n, index, host, inputs: this.opts.inputs, readers: this.opts.readers, injections: this.injections, batchSize: this.opts.batchSize, backend, publishOutput: this.opts.keepChangelog !== false || this.opts.onPublish !== undefined, finalOutput });
        runner.tap = this.tap;
        list.push(runner);
      }
      this.byNode.set(n.id, list);
      this.runners.push(...list);
    }
    // An observatory tapping the job (breakpoints, stepping, per-operator state) sees every operator on its own.
    this.chained = applyChains(viewChains(this.plan, { enabled: this.opts.chain !== false && this.tap === null }), this.byNode);
    this.sourceRunners = this.runners.filter((r) => r.source);
    this.scheduler.reset();
    this.load?.redeployed(this.runners);
  }

  private beginAttempt(restored: number | null, retained: CheckpointManifest[]): void {
    this.listener?.({ type: 'restored', checkpointId: restored, attempt: this.attempt });
    this.coordinator = this.master.beginAttempt(retained, {
      trigger: (id) => {
        this.listener?.({ type: 'checkpoint', checkpointId: id, status: 'triggered' });
        this.runners.forEach((r) => r.triggered(id));
      },
      completed: (id) => {
        this.history.mark('checkpoint');
        this.listener?.({ type: 'checkpoint', checkpointId: id, status: 'completed' });
        // The master published this checkpoint's epochs from its snapshots: the runners drop them.
        this.runners.forEach((r) => r.checkpointCompleted(id, false));
      },
      aborted: (id, reason) => this.listener?.({ type: 'checkpoint', checkpointId: id, status: 'aborted', reason }),
    });
  }

  /** Deploys the job (restoring the latest checkpoint in the store, if any). */
  async start(): Promise<void> {
    if (this.phase !== 'created') return;
    await this.deploy();
    this.phase = 'running';
  }

  phaseNow(): ClusterPhase {
    return this.phase;
  }

  /** Runs the job to its end, surviving failures as the restart strategy allows. */
  async run(): Promise<ClusterResult> {
    await this.start();
    while ((await this.step()) === 'running');
    return this.result(this.phase === 'finished' ? 'finished' : 'failed', this.failReason);
  }

  /**
   * Runs a fresh job to its end (or, with a live source, until no source has data) without
   * awaiting anything: no checkpoints, no kills, no asynchronous backend. Tests and the CLI's
   * plain run use it; the result is the same as `run()`'s.
   */
  runSync(): ClusterResult {
    this.runUntilIdle();
    return this.result();
  }

  /**
   * Runs synchronously until the job finished or nothing can run: with the 'simulated' or 'live'
   * schedule, a source without data yet; run again once it has. Returns the steps taken. A fresh
   * cluster deploys first, as `runSync` does.
   */
  runUntilIdle(maxSteps = Infinity): number {
    if (this.phase === 'created') {
      this.deploySync();
      this.phase = 'running';
    }
    let n = 0;
    while (this.phase === 'running' && n < maxSteps) {
      if (this.writes.length) throw new Error('runUntilIdle() cannot complete snapshot writes; use run()');
      const r = this.tickSync();
      if (r === 'stalled') break;
      n++;
      if (r === 'done') this.finishJob();
    }
    return n;
  }

  /** True when every subtask finished and the job's tail was published. */
  isFinished(): boolean {
    return this.phase === 'finished';
  }

  private finishJob(): void {
    for (const runner of this.runners) runner.jobFinished();
    this.phase = 'finished';
    this.listener?.({ type: 'finished' });
  }

  /** One scheduler step: a checkpoint trigger, a snapshot write, or one subtask's unit of work. */
  async step(): Promise<ClusterPhase> {
    if (this.phase !== 'running') return this.phase;
    this.history.step(this.sourcesPaused);
    try {
      const r = await this.tick();
      if (r === 'done') {
        await this.finishCheckpoints();
        this.finishJob();
      } else if (r === 'stalled' && !this.waitingForInput()) this.fail(`no progress after ${this.steps} steps`);
    } catch (e) {
      if (!(e instanceof Killed)) throw e;
      this.history.mark('kill');
      await this.recover(e.message);
    }
    return this.phase;
  }

  private fail(reason: string): void {
    this.phase = 'failed';
    this.failReason = reason;
    this.listener?.({ type: 'failed', reason });
  }

  private async recover(reason: string): Promise<void> {
    this.listener?.({ type: 'failure', reason, attempt: this.attempt });
    await this.master.endAttempt(`job failed: ${reason}`);
    const delay = this.master.nextRestart();
    if (delay === null) return this.fail(`restart attempts exhausted after: ${reason}`);
    this.clock.advance(delay);
    await this.deploy();
  }

  /** Fault injection: the subtask fails at the next step. */
  /**
   * Appends a record, typed from the text per column, to a running source's injection log; its
   * subtask 0 reads it next. Wrong values come back per field and nothing is appended.
   */
  inject(source: string, values: Record<string, string>): InjectParse {
    const node = this.plan.nodes.find((n) => n.id === source);
    if (!node?.isSource) throw new Error(`inject: "${source}" is not a source of this job; choose a source node`);
    if (this.phase === 'finished' || this.phase === 'failed') throw new Error(`inject: the job has ${this.phase}; run it again to inject records`);
    if (this.byNode.get(source)?.[0]?.finished) throw new Error(`inject: source "${source}" has read all its input and ended; restore an earlier checkpoint to inject into it`);
    const def = sourceDefinition(node.kind);
    const parsed = parseInjectValues(def.taskParams?.(node.params) ?? (node.params as CommonSourceParams), values);
    if (parsed.ok) {
      this.injections.append(source, parsed.row);
      this.history.control({ t: 'inject', source, values: { ...values } });
    }
    return parsed;
  }

  kill(subtask: string): void {
    this.pendingKill = subtask;
    this.history.control({ t: 'kill', subtask });
  }

  /** Starts a checkpoint now (manual checkpoints); null when one is already in flight. */
  triggerCheckpoint(): number | null {
    const id = this.coordinator.trigger();
    // A refused trigger changes nothing, so only a started checkpoint is part of the history.
    if (id !== null) this.history.control({ t: 'trigger' });
    return id;
  }

  /** Steps taken so far: the point of the run's history the cluster is at. */
  stepCount(): number {
    return this.history.end;
  }

  running(): boolean {
    return this.phase === 'running';
  }

  /** One step with sources held back as `stepUntil` held them: how a replay repeats a step. */
  async stepHeld(hold: HoldMode): Promise<ClusterPhase> {
    this.sourcesPaused = hold;
    try {
      return await this.step();
    } finally {
      this.sourcesPaused = 'no';
    }
  }

  /** Time travel: every subtask goes back to a retained checkpoint and the run continues from there. */
  async restoreTo(checkpointId: number): Promise<void> {
    await this.master.endAttempt('restoring an earlier checkpoint');
    // Epochs after the checkpoint will be produced again (with the same ids): let them publish again.
    this.master.output.forgetAfter(checkpointId);
    await this.deploy(checkpointId);
    this.phase = 'running';
    this.history.control({ t: 'restore', checkpointId });
    this.history.mark('restore');
  }

  /**
   * Steps until a source put one record batch / watermark / barrier on its channels (a batch is
   * `batchSize` records: use batchSize 1 for record-by-record), then holds sources back and steps
   * the rest until nothing more can run: everything that message caused has settled. For a
   * barrier, the other sources still inject that checkpoint's barriers (but read no records).
   */
  async stepUntil(target: StepTarget, maxSteps = 100_000): Promise<StepUntilResult> {
    await this.start();
    const sent = (this.sourceSent = { batch: 0, wm: 0, barrier: 0, records: 0 });
    const want = STEP_MESSAGE[target] as 'batch' | 'wm' | 'barrier';
    let steps = 0;
    try {
      while (this.phase === 'running' && steps < maxSteps && sent[want] === 0) {
        await this.step();
        steps++;
        if (this.waitingForInput() && !this.runners.some((r) => r.runnable())) break;
      }
      // A checkpoint's barriers leave every source: let the others inject theirs so alignment can finish.
      this.sourcesPaused = target === 'barrier' ? 'except-barriers' : 'all';
      while (this.phase === 'running' && steps < maxSteps && this.runners.some((r) => !this.heldBack(r) && r.runnable())) {
        await this.step();
        steps++;
      }
    } finally {
      this.sourcesPaused = 'no';
      this.sourceSent = null;
    }
    return { reached: sent[want] > 0, steps, phase: this.phase, sourceRecords: sent.records, sourceWatermarks: sent.wm, sourceBarriers: sent.barrier };
  }

  private heldBack(r: SubtaskRunner): boolean {
    if (this.sourcesPaused === 'no' || !r.source) return false;
    return this.sourcesPaused === 'all' || !r.hasPendingBarrier();
  }

  /** A live source waits for its feed and nothing else can run: stepping now would only spin. */
  waitingForInput(): boolean {
    return this.sourceRunners.some((r) => !r.finished && r.waitsForInput()) && !this.runners.some((r) => r.runnable()) && this.writes.length === 0;
  }

  subtasks(): readonly SubtaskRunner[] {
    return this.runners;
  }

  /** The subtasks of one node, in index order. */
  subtasksOf(node: string): readonly SubtaskRunner[] {
    return this.byNode.get(node) ?? [];
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

  /** The checkpoint whose barriers are travelling now, if any. */
  inFlightCheckpoint(): number | null {
    return this.coordinator?.history().findLast((r) => r.status === 'pending')?.checkpointId ?? null;
  }

  /** Committed dead letters, each once: a record replayed after a recovery is not reported again. */
  deadLetters(): readonly DeadLetter[] {
    return this.master.deadLetters();
  }

  checkpointHistory(): CheckpointRecord[] {
    return this.master.checkpointHistory();
  }

  private async tick(): Promise<'running' | 'done' | 'stalled'> {
    if (!this.beginStep()) return 'stalled';
    // Snapshot writes complete after a seeded delay, so kills can land while they are in flight.
    if (this.writes.length && this.rng.next() < 0.3) await this.completeWrite(this.writes.shift()!);
    if (this.runSomething()) return 'running';
    if (this.allFinished()) return 'done';
    if (this.writes.length) {
      await this.completeWrite(this.writes.shift()!);
      return 'running';
    }
    return 'stalled';
  }

  /** `tick` without snapshot writes (none are taken without checkpoints). */
  private tickSync(): 'running' | 'done' | 'stalled' {
    if (!this.beginStep()) return 'stalled';
    if (this.runSomething()) return 'running';
    if (this.allFinished()) return 'done';
    this.steps--;
    return 'stalled';
  }

  /** Counts the step, moves step time, injects kills and triggers due checkpoints; false past maxSteps. */
  private beginStep(): boolean {
    if (this.steps >= (this.opts.maxSteps ?? 50_000_000)) return false;
    this.steps++;
    if (!this.sourceTime) this.clock.advance(1);
    this.maybeKill();
    if (this.clock.now() >= this.nextCheckpointAt) {
      this.nextCheckpointAt = this.clock.now() + (this.opts.checkpointIntervalMs ?? Infinity);
      this.coordinator.trigger();
    }
    return true;
  }

  private allFinished(): boolean {
    for (const r of this.runners) if (!r.finished) return false;
    return true;
  }

  /** One unit of work of the subtask the schedule picks; false when none can run. */
  private runSomething(): boolean {
    const load = this.load;
    if (!load) return this.scheduler.runOne(this.runners, this.sourceRunners, (r) => this.heldBack(r));
    const t0 = load.stepStart();
    const ran = this.scheduler.runOne(this.runners, this.sourceRunners, (r) => this.heldBack(r));
    load.stepDone(t0, this.scheduler.lastRan, this.runners);
    return ran;
  }

  /** Busy and backpressured ms per subtask id so far (all attempts); null without `loadClock`. */
  loadTimes(): Map<string, SubtaskLoadTimes> | null {
    return this.load?.read() ?? null;
  }

  private maybeKill(): void {
    if (this.pendingKill) {
      const victim = this.pendingKill;
      this.pendingKill = null;
      throw new Killed(`subtask ${victim} was killed at step ${this.steps}`);
    }
    const k = this.kills[0];
    if (!k || this.steps < k.atStep) return;
    if (k.when === 'aligning' && !this.runners.some((r) => r.isAligning())) return;
    if (k.when === 'writing' && this.writes.length === 0) return;
    this.kills.shift();
    const live = this.runners.filter((r) => !r.finished);
    const victim = k.subtask ?? (live.length ? this.rng.pick(live).id : this.runners[0].id);
    throw new Killed(`subtask ${victim} was killed at step ${this.steps}${k.when && k.when !== 'any' ? ` (while ${k.when})` : ''}`);
  }

  /** A backend factory's result for one subtask, made before the runner binds its state. */
  private async openBackend(n: PlanNode, index: number): Promise<(time: StateTime) => KeyedStateBackend> {
    let time: StateTime | null = null;
    const proxyTime: StateTime = { processingTime: () => time!.processingTime(), eventTime: () => time!.eventTime() };
    const backend = await this.opts.backend!(n, index, proxyTime, this.attempt);
    return (t) => {
      time = t;
      return backend;
    };
  }

  private async completeWrite(w: (typeof this.writes)[number]): Promise<void> {
    if (w.attempt !== this.attempt) return;
    let keyedBytes: { full: number; written: number } | null = null;
    if (w.keyedWrite) {
      try {
        const persisted = await w.keyedWrite;
        w.snap.keyed = persisted.handle;
        keyedBytes = { full: persisted.fullBytes, written: persisted.writtenBytes };
      } catch (e) {
        await this.coordinator.decline(w.id, w.snap.subtask, `writing keyed state failed: ${(e as Error).message}`);
        return;
      }
    }
    // The asynchronous phase runs from the synchronous copy to the acknowledgement, waiting included.
    await this.master.writeSnapshot(w.id, w.snap, w.timing, keyedBytes, () => w.attempt !== this.attempt, undefined, w.takenAt);
  }

  /** Lets in-flight snapshot writes finish so the history is complete. */
  private async finishCheckpoints(): Promise<void> {
    while (this.writes.length) await this.completeWrite(this.writes.shift()!);
  }

  /** The operator instance of one node's subtask (tests and benchmarks look at its state). */
  task(nodeId: string, index = 0): NodeTask | null {
    return this.byNode.get(nodeId)?.[index]?.task ?? null;
  }

  /** Per node, its subtasks' metrics added up (watermark: the lowest). */
  metrics(): Record<string, NodeMetrics> {
    const out: Record<string, NodeMetrics> = {};
    for (const [id, list] of this.byNode) {
      const m: NodeMetrics = { recordsIn: 0, recordsOut: 0, watermark: Infinity, counters: {}, deadLetters: 0, timers: 0 };
      for (const r of list) {
        const part = r.task ? r.task.metrics(r.deadLetterCount) : { recordsIn: 0, recordsOut: r.recordsEmitted, watermark: r.watermark(), counters: {}, deadLetters: r.deadLetterCount, timers: 0 };
        m.recordsIn += part.recordsIn;
        m.recordsOut += part.recordsOut;
        m.watermark = Math.min(m.watermark, part.watermark);
        m.deadLetters += part.deadLetters;
        m.timers += part.timers;
        for (const [k, v] of Object.entries(part.counters)) m.counters[k] = (m.counters[k] ?? 0) + v;
      }
      out[id] = m;
    }
    return out;
  }

  result(status: ClusterResult['status'] = this.phase === 'finished' ? 'finished' : 'failed', reason = this.failReason): ClusterResult {
    const sinks = this.runners.filter((r) => r.node.isSink);
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

