import type { Row } from '../../engine/types.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import { compile } from '../../pipeline/compile.ts';
import { CheckpointCoordinator } from '../../checkpoint/coordinator.ts';
import type { CheckpointManifest, CheckpointRecord, PendingCommit } from '../../checkpoint/types.ts';
import { parseSubtaskId, subtaskId } from '../../checkpoint/types.ts';
import { DEFAULT_RESTART, restartDelay } from '../restartStrategy.ts';
import { workerCountFor, workerHosting } from './assignment.ts';
import { deploySpec, readSnapshots } from './deploySpec.ts';
import { Deployment } from './deployment.ts';
import type { WorkerSlot } from './deployment.ts';
import { FaultyStore, chaosPlan, estimateSourceRecords } from './faults.ts';
import type { ChaosKill } from './faults.ts';
import type { JobOptions, JobResult, JobStats, Recovery } from './jobOptions.ts';
import { mergeStats, mergeViews, sourceProgress } from './merge.ts';
import { decodeCommits, unpackSnapshot } from './commitWire.ts';
import { portablePlan } from './portablePlan.ts';
import { Publication } from './publication.ts';
import { HeapCheckpointStore } from './heapStore.ts';
import { ChunkRetention } from './chunkRetention.ts';
import type { PortablePlan } from './portablePlan.ts';
import type { HostSnapshot, UdfThrow, WorkerEvent } from './protocol.ts';

type Outcome = { kind: 'finished' } | { kind: 'failed'; reason: string };
const clock = { now: () => Date.now() };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs a job on real workers: compiles the plan, starts one worker per slot through the
 * injected spawn, owns the checkpoint coordinator (real timers), writes snapshots to the store,
 * publishes committed sink epochs exactly once, and on a failure (error event, heartbeat
 * timeout, UDF exception, kill) terminates every worker and redeploys from the latest
 * completed checkpoint, as the restart strategy allows.
 */
export class JobManager {
  readonly plan: JobPlan;
  private readonly portable: PortablePlan;
  readonly workers: number;
  readonly store: FaultyStore;
  private readonly jobId: string;
  private deployment: Deployment | null = null;
  private coordinator: CheckpointCoordinator | null = null;
  private attempt = 0;
  private readonly output: Publication;
  private history: CheckpointRecord[] = [];
  private readonly recoveries: Recovery[] = [];
  private restarts = 0;
  private udfThrows: UdfThrow[] = [];
  private readonly chaos: ChaosKill[];
  private timers: ReturnType<typeof setTimeout>[] = [];
  private fatal: string | null = null;
  private finals = new Map<number, Record<string, Row[]>>();
  private onAllFinished: (() => void) | null = null;
  private onFinals: (() => void) | null = null;
  private lastStats: JobStats | null = null;
  private restoredFinished = false;
  private readonly retention: ChunkRetention;
  /** Checkpoint id → sink epochs its snapshots pre-committed, published when it completes. */
  private preCommitted = new Map<number, { sinkId: string; commits: PendingCommit[] }[]>();

  constructor(
    readonly doc: unknown,
    private readonly opts: JobOptions,
  ) {
    const { plan, problems } = compile(doc);
    if (!plan) throw new Error(`invalid pipeline: ${problems.map((p) => `${p.target ?? '(document)'} ${p.field}: ${p.message}`).join('; ')}`);
    this.plan = plan;
    this.portable = portablePlan(plan);
    this.workers = workerCountFor(this.plan, opts.maxWorkers);
    this.store = new FaultyStore(opts.store ?? new HeapCheckpointStore());
    this.jobId = opts.jobId ?? this.plan.doc.name;
    this.retention = new ChunkRetention(this.store, opts.log);
    const sinks = this.plan.nodes.filter((n) => n.isSink).map((n) => n.id);
    this.output = new Publication(sinks, opts.published ?? [], opts.keepChangelog !== false, opts.onPublish, opts.onDeadLetters);
    const c = opts.chaos;
    this.chaos = c && c.kills > 0 ? chaosPlan(this.plan, c.kills, c.seed, estimateSourceRecords(this.plan, opts.inputs ?? {})) : [];
  }

  async run(): Promise<JobResult> {
    const started = performance.now();
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
      this.restarts++;
      const delay = restartDelay(this.opts.restart ?? DEFAULT_RESTART, this.restarts);
      if (delay === null) return this.result('failed', started, `restart attempts exhausted after: ${outcome.reason}`);
      this.opts.log?.(`restart ${this.restarts} in ${delay} ms after: ${outcome.reason}`);
      failure = { reason: outcome.reason, at: performance.now(), delayMs: delay };
      await sleep(delay);
    }
  }

  private async runAttempt(restore: boolean, failure: { reason: string; at: number; delayMs: number } | null): Promise<Outcome> {
    const attempt = ++this.attempt;
    let settle!: (o: Outcome) => void;
    const outcome = new Promise<Outcome>((r) => (settle = r));
    const dep = new Deployment(this.opts.spawn, this.workers, {
      event: (slot, ev) => this.onEvent(dep, slot, ev),
      failure: (reason) => settle({ kind: 'failed', reason }),
    });
    this.deployment = dep;
    this.onAllFinished = () => settle({ kind: 'finished' });
    this.finals = new Map();
    this.preCommitted = new Map();
    let latest: CheckpointManifest | null = null;
    try {
      latest = restore ? await this.store.latest(this.jobId) : null;
      const snaps = latest ? await readSnapshots(this.store, latest) : null;
      if (latest) this.opts.log?.(`attempt ${attempt}: restoring from checkpoint ${latest.checkpointId}`);
      this.restoredFinished = snaps !== null && Object.values(snaps).every((list) => list.every((s) => s.finished));
      this.coordinator = this.newCoordinator(dep, restore ? await this.store.list(this.jobId) : []);
      const t0 = performance.now();
      const specs = { jobId: this.jobId, plan: this.plan, portable: this.portable, workers: this.workers, opts: this.opts, udfThrows: this.udfThrows };
      await dep.deploy((w) => deploySpec(specs, attempt, w, snaps), this.opts.deployTimeoutMs ?? 60_000);
      this.opts.log?.(`attempt ${attempt}: ${this.workers} workers deployed in ${(performance.now() - t0).toFixed(0)} ms`);
      if (snaps) await this.retention.sweep(dep, this.coordinator.retainedCheckpoints(), snaps);
      if (this.restoredFinished) this.onAllFinished();
      else dep.start(this.opts.heartbeatTimeoutMs ?? 5000);
      // Standby workers for the next restart, warming up while this attempt runs.
      this.opts.prewarm?.(this.workers);
    } catch (e) {
      // A deploy the workers rejected (e.g. a damaged snapshot) will not heal by retrying.
      if (!dep.isFailed) this.fatal = `cannot deploy the job: ${(e as Error).message}`;
      dep.fail((e as Error).message);
    }
    if (failure) this.recoveries.push({ reason: failure.reason, recoveryMs: performance.now() - failure.at, delayMs: failure.delayMs, restoredFrom: latest?.checkpointId ?? null });
    if (!dep.isFailed) this.startTimers(dep);
    let out = await outcome;
    if (out.kind === 'finished') {
      try {
        await this.finishPhase(dep);
      } catch (e) {
        out = { kind: 'failed', reason: (e as Error).message };
      }
    }
    await this.teardown(dep, out.kind === 'failed' ? out.reason : 'job finished', out.kind === 'finished');
    return out;
  }

  private newCoordinator(dep: Deployment, retained: CheckpointManifest[]): CheckpointCoordinator {
    const ids = this.plan.nodes.flatMap((n) => Array.from({ length: n.parallelism }, (_, i) => subtaskId(n.id, i)));
    const parallelism = Object.fromEntries(this.plan.nodes.map((n) => [n.id, n.parallelism]));
    const opts = { retain: this.opts.retain ?? 3, timeoutMs: this.opts.checkpointTimeoutMs ?? 60_000, parallelism };
    return new CheckpointCoordinator(this.jobId, this.store, ids, clock, opts, {
      trigger: (id) => dep.each((api) => api.trigger(id)),
      completed: (id) => {
        this.publishPreCommitted(id);
        dep.each((api) => api.completed(id));
        // The coordinator discards the oldest checkpoint right after this hook: keep the newest `retain`.
        this.retention.collect(dep, this.coordinator?.retainedCheckpoints().slice(-(this.opts.retain ?? 3)) ?? []);
      },
      aborted: (id, reason) => {
        this.preCommitted.delete(id);
        this.opts.log?.(`checkpoint ${id} aborted: ${reason}`);
        if (/storage is full|quota/i.test(reason)) {
          const last = this.coordinator?.latestCompleted()?.checkpointId;
          this.fatal = `checkpoint ${id} failed: ${reason}. The job stopped; ${last ? `checkpoint ${last} is the last good one` : 'no checkpoint had completed'}.`;
          dep.fail(this.fatal);
        }
      },
    }, retained);
  }

  private startTimers(dep: Deployment): void {
    const every = this.opts.checkpointIntervalMs;
    if (every) {
      this.timers.push(setInterval(() => {
        void this.coordinator?.checkTimeout();
        this.coordinator?.trigger();
      }, every));
    }
    const next = this.chaos[0];
    if (next && next.atRecords === Infinity) this.timers.push(setTimeout(() => this.chaosKill(dep), next.atMs));
  }

  private stopTimers(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private onEvent(dep: Deployment, slot: WorkerSlot, ev: WorkerEvent): void {
    if (ev.attempt !== this.attempt) return;
    switch (ev.t) {
      case 'heartbeat':
        slot.sourceOffsets = ev.sourceOffsets;
        if (this.chaos.length && sourceProgress(dep.slots.map((s) => s.sourceOffsets)) >= this.chaos[0].atRecords) this.chaosKill(dep);
        return;
      case 'snapshot':
        return void this.writeSnapshot({ ...ev, snap: unpackSnapshot(ev.snap, ev.commits) });
      case 'declined':
        return void this.coordinator?.decline(ev.id, ev.subtask, ev.reason);
      case 'publish':
        return this.output.commits(ev.sinkId, decodeCommits(ev.commits));
      case 'deadLetters':
        return this.output.deadLetterEpochs(ev.epochs);
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
        if (this.chaos.length) this.chaosKill(dep);
        else this.onAllFinished?.();
        return;
      case 'final':
        this.finals.set(slot.index, ev.views);
        if (this.finals.size === dep.slots.length) this.onFinals?.();
        return;
    }
  }

  private async writeSnapshot(ev: Extract<WorkerEvent, { t: 'snapshot' }>): Promise<void> {
    const coordinator = this.coordinator!;
    const t0 = Date.now();
    try {
      const { ref, bytes } = await this.store.writeSubtask(this.jobId, ev.id, ev.snap);
      if (ev.attempt !== this.attempt) return;
      this.retention.noteSnapshot(ev.id, ev.snap);
      this.notePreCommitted(ev.id, ev.snap);
      const { alignMs, syncMs, buffered } = ev.timing;
      const full = bytes + (ev.keyedBytes?.full ?? 0);
      const written = bytes + (ev.keyedBytes?.written ?? 0);
      await coordinator.acknowledge(ev.id, ev.snap.subtask, ref, { subtask: ev.snap.subtask, alignMs, syncMs, asyncMs: Date.now() - t0, stateBytes: full, writtenBytes: written, bufferedDuringAlignment: buffered });
    } catch (e) {
      await coordinator.decline(ev.id, ev.snap.subtask, `snapshot write failed: ${(e as Error).message}`);
    }
  }

  /**
   * Sink epochs reach the manager inside the snapshot that pre-commits them, so the manager
   * publishes them itself once that checkpoint completes: the output does not cross the port a
   * second time, and becomes visible without a round trip to the sinks' workers. Restores and the
   * job's tail still publish from the workers; Publication drops whatever comes twice.
   */
  private notePreCommitted(id: number, snap: HostSnapshot): void {
    if (!snap.pendingCommits?.length) return;
    let list = this.preCommitted.get(id);
    if (!list) this.preCommitted.set(id, (list = []));
    list.push({ sinkId: parseSubtaskId(snap.subtask).node, commits: snap.pendingCommits });
  }

  private publishPreCommitted(completed: number): void {
    for (const [id, list] of [...this.preCommitted].sort((a, b) => a[0] - b[0])) {
      if (id > completed) continue;
      this.preCommitted.delete(id);
      for (const { sinkId, commits } of list) this.output.commits(sinkId, commits);
    }
  }

  private chaosKill(dep: Deployment): void {
    const k = this.chaos.shift();
    if (!k || dep.isFailed) return;
    this.opts.log?.(`chaos: killing ${k.subtask} (${this.chaos.length} kills left)`);
    this.kill(dep, k.subtask);
  }

  private kill(dep: Deployment, subtask: string): boolean {
    const w = workerHosting(this.plan, subtask, this.workers);
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
      await dep.guard(until(() => !c.isPending()), limit, 'the checkpoint in flight');
      const id = c.trigger();
      if (id !== null) await dep.guard(until(() => c.history().find((r) => r.checkpointId === id)?.status !== 'pending'), limit, 'the final checkpoint');
    }
    await c.stop('job finished');
    this.lastStats = await this.stats().catch(() => null);
    const finals = new Promise<void>((r) => (this.onFinals = r));
    dep.each((api) => api.finishJob());
    await dep.guard(finals, limit, 'collecting the results');
  }

  private async teardown(dep: Deployment, reason: string, recycle = false): Promise<void> {
    this.stopTimers();
    const c = this.coordinator;
    if (c) {
      await c.stop(reason);
      this.history.push(...c.history());
    }
    this.coordinator = null;
    dep.terminate(recycle);
  }

  private result(status: JobResult['status'], started: number, reason?: string): JobResult {
    const views = status === 'finished' ? mergeViews(this.plan, this.finals.values()) : {};
    const { restarts, recoveries, workers } = this;
    return { status, reason, restarts, recoveries, views, changelogs: Object.fromEntries(this.output.changelogs), deadLetters: this.output.deadLetters, checkpoints: this.history, elapsedMs: performance.now() - started, workers, stats: this.lastStats };
  }

  // ---- control: stats and fault injection ----

  async stats(): Promise<JobStats> {
    const dep = this.deployment;
    const base = { workers: this.workers, checkpoints: [...this.history, ...(this.coordinator?.history() ?? [])], restarts: this.restarts, recoveries: [...this.recoveries] };
    if (!dep || dep.isFailed) return { ...base, nodes: {}, edges: [] };
    const all = await dep.guard(Promise.all(dep.slots.map((s) => s.api.stats())), 5000, 'collecting stats');
    return { ...base, ...mergeStats(all) };
  }

  checkpointHistory(): CheckpointRecord[] {
    return [...this.history, ...(this.coordinator?.history() ?? [])];
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
    const w = workerHosting(this.plan, subtaskId(node, index), this.workers);
    if (w !== null) void this.deployment?.slots[w]?.api.throwInUdfAt(t);
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

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await sleep(2);
}
