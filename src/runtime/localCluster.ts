import { ManualClock } from '../core/clock.ts';
import { LoadMeter } from './loadMeter.ts';
import { seededRng } from '../core/rng.ts';
import type { Rng } from '../core/rng.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { KeyedStateBackend, StateTime } from '../state/backend.ts';
import type { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import type { CheckpointManifest } from '../checkpoint/types.ts';
import { SubtaskRunner } from './subtaskRunner.ts';
import { InjectionLog } from './injectionLog.ts';
import { parseInjection, type InjectParse } from './injectValues.ts';
import { JobMaster } from './jobMaster.ts';
import { InProcessScheduler, followsSourceTime } from './inProcessSchedule.ts';
import { RunHistory } from './runHistory.ts';
import type { HoldMode, Replayable } from './runHistory.ts';
import type { ClusterEvent, ClusterOptions, ClusterPhase, ClusterResult, ClusterTap, StepTarget, StepUntilResult } from './clusterTypes.ts';
import { FaultInjector, Killed } from './clusterFaults.ts';
import { SnapshotWrites } from './snapshotWrites.ts';
import { ClusterSubtasks, openBackends } from './clusterSubtasks.ts';
import { SourceHold, stepUntil } from './clusterStepping.ts';
import { inProcessHost, type HostWiring } from './clusterHost.ts';
import { ClusterReadout } from './clusterReadout.ts';

export type { ClusterEvent, ClusterOptions, ClusterPhase, ClusterResult, ClusterTap, Kill, StepTarget, StepUntilResult } from './clusterTypes.ts';

/**
 * The in-process transport of the job master: every subtask of the plan in one thread,
 * bounded channels with credit, all under a seeded scheduler with a manual clock (one step,
 * one millisecond). The JobMaster owns checkpoints, publication and restarts, as it does over
 * worker threads; the same SubtaskRunner runs the operators. Runs replay exactly, which chaos
 * tests, stepping, breakpoints and time travel need. This file drives the run: deploys and
 * restarts, steps, checkpoint triggers and the controls (inject, kill, restore). The read side
 * (clusterReadout.ts), the deployed subtasks (clusterSubtasks.ts), the host wiring
 * (clusterHost.ts), snapshot writes (snapshotWrites.ts), fault injection (clusterFaults.ts) and
 * stepping by message (clusterStepping.ts) are their own.
 */
export class LocalCluster extends ClusterReadout implements Replayable {
  readonly clock = new ManualClock(0);
  /** Every step and control so far: replayed into a fresh cluster, it reaches any earlier point exactly. */
  readonly history = new RunHistory();
  protected readonly deployed: ClusterSubtasks;
  protected coordinator!: CheckpointCoordinator;
  protected readonly master: JobMaster;
  private readonly rng: Rng;
  protected readonly jobId: string;
  private attempt = 0;
  private readonly writes: SnapshotWrites;
  private readonly faults: FaultInjector;
  private nextCheckpointAt: number;
  protected steps = 0;
  protected phase: ClusterPhase = 'created';
  protected failReason: string | undefined;
  private listener: ((e: ClusterEvent) => void) | null = null;
  private tap: ClusterTap | null = null;
  /** Whether sources are held back to let the rest settle, and what they sent while stepUntil runs. */
  private readonly hold = new SourceHold();
  /** What every attempt's host reaches of the cluster (clusterHost.ts). */
  private readonly wiring: HostWiring;
  private readonly scheduler: InProcessScheduler;
  /** 'simulated' and 'live': the clock follows the sources (or the caller), not the steps. */
  private readonly sourceTime: boolean;
  /** Records injected from the UI: part of the sources' input, so every attempt and restore sees them. */
  private readonly injections = new InjectionLog();
  protected readonly load: LoadMeter | null;

  constructor(
    readonly plan: JobPlan,
    protected readonly opts: ClusterOptions = {},
  ) {
    super();
    this.rng = seededRng(opts.scheduleSeed ?? 1);
    this.jobId = opts.jobId ?? plan.doc.name;
    this.faults = new FaultInjector(opts.kills, this.rng);
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
    this.writes = new SnapshotWrites(this.master, () => this.attempt, () => this.coordinator);
    this.deployed = new ClusterSubtasks(plan);
    this.wiring = {
      plan,
      clock: this.clock,
      opts,
      deployed: this.deployed,
      hold: this.hold,
      history: this.history,
      writes: this.writes,
      master: this.master,
      fromSource: plan.edges.map((e) => plan.nodes.find((n) => n.id === e.from.node)?.isSource ?? false),
      attempt: () => this.attempt,
      coordinator: () => this.coordinator,
      listener: () => this.listener,
      tap: () => this.tap,
    };
    this.scheduler = new InProcessScheduler(opts.schedule ?? 'seeded', this.clock, this.rng, opts.batchSize ?? 256);
    this.sourceTime = followsSourceTime(this.scheduler.policy);
    this.load = opts.loadClock ? new LoadMeter(opts.loadClock) : null;
  }

  onEvent(listener: ((e: ClusterEvent) => void) | null): void {
    this.listener = listener;
  }

  /** Installs (or removes, with null) the observatory's tap on every subtask, now and after restarts. */
  setTap(tap: ClusterTap | null): void {
    this.tap = tap;
    for (const r of this.deployed.runners) r.tap = tap;
  }

  /** (Re)creates every subtask; with snapshots, restores them and re-publishes pre-committed sink output. */
  private async deploy(checkpointId?: number): Promise<void> {
    this.retireRunners();
    // Backends may need to open (IndexedDB); the runner binds state synchronously, so open first.
    const backends = this.opts.backend ? await openBackends(this.plan, this.opts.backend, this.attempt) : new Map<string, (time: StateTime) => KeyedStateBackend>();
    this.spawnRunners(backends);
    const { manifest, snaps, retained } = await this.master.restorePoint(checkpointId, new Set(this.deployed.chained.chains.map((c) => c.view)));
    if (snaps) {
      for (const r of this.deployed.runners) r.restore(snaps[r.node.id] ?? []);
      await Promise.all(this.deployed.runners.map((r) => r.ready));
    } else for (const r of this.deployed.sources) r.startFresh();
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
    this.writes.clear();
    this.deployed.retire();
  }

  /** `finalOutput`: nothing can roll this attempt back, so sinks publish without epochs. */
  private spawnRunners(backends: ReadonlyMap<string, (time: StateTime) => KeyedStateBackend>, finalOutput = false): void {
    const host = inProcessHost(this.wiring, this.attempt);
    const make = (n: JobPlan['nodes'][number], index: number): SubtaskRunner => {
      const backend = backends.get(`${n.id}#${index}`);
      const runner = new SubtaskRunner({ plan: this.plan, node: n, index, host, inputs: this.opts.inputs, readers: this.opts.readers, sourceRows: this.opts.sourceRows, injections: this.injections, batchSize: this.opts.batchSize, backend, publishOutput: this.opts.keepChangelog !== false || this.opts.onPublish !== undefined, finalOutput });
      runner.tap = this.tap;
      return runner;
    };
    // An observatory tapping the job (breakpoints, stepping, per-operator state) sees every operator on its own.
    this.deployed.spawn(make, this.opts.chain !== false && this.tap === null);
    this.scheduler.reset();
    this.load?.redeployed(this.deployed.runners);
  }

  private beginAttempt(restored: number | null, retained: CheckpointManifest[]): void {
    this.listener?.({ type: 'restored', checkpointId: restored, attempt: this.attempt });
    this.coordinator = this.master.beginAttempt(retained, {
      trigger: (id) => {
        this.listener?.({ type: 'checkpoint', checkpointId: id, status: 'triggered' });
        this.deployed.runners.forEach((r) => r.triggered(id));
      },
      completed: (id) => {
        this.history.mark('checkpoint');
        this.listener?.({ type: 'checkpoint', checkpointId: id, status: 'completed' });
        // The master published this checkpoint's epochs from its snapshots: the runners drop them.
        this.deployed.runners.forEach((r) => r.checkpointCompleted(id, false));
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

  private finishJob(): void {
    for (const runner of this.deployed.runners) runner.jobFinished();
    this.phase = 'finished';
    this.listener?.({ type: 'finished' });
  }

  /** One scheduler step: a checkpoint trigger, a snapshot write, or one subtask's unit of work. */
  async step(): Promise<ClusterPhase> {
    if (this.phase !== 'running') return this.phase;
    this.history.step(this.hold.mode);
    try {
      const r = await this.tick();
      if (r === 'done') {
        await this.writes.completeAll();
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

  /**
   * Appends a record, typed from the text per column, to a running source's injection log; its
   * subtask 0 reads it next. Wrong values come back per field and nothing is appended.
   */
  inject(source: string, values: Record<string, string>): InjectParse {
    const parsed = parseInjection(this.plan, source, values, this.phase, () => this.deployed.byNode.get(source)?.[0]?.finished === true);
    if (parsed.ok) {
      this.injections.append(source, parsed.row);
      this.history.control({ t: 'inject', source, values: { ...values } });
    }
    return parsed;
  }

  /** Fault injection: the subtask fails at the next step. */
  kill(subtask: string): void {
    this.faults.kill(subtask);
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

  /** One step with sources held back as `stepUntil` held them: how a replay repeats a step. */
  async stepHeld(hold: HoldMode): Promise<ClusterPhase> {
    this.hold.mode = hold;
    try {
      return await this.step();
    } finally {
      this.hold.mode = 'no';
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
  stepUntil(target: StepTarget, maxSteps = 100_000): Promise<StepUntilResult> {
    return stepUntil(this, this.hold, target, maxSteps);
  }

  /** A live source waits for its feed and nothing else can run: stepping now would only spin. */
  waitingForInput(): boolean {
    return this.deployed.sources.some((r) => !r.finished && r.waitsForInput()) && !this.deployed.runners.some((r) => r.runnable()) && this.writes.length === 0;
  }

  private async tick(): Promise<'running' | 'done' | 'stalled'> {
    if (!this.beginStep()) return 'stalled';
    // Snapshot writes complete after a seeded delay, so kills can land while they are in flight.
    if (this.writes.length && this.rng.next() < 0.3) await this.writes.completeNext();
    if (this.runSomething()) return 'running';
    if (this.deployed.allFinished()) return 'done';
    if (this.writes.length) {
      await this.writes.completeNext();
      return 'running';
    }
    return 'stalled';
  }

  /** `tick` without snapshot writes (none are taken without checkpoints). */
  private tickSync(): 'running' | 'done' | 'stalled' {
    if (!this.beginStep()) return 'stalled';
    if (this.runSomething()) return 'running';
    if (this.deployed.allFinished()) return 'done';
    this.steps--;
    return 'stalled';
  }

  /** Counts the step, moves step time, injects kills and triggers due checkpoints; false past maxSteps. */
  private beginStep(): boolean {
    if (this.steps >= (this.opts.maxSteps ?? 50_000_000)) return false;
    this.steps++;
    if (!this.sourceTime) this.clock.advance(1);
    this.faults.check(this.steps, this.deployed.runners, this.writes.length);
    if (this.clock.now() >= this.nextCheckpointAt) {
      this.nextCheckpointAt = this.clock.now() + (this.opts.checkpointIntervalMs ?? Infinity);
      this.coordinator.trigger();
    }
    return true;
  }

  /** One unit of work of the subtask the schedule picks; false when none can run. */
  private runSomething(): boolean {
    const load = this.load;
    const { runners, sources } = this.deployed;
    if (!load) return this.scheduler.runOne(runners, sources, (r) => this.hold.heldBack(r));
    const t0 = load.stepStart();
    const ran = this.scheduler.runOne(runners, sources, (r) => this.hold.heldBack(r));
    load.stepDone(t0, this.scheduler.lastRan, runners);
    return ran;
  }

}
