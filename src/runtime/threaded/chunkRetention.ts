import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import type { Deployment } from './deployment.ts';

type HandlesByNode = Record<string, KeyedStateHandle[]>;

const nodeOf = (subtask: string) => subtask.slice(0, subtask.lastIndexOf('#'));

/**
 * The chunk handles of each retained checkpoint, so the manager can tell durable backends which
 * chunks must survive after a checkpoint completes. Handles of checkpoints written by this run
 * are remembered as their snapshots go by; those of checkpoints restored from the store (a
 * restart or `--resume`) are read back once.
 */
export class ChunkRetention {
  private readonly byCheckpoint = new Map<number, HandlesByNode>();
  private readonly pending = new Map<number, HandlesByNode>();
  /**
   * One collection at a time. A checkpoint completing during one is collected right after it (the
   * latest such request wins): waiting for the next checkpoint instead left a busy machine's
   * garbage growing with each checkpoint that completed during a collection, and a finished job's
   * last checkpoints uncollected.
   */
  private collecting: Promise<void> | null = null;
  private queued: { dep: Deployment; manifests: readonly CheckpointManifest[] } | null = null;
  /** Whether this job writes chunk handles at all: inline-only jobs (memory, Node) never read snapshots back. */
  private chunked = false;

  constructor(
    private readonly store: CheckpointStore,
    private readonly log?: (line: string) => void,
  ) {}

  /**
   * After a completed checkpoint: durable backends compact long chunk chains, then delete
   * chunks no retained checkpoint refers to, so storage stays bounded over a long run. A
   * failed collection only leaves garbage for the next one.
   */
  collect(dep: Deployment, manifests: readonly CheckpointManifest[]): void {
    if (dep.isFailed) return;
    if (this.collecting) {
      this.queued = { dep, manifests };
      return;
    }
    this.collecting = (async () => {
      const handles = await this.retained(manifests);
      if (!handles || dep.isFailed) return;
      await dep.guard(Promise.all(dep.slots.map((s) => s.api.retainOnly(handles))), 60_000, 'collecting state chunks');
    })()
      .catch((e: unknown) => this.log?.(`state chunk collection skipped: ${(e as Error)?.message ?? String(e)}`))
      .finally(() => {
        this.collecting = null;
        const next = this.queued;
        this.queued = null;
        if (next) this.collect(next.dep, next.manifests);
      });
  }

  /** Resolves when no collection runs or waits: a finished job ends with its storage collected. */
  async settled(): Promise<void> {
    while (this.collecting) await this.collecting;
  }

  /** At recovery, before the job starts: chunks a killed attempt was writing are referenced by no checkpoint; one worker deletes them. */
  async sweep(dep: Deployment, manifests: readonly CheckpointManifest[], restored: Record<string, readonly SubtaskSnapshot[]>): Promise<void> {
    if (!Object.values(restored).some((list) => list.some((s) => s.keyed.type === 'chunks'))) return;
    this.chunked = true;
    const byNode = await this.retained(manifests);
    if (!byNode) return;
    const deleted = await dep.guard(dep.slots[0].api.sweepChunks(Object.values(byNode).flat()), 60_000, 'sweeping state chunks');
    if (deleted) this.log?.(`deleted ${deleted} state chunks no retained checkpoint refers to`);
  }

  /** A subtask snapshot was written for `checkpointId` (not committed yet). */
  noteSnapshot(checkpointId: number, snap: SubtaskSnapshot): void {
    if (snap.keyed.type !== 'chunks') return;
    this.chunked = true;
    let byNode = this.pending.get(checkpointId);
    if (!byNode) this.pending.set(checkpointId, (byNode = {}));
    (byNode[nodeOf(snap.subtask)] ??= []).push(snap.keyed);
  }

  /**
   * Every chunk handle of the retained checkpoints, per node; null when none of them has one
   * (memory backend, inline snapshots): nothing to collect.
   */
  async retained(manifests: readonly CheckpointManifest[]): Promise<HandlesByNode | null> {
    if (!this.chunked) return null;
    const keep = new Set(manifests.map((m) => m.checkpointId));
    for (const m of manifests) {
      if (this.byCheckpoint.has(m.checkpointId)) continue;
      const noted = this.pending.get(m.checkpointId);
      this.byCheckpoint.set(m.checkpointId, noted ?? (await this.readBack(m)));
    }
    // Aborted checkpoints' handles and those of discarded checkpoints are forgotten.
    for (const id of this.pending.keys()) if (id <= Math.max(...keep)) this.pending.delete(id);
    for (const id of this.byCheckpoint.keys()) if (!keep.has(id)) this.byCheckpoint.delete(id);
    const out: HandlesByNode = {};
    let any = false;
    for (const id of keep) {
      for (const [node, handles] of Object.entries(this.byCheckpoint.get(id) ?? {})) {
        (out[node] ??= []).push(...handles);
        any ||= handles.length > 0;
      }
    }
    return any ? out : null;
  }

  private async readBack(m: CheckpointManifest): Promise<HandlesByNode> {
    const out: HandlesByNode = {};
    for (const [subtask, ref] of Object.entries(m.subtasks)) {
      const snap = await this.store.readSubtask(ref);
      if (snap.keyed.type === 'chunks') (out[nodeOf(subtask)] ??= []).push(snap.keyed);
    }
    return out;
  }
}
