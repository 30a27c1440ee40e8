import type { DeadLetter, Element, Row } from '../core/types.ts';
import type { Clock } from '../core/clock.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import type { CoordinatorHooks } from '../checkpoint/coordinator.ts';
import type { CheckpointManifest, CheckpointRecord, CheckpointStore, DeadLetterEpoch, PendingCommit, SubtaskSnapshot } from '../checkpoint/types.ts';
import { parseSubtaskId, subtaskId } from '../checkpoint/types.ts';
import { compareRows } from '../engine/operators/changelogTable.ts';
import { sinkPrimaryKey } from '../engine/operators/sinks.ts';
import { Publication } from './publication.ts';
import { DEFAULT_RESTART, restartDelay } from './restartStrategy.ts';
import type { RestartStrategy } from './restartStrategy.ts';
import { chainedRestore } from './chaining.ts';

/**
 * Time for the job master: a clock and timers, injected. Wall-clock timers for real threads
 * (runtime/threaded/wallClock.ts), a manual clock stepped by the in-process scheduler, so the
 * same master runs deterministically under tests, stepping and time travel.
 */
export interface TimerService extends Clock {
  /** Calls `cb` every `ms`; returns the cancel function. */
  every(ms: number, cb: () => void): () => void;
  /** Calls `cb` once after `ms`; returns the cancel function. */
  after(ms: number, cb: () => void): () => void;
  sleep(ms: number): Promise<void>;
}

export interface JobMasterOptions {
  jobId: string;
  store: CheckpointStore;
  clock: Clock;
  retain?: number;
  checkpointTimeoutMs?: number;
  restart?: RestartStrategy;
  /** `origin@epoch` keys an earlier process already published (resume). */
  published?: Iterable<string>;
  keepChangelog?: boolean;
  onPublish?: (sinkId: string, commit: PendingCommit) => void;
  onDeadLetters?: (epoch: DeadLetterEpoch) => void;
}

export interface SnapshotTiming {
  alignMs: number;
  syncMs: number;
  buffered: number;
}

/**
 * The transport-independent half of running a job (Flink's JobMaster): one checkpoint
 * coordinator per attempt, snapshot writes and acknowledgements, exactly-once publication of
 * sink epochs and dead letters (both taken from the snapshots that pre-committed them), restore
 * from the store, the restart strategy, the merge of sink views. A transport (in-process,
 * worker_threads, Web Workers) deploys subtasks and moves their messages; it never publishes.
 */
export class JobMaster {
  readonly output: Publication;
  private coordinator: CheckpointCoordinator | null = null;
  private history: CheckpointRecord[] = [];
  /** The highest checkpoint id triggered or stored so far: the next attempt's ids start above it. */
  private lastId = 0;
  /**
   * Checkpoints after the one a travel back restored: they belong to a run that no longer happens,
   * so neither a later failure nor the next attempt's retention may restore them.
   */
  private readonly abandoned = new Set<number>();
  /** Checkpoint id → epochs its snapshots pre-committed, published when it completes. */
  private preCommitted = new Map<number, { sinkId: string; commits: PendingCommit[]; deadLetters: DeadLetterEpoch[] }[]>();
  private attempt = 0;
  restarts = 0;

  constructor(
    readonly plan: JobPlan,
    private readonly opts: JobMasterOptions,
  ) {
    const sinks = plan.nodes.filter((n) => n.isSink).map((n) => n.id);
    this.output = new Publication(sinks, opts.published ?? [], opts.keepChangelog !== false, opts.onPublish, opts.onDeadLetters);
  }

  get jobId(): string {
    return this.opts.jobId;
  }

  get store(): CheckpointStore {
    return this.opts.store;
  }

  currentCoordinator(): CheckpointCoordinator | null {
    return this.coordinator;
  }

  /**
   * The checkpoint an attempt restores: the latest retained one, or `checkpointId` (time travel).
   * Its snapshots come back grouped by node (a rescaled node needs every old subtask's), and what
   * they pre-committed but perhaps never published goes out now, once. `chained`: the views
   * that run chained in the new attempt.
   */
  async restorePoint(checkpointId?: number, chained: ReadonlySet<string> = new Set()): Promise<{ manifest: CheckpointManifest | null; snaps: Record<string, SubtaskSnapshot[]> | null; retained: CheckpointManifest[] }> {
    const stored = await this.store.list(this.jobId);
    for (const m of stored) this.lastId = Math.max(this.lastId, m.checkpointId);
    const live = (m: CheckpointManifest) => !this.abandoned.has(m.checkpointId);
    // A travel may go to any stored checkpoint, forward too; a restore after a failure takes the
    // latest of the run that is happening now.
    const manifest = checkpointId === undefined ? (stored.filter(live).at(-1) ?? null) : (stored.find((m) => m.checkpointId === checkpointId) ?? null);
    if (checkpointId !== undefined && !manifest) throw new Error(`checkpoint ${checkpointId} is not retained`);
    if (!manifest) return { manifest: null, snaps: null, retained: [] };
    if (checkpointId !== undefined) {
      this.abandoned.delete(checkpointId);
      for (const m of stored) if (m.checkpointId > checkpointId) this.abandoned.add(m.checkpointId);
    }
    const snaps = await readSnapshots(this.store, manifest);
    this.publishFrom(Object.values(snaps).flat());
    // Views chained now or when the checkpoint was taken: see chaining.ts.
    return { manifest, snaps: chainedRestore(this.plan, snaps, chained), retained: stored.filter((m) => live(m) && m.checkpointId <= manifest.checkpointId) };
  }

  /** Starts an attempt: a fresh coordinator over every subtask of the plan. Hooks say what the transport does. */
  beginAttempt(retained: CheckpointManifest[], hooks: CoordinatorHooks): CheckpointCoordinator {
    this.endAttemptHistory();
    this.attempt++;
    this.preCommitted = new Map();
    const ids = this.plan.nodes.flatMap((n) => Array.from({ length: n.parallelism }, (_, i) => subtaskId(n.id, i)));
    const parallelism = Object.fromEntries(this.plan.nodes.map((n) => [n.id, n.parallelism]));
    const copts = { retain: this.opts.retain ?? 3, timeoutMs: this.opts.checkpointTimeoutMs ?? 60_000, parallelism, firstId: this.lastId + 1 };
    const coordinator = new CheckpointCoordinator(this.jobId, this.store, ids, this.opts.clock, copts, {
      trigger: (id) => {
        this.lastId = Math.max(this.lastId, id);
        hooks.trigger(id);
      },
      completed: (id) => {
        this.publishPreCommitted(id);
        hooks.completed(id);
      },
      aborted: (id, reason) => {
        this.preCommitted.delete(id);
        hooks.aborted(id, reason);
      },
    }, retained);
    this.coordinator = coordinator;
    return coordinator;
  }

  /** Stops the attempt's coordinator (aborting what is in flight) and keeps its history. */
  async endAttempt(reason: string): Promise<void> {
    const c = this.coordinator;
    if (!c) return;
    await c.stop(reason);
    this.endAttemptHistory();
  }

  private endAttemptHistory(): void {
    if (!this.coordinator) return;
    this.history.push(...this.coordinator.history());
    this.coordinator = null;
  }

  /**
   * Writes one subtask's snapshot and acknowledges it; a failed write declines the checkpoint.
   * `stale` says whether the attempt that took it is gone by the time the write returns.
   */
  async writeSnapshot(id: number, snap: SubtaskSnapshot, timing: SnapshotTiming, keyedBytes: { full: number; written: number } | null, stale: () => boolean, written?: (snap: SubtaskSnapshot) => void, takenAt?: number): Promise<void> {
    const coordinator = this.coordinator;
    if (!coordinator) return;
    const t0 = takenAt ?? this.opts.clock.now();
    try {
      const { ref, bytes } = await this.store.writeSubtask(this.jobId, id, snap);
      if (stale()) return;
      written?.(snap);
      this.notePreCommitted(id, snap);
      await coordinator.acknowledge(id, snap.subtask, ref, {
        subtask: snap.subtask,
        alignMs: timing.alignMs,
        syncMs: timing.syncMs,
        asyncMs: this.opts.clock.now() - t0,
        stateBytes: bytes + (keyedBytes?.full ?? 0),
        writtenBytes: bytes + (keyedBytes?.written ?? 0),
        bufferedDuringAlignment: timing.buffered,
      });
    } catch (e) {
      await coordinator.decline(id, snap.subtask, `snapshot write failed: ${(e as Error).message}`);
    }
  }

  /** The delay before the next restart, or null when the strategy gives up. */
  nextRestart(): number | null {
    this.restarts++;
    return restartDelay(this.opts.restart ?? DEFAULT_RESTART, this.restarts);
  }

  checkpointHistory(): CheckpointRecord[] {
    return [...this.history, ...(this.coordinator?.history() ?? [])];
  }

  /** The sink tail and dead letters after the last barrier, and whatever a transport publishes directly. */
  publish(sinkId: string, commits: readonly PendingCommit[]): void {
    this.output.commits(sinkId, commits);
  }

  publishDeadLetters(epochs: readonly DeadLetterEpoch[]): void {
    this.output.deadLetterEpochs(epochs);
  }

  changelogs(): Record<string, Element[]> {
    return Object.fromEntries(this.output.changelogs);
  }

  deadLetters(): DeadLetter[] {
    return this.output.deadLetters;
  }

  /**
   * Sink epochs and dead-letter epochs reach the master inside the snapshot that pre-commits
   * them, so it publishes them itself once that checkpoint completes: the output does not cross
   * a port a second time, and every transport publishes the same way.
   */
  private notePreCommitted(id: number, snap: SubtaskSnapshot): void {
    if (!snap.pendingCommits?.length && !snap.deadLetterEpochs?.length) return;
    let list = this.preCommitted.get(id);
    if (!list) this.preCommitted.set(id, (list = []));
    list.push({ sinkId: parseSubtaskId(snap.subtask).node, commits: snap.pendingCommits ?? [], deadLetters: snap.deadLetterEpochs ?? [] });
  }

  private publishPreCommitted(completed: number): void {
    for (const [id, list] of [...this.preCommitted].sort((a, b) => a[0] - b[0])) {
      if (id > completed) continue;
      this.preCommitted.delete(id);
      for (const { sinkId, commits, deadLetters } of list) {
        if (commits.length) this.output.commits(sinkId, commits);
        if (deadLetters.length) this.output.deadLetterEpochs(deadLetters);
      }
    }
  }

  private publishFrom(snaps: readonly SubtaskSnapshot[]): void {
    for (const s of snaps) {
      if (s.pendingCommits?.length) this.output.commits(parseSubtaskId(s.subtask).node, s.pendingCommits);
      if (s.deadLetterEpochs?.length) this.output.deadLetterEpochs(s.deadLetterEpochs);
    }
  }
}

/** Every subtask snapshot of a checkpoint, grouped by node (a rescaled node needs all of them). */
export async function readSnapshots(store: CheckpointStore, m: CheckpointManifest): Promise<Record<string, SubtaskSnapshot[]>> {
  const out: Record<string, SubtaskSnapshot[]> = {};
  for (const ref of Object.values(m.subtasks)) {
    const s = await store.readSubtask(ref);
    (out[parseSubtaskId(s.subtask).node] ??= []).push(s);
  }
  return out;
}

/** Every sink's table from the parts its subtasks hold, sorted by primary key as one subtask's table is. */
export function mergeViews(plan: JobPlan, parts: Iterable<Record<string, Row[]>>): Record<string, Row[]> {
  const views: Record<string, Row[]> = {};
  const count: Record<string, number> = {};
  for (const n of plan.nodes) if (n.isSink) views[n.id] = [];
  for (const p of parts) {
    for (const [id, rows] of Object.entries(p)) {
      if (!views[id]) continue;
      count[id] = (count[id] ?? 0) + 1;
      if (count[id] === 1) views[id] = rows;
      else for (const r of rows) views[id].push(r);
    }
  }
  for (const n of plan.nodes) {
    if (!n.isSink) continue;
    // One part is already in its table's order; several are sorted as that one table would be.
    if (count[n.id] === 1) continue;
    const pk = sinkPrimaryKey(n.kind, n.params as { primaryKey?: string[] }, n.inputs);
    views[n.id].sort((a, b) => compareRows(a, b, pk && pk.length ? pk : Object.keys(a)));
  }
  return views;
}
