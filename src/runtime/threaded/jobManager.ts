import type { Row } from '../../core/types.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import { compile } from '../../pipeline/compile.ts';
import type { CheckpointCoordinator } from '../../checkpoint/coordinator.ts';
import type { CheckpointManifest, CheckpointRecord, SubtaskSnapshot } from '../../checkpoint/types.ts';
import { subtaskId } from '../../checkpoint/types.ts';
import { JobMaster, mergeViews } from '../jobMaster.ts';
import type { TimerService } from '../jobMaster.ts';
import { workerCountFor, workerHosting } from './assignment.ts';
import { deploySpec } from './deploySpec.ts';
import { Deployment } from './deployment.ts';
import type { WorkerSlot } from './deployment.ts';
import { FaultyStore, chaosPlan, estimateSourceRecords } from './faults.ts';
import type { ChaosKill } from './faults.ts';
import type { JobOptions, JobResult, JobStats, Recovery } from './jobOptions.ts';
import { mergeStats, sourceProgress } from './merge.ts';
import { KeyedTrail, decodeCommits, unpackSnapshot, unpackViews } from './commitWire.ts';
import { decodeBatch } from './codec.ts';
import { MemoryCheckpointStore } from '../../checkpoint/memoryStore.ts';
import { wallTimers } from './wallClock.ts';
import { ChunkRetention } from './chunkRetention.ts';
import { CheckpointTicker } from '../checkpointTicker.ts';
import type { UdfThrow, WorkerEvent } from './protocol.ts';
import { restoreFailure } from './restoreError.ts';
import { FeedRelay } from './feedRelay.ts';

type Outcome = { kind: 'finished' } | { kind: 'failed'; reason: string };

/**
 * The job master over worker threads (Node worker_threads, browser Web Workers): compiles the
 * plan, starts one worker per slot through the injected spawn, and drives the JobMaster
 * (checkpoints, exactly-once publication, restore, restarts) with injected timers. On a failure
 * (error event, heartbeat timeout, UDF exception, kill) it terminates every worker and redeploys
 * from the latest completed checkpoint, as the restart strategy allows.
 */
export class JobManager {
  readonly plan: JobPlan;
  readonly workers: number;
  readonly store: FaultyStore;
  private readonly jobId: string;
  private deployment: Deployment | null = null;
  private coordinator: CheckpointCoordinator | null = null;
  private attempt = 0;
  /** The keyed cells of each subtask's last snapshot in this attempt, which the next one may send only the changes to. */
  private receivedCells = new KeyedTrail();
  private readonly master: JobMaster;
  private readonly timers: TimerService;
  private readonly recoveries: Recovery[] = [];
  private udfThrows: UdfThrow[] = [];
  private readonly chaos: ChaosKill[];
  /** The next chaos kill's point was passed: a checkpoint-async kill waits for a snapshot write. */
  private chaosArmed = false;
  private cancels: (() => void)[] = [];
  private fatal: string | null = null;
  private finals = new Map<number, Record<string, Row[]>>();
  private onAllFinished: (() => void) | null = null;
  private onFinals: (() => void) | null = null;
  private lastStats: JobStats | null = null;
  private restoredFinished = false;
  private restoredFrom: number | null = null;
  private readonly retention: ChunkRetention;
  private readonly ticker: CheckpointTicker;
  private readonly feeds: FeedRelay | null;
  private pace: number | null;
  private checkpointEvery: number | null;
  private cancelTicker: (() => void) | null = null;

  constructor(
    readonly doc: unknown,
    private readonly opts: JobOptions,
  ) {
    const { plan, problems } = compile(doc);
    if (!plan) throw new Error(`invalid pipeline: ${problems.map((p) => `${p.target ?? '(document)'} ${p.field}: ${p.message}`).join('; ')}`);
    this.plan = plan;
    this.workers = workerCountFor(this.plan, opts.maxWorkers, opts.ownWorker);
    this.store = new FaultyStore(opts.store ?? new MemoryCheckpointStore({ ownership: 'handover' }));
    this.jobId = opts.jobId ?? this.plan.doc.name;
    this.retention = new ChunkRetention(this.store, opts.log);
    this.timers = opts.timers ?? wallTimers;
    this.ticker = new CheckpointTicker(() => this.coordinator, this.timers);
    this.master = new JobMaster(this.plan, {
      jobId: this.jobId,
      store: this.store,
      clock: this.timers,
      retain: opts.retain,
      checkpointTimeoutMs: opts.checkpointTimeoutMs,
      restart: opts.restart,
      published: opts.published,
      keepChangelog: opts.keepChangelog,
      onPublish: opts.onPublish,
      onDeadLetters: opts.onDeadLetters,
    });
    // A feed whose buffer overflowed under the 'fail' policy stops the job: a restart could not replay it.
    this.pace = opts.pace ?? null;
    // Sources that wait for a barrier after so many records need checkpoints to come: at once, if no interval says when.
    this.checkpointEvery = opts.checkpointIntervalMs ?? (opts.checkpointEveryRecords ? 1 : null);
    this.feeds = opts.feeds ? new FeedRelay(opts.feeds, (reason) => this.cancel(reason)) : null;
    const c = opts.chaos;
    this.chaos = c && c.kills > 0 ? chaosPlan(this.plan, c.kills, c.seed, estimateSourceRecords(this.plan, opts.inputs ?? {})) : [];
  }

  async run(): Promise<JobResult> {
    const started = this.timers.now();
    if (!this.opts.resume) {
      for (const m of await this.store.list(this.jobId)) await this.store.discard(this.jobId, m.checkpointId);
    }
    let restore = this.opts.resume ?? false;
    let failure: { reason: string; at: number; delayMs: number } | null = null;
    for (;;) {
      const outcome = await this.runAttempt(restore, failure);
      restore = true;
      if (outcome.kind === 'finished') return this.result('finished', started);
      if (this.fatal) return this.result('failed', started, this.fatal);
      const delay = this.master.nextRestart();
      if (delay === null) return this.result('failed', started, `restart attempts exhausted after: ${outcome.reason}`);
      this.opts.log?.(`restart ${this.master.restarts} in ${delay} ms after: ${outcome.reason}`);
      failure = { reason: outcome.reason, at: this.timers.now(), delayMs: delay };
      await this.timers.sleep(delay);
    }
  }

  private async runAttempt(restore: boolean, failure: { reason: string; at: number; delayMs: number } | null): Promise<Outcome> {
    const attempt = ++this.attempt;
    this.receivedCells = new KeyedTrail();
    let settle!: (o: Outcome) => void;
    const outcome = new Promise<Outcome>((r) => (settle = r));
    const dep = new Deployment(this.opts.spawn, this.workers, {
      event: (slot, ev) => this.onEvent(dep, slot, ev),
      failure: (reason, fatal) => {
        if (fatal) this.fatal ??= reason;
        settle({ kind: 'failed', reason });
      },
    }, this.timers);
    this.deployment = dep;
    this.onAllFinished = () => settle({ kind: 'finished' });
    this.finals = new Map();
    let latest: CheckpointManifest | null = null;
    let retained: CheckpointManifest[] = [];
    try {
      // The master re-publishes what the restored snapshots pre-committed, once.
      const point = restore ? await this.master.restorePoint() : { manifest: null, snaps: null, retained: [] };
      latest = point.manifest;
      retained = point.retained;
      const snaps = point.snaps;
      if (latest) this.opts.log?.(`attempt ${attempt}: restoring from checkpoint ${latest.checkpointId}`);
      this.restoredFrom = latest?.checkpointId ?? null;
      if (attempt > 1 || latest) this.opts.onPreviewReset?.(attempt, this.restoredFrom);
      this.restoredFinished = snaps !== null && Object.values(snaps).every((list) => list.every((s) => s.finished));
      this.coordinator = this.newCoordinator(dep, point.retained);
      const t0 = this.timers.now();
      if (snaps) this.feeds?.adoptCarried(snaps);
      const specs = { jobId: this.jobId, plan: this.plan, workers: this.workers, opts: this.opts, udfThrows: this.udfThrows, feeds: this.feeds?.backlogs(), sourcePace: this.perSourceSubtask() };
      await dep.deploy((w) => deploySpec(specs, attempt, w, snaps), this.opts.deployTimeoutMs ?? 60_000);
      // A feed source runs as one subtask: only its worker gets the messages.
      this.feeds?.attach((node, entries, ended) => {
        const w = workerHosting(this.plan, subtaskId(node, 0), this.workers, this.opts.ownWorker);
        const slot = w === null ? undefined : dep.slots[w];
        if (slot) void Promise.resolve(slot.api.feed(node, entries, ended)).catch((e: unknown) => dep.fail(`worker ${slot.index}: ${(e as Error)?.message ?? String(e)}`));
      });
      this.opts.log?.(`attempt ${attempt}: ${this.workers} workers deployed in ${(this.timers.now() - t0).toFixed(0)} ms`);
      if (snaps) await this.retention.sweep(dep, this.coordinator.retainedCheckpoints(), snaps);
      if (latest && this.opts.onRestoredViews) {
        const parts = await dep.guard(Promise.all(dep.slots.map((s) => s.api.views())), this.opts.deployTimeoutMs ?? 60_000, 'reading the restored views');
        this.opts.onRestoredViews(latest.checkpointId, mergeViews(this.plan, parts));
      }
      if (this.restoredFinished) this.onAllFinished();
      else dep.start(Math.max(this.opts.heartbeatTimeoutMs ?? 5000, this.opts.codeLimits ? this.opts.codeLimits.timeoutMs + 3000 : 0));
      // Standby workers for the next restart, warming up while this attempt runs.
      this.opts.prewarm?.(this.workers);
    } catch (e) {
      // A deploy the workers rejected (e.g. a damaged snapshot) will not heal by retrying.
      const reason = latest ? restoreFailure((e as Error).message, latest, retained, this.master.store) : (e as Error).message;
      if (!dep.isFailed) this.fatal = `cannot deploy the job: ${reason}`;
      dep.fail((e as Error).message);
    }
    if (failure) this.recoveries.push({ reason: failure.reason, recoveryMs: this.timers.now() - failure.at, delayMs: failure.delayMs, restoredFrom: latest?.checkpointId ?? null });
    if (!dep.isFailed) this.startTimers(dep);
    // A recovery chaos kill falls as soon as the restored workers start, before they complete a checkpoint.
    if (attempt > 1 && this.chaos[0]?.phase === 'recovery' && !this.restoredFinished) this.chaosKill(dep);
    let out = await outcome;
    if (out.kind === 'finished') {
      try {
        await this.finishPhase(dep);
        await this.retention.settled();
      } catch (e) {
        out = { kind: 'failed', reason: (e as Error).message };
      }
    }
    await this.teardown(dep, out.kind === 'failed' ? out.reason : 'job finished', out.kind === 'finished');
    return out;
  }

  private newCoordinator(dep: Deployment, retained: CheckpointManifest[]): CheckpointCoordinator {
    return this.master.beginAttempt(retained, {
      trigger: (id) => dep.each((api) => api.trigger(id)),
      completed: (id) => {
        // The master published this checkpoint's epochs from its snapshots: the workers drop theirs.
        dep.each((api) => api.completed(id));
        this.feeds?.completed(id);
        // The coordinator discards the oldest checkpoint right after this hook: keep the newest `retain`.
        this.retention.collect(dep, this.coordinator?.retainedCheckpoints().slice(-(this.opts.retain ?? 3)) ?? []);
        if (!dep.isFailed) this.ticker.settled();
      },
      aborted: (id, reason) => {
        this.opts.log?.(`checkpoint ${id} aborted: ${reason}`);
        if (/storage is full|quota/i.test(reason)) {
          const last = this.coordinator?.latestCompleted()?.checkpointId;
          this.fatal = `checkpoint ${id} failed: ${reason}. The job stopped; ${last ? `checkpoint ${last} is the last good one` : 'no checkpoint had completed'}.`;
          dep.fail(this.fatal);
        }
        if (!dep.isFailed) this.ticker.settled();
      },
    });
  }

  private startTimers(dep: Deployment): void {
    if (this.checkpointEvery) this.cancelTicker = this.ticker.start(this.checkpointEvery);
    const next = this.chaos[0];
    if (next && next.phase !== 'recovery' && next.atRecords === Infinity) this.cancels.push(this.timers.after(next.atMs, () => this.chaosDue(dep)));
  }

  private stopTimers(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels = [];
    this.cancelTicker?.();
    this.cancelTicker = null;
  }

  private onEvent(dep: Deployment, slot: WorkerSlot, ev: WorkerEvent): void {
    if (ev.attempt !== this.attempt) return;
    switch (ev.t) {
      case 'heartbeat':
        slot.sourceOffsets = ev.sourceOffsets;
        if (this.chaos.length && this.chaos[0].phase !== 'recovery' && sourceProgress(dep.slots.map((s) => s.sourceOffsets)) >= this.chaos[0].atRecords) this.chaosDue(dep);
        return;
      case 'snapshot': {
        let snap: SubtaskSnapshot;
        try {
          snap = unpackSnapshot(ev.snap, ev.commits, ev.keyed, this.receivedCells);
        } catch (e) {
          return dep.fail(`checkpoint ${ev.id}: ${(e as Error).message}`);
        }
        return void this.writeSnapshot({ ...ev, snap });
      }
      case 'declined':
        return void this.coordinator?.decline(ev.id, ev.subtask, ev.reason);
      case 'publish':
        return this.master.publish(ev.sinkId, decodeCommits(ev.commits));
      case 'preview':
        // A restored sink has taken no checkpoint of its own yet: its changes follow the one it restored.
        for (const p of ev.changes) this.opts.onPreview?.(p.sinkId, { origin: p.origin, since: Math.max(p.since, this.restoredFrom ?? 0), attempt: ev.attempt, els: decodeBatch(p.batch) });
        return;
      case 'deadLetters':
        return this.master.publishDeadLetters(ev.epochs);
      case 'injectedFired':
        this.udfThrows = this.udfThrows.filter((t) => !(t.node === ev.node && t.index === ev.index));
        return;
      case 'udfError':
        return dep.fail(`UDF error in ${ev.subtask}: ${ev.reason}`);
      case 'failed':
        if (ev.fatal) this.fatal = ev.reason;
        return dep.fail(ev.reason);
      case 'finished':
        slot.finished = true;
        if (!dep.slots.every((s) => s.finished)) return;
        // Kills the chaos plan still owes happen now rather than never.
        if (this.chaos.length) this.chaosKill(dep, true);
        else this.onAllFinished?.();
        return;
      case 'final':
        this.finals.set(slot.index, unpackViews(ev.views));
        if (this.finals.size === dep.slots.length) this.onFinals?.();
        return;
    }
  }

  private writeSnapshot(ev: Extract<WorkerEvent, { t: 'snapshot' }>): Promise<void> {
    const keyedBytes = ev.keyedBytes ?? null;
    if (ev.snap.source) this.feeds?.noteSnapshot(ev.id, ev.snap);
    const write = this.master.writeSnapshot(ev.id, ev.snap, ev.timing, keyedBytes, () => ev.attempt !== this.attempt, (snap) => this.retention.noteSnapshot(ev.id, snap));
    // A checkpoint-async chaos kill lands while this write is in flight.
    if (this.chaosArmed && this.chaos[0]?.phase === 'checkpoint-async' && this.deployment) this.chaosKill(this.deployment);
    return write;
  }

  /** The next chaos kill's point is reached: it falls now, or (checkpoint-async) at the next snapshot write. */
  private chaosDue(dep: Deployment): void {
    if (this.chaos[0]?.phase === 'checkpoint-async') this.chaosArmed = true;
    else this.chaosKill(dep);
  }

  /** `atEnd`: every worker finished before the kill's point came; it falls now rather than never. */
  private chaosKill(dep: Deployment, atEnd = false): void {
    if (dep.isFailed || !this.chaos.length) return;
    const k = this.chaos.shift()!;
    this.chaosArmed = false;
    const during = atEnd ? 'as the job finished' : { processing: 'while records flow', 'checkpoint-async': "during a checkpoint's snapshot write", recovery: 'during the recovery' }[k.phase];
    this.opts.log?.(`chaos: killing ${k.subtask} ${during} (${this.chaos.length} kills left)`);
    this.kill(dep, k.subtask);
  }

  private kill(dep: Deployment, subtask: string): boolean {
    const w = workerHosting(this.plan, subtask, this.workers, this.opts.ownWorker);
    if (w === null || dep.isFailed) return false;
    dep.slots[w].spawned.terminate();
    dep.fail(`subtask ${subtask} was killed (worker ${w} terminated)`);
    return true;
  }

  /** Every worker finished: a last checkpoint makes the end durable, then sinks publish their tails. */
  private async finishPhase(dep: Deployment): Promise<void> {
    this.stopTimers();
    const c = this.coordinator!;
    const limit = this.opts.checkpointTimeoutMs ?? 60_000;
    if (!this.restoredFinished) {
      await dep.guard(this.until(() => !c.isPending()), limit, 'the checkpoint in flight');
      const id = c.trigger();
      if (id !== null) await dep.guard(this.until(() => c.history().find((r) => r.checkpointId === id)?.status !== 'pending'), limit, 'the final checkpoint');
    }
    await c.stop('job finished');
    this.lastStats = await this.stats().catch(() => null);
    const finals = new Promise<void>((r) => (this.onFinals = r));
    dep.each((api) => api.finishJob());
    await dep.guard(finals, limit, 'collecting the results');
  }

  private async teardown(dep: Deployment, reason: string, recycle = false): Promise<void> {
    this.stopTimers();
    this.feeds?.detach();
    await this.master.endAttempt(reason);
    this.coordinator = null;
    dep.terminate(recycle);
  }

  private result(status: JobResult['status'], started: number, reason?: string): JobResult {
    const views = status === 'finished' ? mergeViews(this.plan, this.finals.values()) : {};
    const { recoveries, workers, master } = this;
    return { status, reason, restarts: master.restarts, recoveries, views, changelogs: master.changelogs(), deadLetters: master.deadLetters(), checkpoints: master.checkpointHistory(), elapsedMs: this.timers.now() - started, workers, stats: this.lastStats };
  }

  private async until(cond: () => boolean): Promise<void> {
    while (!cond()) await this.timers.sleep(2);
  }

  // ---- control: stats and fault injection ----

  async stats(): Promise<JobStats> {
    const dep = this.deployment;
    const base = { workers: this.workers, checkpoints: this.master.checkpointHistory(), restarts: this.master.restarts, recoveries: [...this.recoveries] };
    if (!dep || dep.isFailed) return { ...base, nodes: {}, edges: [] };
    const all = await dep.guard(Promise.all(dep.slots.map((s) => s.api.stats())), 5000, 'collecting stats');
    return { ...base, ...mergeStats(all) };
  }

  checkpointHistory(): CheckpointRecord[] {
    return this.master.checkpointHistory();
  }

  triggerCheckpoint(): number | null {
    return this.coordinator?.trigger() ?? null;
  }

  /** Terminates the worker hosting `subtask` (slot sharing: its whole slice of the job goes with it). */
  killSubtask(subtask: string): boolean {
    return this.deployment ? this.kill(this.deployment, subtask) : false;
  }

  /** The operator of `node#index` throws at its n-th record from now (once). */
  throwInUdfAt(node: string, n: number, index = 0): void {
    const t = { node, index, n };
    this.udfThrows.push(t);
    const w = workerHosting(this.plan, subtaskId(node, index), this.workers, this.opts.ownWorker);
    if (w !== null) void this.deployment?.slots[w]?.api.throwInUdfAt(t);
  }

  /** The pace per source subtask: the job's records per second shared by its source subtasks. */
  private perSourceSubtask(): number | null {
    if (this.pace === null) return null;
    const sources = this.plan.nodes.filter((n) => n.isSource).reduce((n, s) => n + s.parallelism, 0);
    return sources ? this.pace / sources : null;
  }

  /** Source records per second from now on, in this attempt and the next ones (null: unpaced; 0: hold the sources). */
  setPace(recordsPerSec: number | null): void {
    this.pace = recordsPerSec;
    const per = this.perSourceSubtask();
    this.deployment?.each((api) => api.pace(per));
  }

  /** A new periodic checkpoint interval (null: manual checkpoints only), from now on. */
  setCheckpointInterval(ms: number | null): void {
    this.checkpointEvery = ms;
    this.cancelTicker?.();
    this.cancelTicker = null;
    const dep = this.deployment;
    if (ms && dep && !dep.isFailed && this.coordinator) this.cancelTicker = this.ticker.start(ms);
  }

  failNextSnapshotWrite(reason?: string): void {
    this.store.failNextWrite(reason);
  }

  fillStorage(): void {
    this.store.fill();
  }

  /** Stops the job for good: it ends as failed with this reason, without a restart. */
  cancel(reason = 'cancelled'): void {
    this.fatal = reason;
    this.deployment?.fail(reason);
  }

  freezeWorker(worker: number, ms: number): void {
    void this.deployment?.slots[worker]?.api.freeze(ms);
  }
}

