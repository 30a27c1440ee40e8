import type { Clock } from '../core/clock.ts';
import type { CheckpointManifest, CheckpointRecord, CheckpointStore, OperatorCheckpointStats, SubtaskId } from './types.ts';

export interface CoordinatorHooks {
  /** Ask every source subtask to inject barrier `id` (finished subtasks snapshot at once). */
  trigger(id: number): void;
  /** The checkpoint is durable: sinks may commit what they buffered up to it. */
  completed(id: number): void;
  aborted(id: number, reason: string): void;
}

export interface CoordinatorOptions {
  retain: number;
  timeoutMs: number;
  parallelism: Record<string, number>;
  /** The lowest id this coordinator may give: ids never repeat within a job, across restores too. */
  firstId?: number;
}

interface Pending {
  id: number;
  triggeredAt: number;
  awaiting: Set<SubtaskId>;
  refs: Record<SubtaskId, string>;
  stats: OperatorCheckpointStats[];
  committing: boolean;
}

/**
 * Triggers checkpoints, collects acknowledgements and commits the manifest. One checkpoint
 * is in flight at a time; a checkpoint is complete only once its manifest is durably committed.
 */
export class CheckpointCoordinator {
  private nextId: number;
  private pending: Pending | null = null;
  private readonly records: CheckpointRecord[] = [];
  private retained: CheckpointManifest[] = [];
  private stopped = false;

  constructor(
    private readonly jobId: string,
    private readonly store: CheckpointStore,
    private readonly subtasks: readonly SubtaskId[],
    private readonly clock: Clock,
    private readonly opts: CoordinatorOptions,
    private readonly hooks: CoordinatorHooks,
    restored: CheckpointManifest[] = [],
  ) {
    this.retained = [...restored];
    this.nextId = Math.max(opts.firstId ?? 1, (restored.at(-1)?.checkpointId ?? 0) + 1);
  }

  isPending(): boolean {
    return this.pending !== null;
  }

  /** The checkpoint in flight (its record is the one whose status is pending), or null. */
  pendingId(): number | null {
    return this.pending?.id ?? null;
  }

  trigger(): number | null {
    if (this.pending || this.stopped) return null;
    const id = this.nextId++;
    this.pending = { id, triggeredAt: this.clock.now(), awaiting: new Set(this.subtasks), refs: {}, stats: [], committing: false };
    this.records.push({ checkpointId: id, status: 'pending', triggeredAt: this.clock.now(), completedAt: null, stats: [], fullBytes: 0, incrementalBytes: 0 });
    this.hooks.trigger(id);
    return id;
  }

  /** A subtask's snapshot is written; when the last one arrives the manifest is committed. */
  async acknowledge(id: number, subtask: SubtaskId, ref: string, stats: OperatorCheckpointStats): Promise<void> {
    const p = this.pending;
    if (!p || p.id !== id || !p.awaiting.has(subtask)) return;
    p.awaiting.delete(subtask);
    p.refs[subtask] = ref;
    p.stats.push(stats);
    this.record(id).stats = [...p.stats];
    if (p.awaiting.size > 0 || p.committing) return;
    p.committing = true;
    const manifest: CheckpointManifest = {
      jobId: this.jobId,
      checkpointId: id,
      triggeredAt: p.triggeredAt,
      completedAt: this.clock.now(),
      subtasks: p.refs,
      parallelism: this.opts.parallelism,
      stats: p.stats,
      fullBytes: p.stats.reduce((s, x) => s + x.stateBytes, 0),
      incrementalBytes: p.stats.reduce((s, x) => s + x.writtenBytes, 0),
    };
    try {
      await this.store.commit(manifest);
    } catch (e) {
      if (this.pending?.id === id) await this.abort(`manifest commit failed: ${(e as Error).message}`);
      return;
    }
    if (this.pending?.id !== id) return; // aborted while committing
    this.pending = null;
    Object.assign(this.record(id), { status: 'completed', completedAt: manifest.completedAt, fullBytes: manifest.fullBytes, incrementalBytes: manifest.incrementalBytes });
    this.retained.push(manifest);
    this.hooks.completed(id);
    while (this.retained.length > this.opts.retain) {
      const old = this.retained.shift()!;
      await this.store.discard(this.jobId, old.checkpointId).catch(() => undefined);
    }
  }

  async decline(id: number, subtask: SubtaskId, reason: string): Promise<void> {
    if (this.pending?.id === id) await this.abort(`${subtask}: ${reason}`);
  }

  /** Aborts the pending checkpoint if it has run longer than the timeout. */
  async checkTimeout(): Promise<void> {
    const p = this.pending;
    if (p && !p.committing && this.clock.now() - p.triggeredAt > this.opts.timeoutMs) await this.abort(`timed out after ${this.opts.timeoutMs} ms`);
  }

  async abort(reason: string): Promise<void> {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    Object.assign(this.record(p.id), { status: 'aborted', reason, completedAt: this.clock.now() });
    this.hooks.aborted(p.id, reason);
    await this.store.abort(this.jobId, p.id).catch(() => undefined);
  }

  /** Stops triggering (job finished or failed) and aborts what is in flight. */
  async stop(reason: string): Promise<void> {
    this.stopped = true;
    await this.abort(reason);
  }

  latestCompleted(): CheckpointManifest | null {
    return this.retained.at(-1) ?? null;
  }

  retainedCheckpoints(): CheckpointManifest[] {
    return [...this.retained];
  }

  history(): CheckpointRecord[] {
    return this.records.map((r) => ({ ...r, stats: [...r.stats] }));
  }

  private record(id: number): CheckpointRecord {
    return this.records.find((r) => r.checkpointId === id)!;
  }
}
