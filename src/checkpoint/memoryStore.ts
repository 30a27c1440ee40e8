import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from './types.ts';
import type { KeyedStateSnapshot } from '../state/backend.ts';
import { approxSnapshotSize } from './snapshotSize.ts';

export interface MemoryStoreOptions {
  /**
   * 'clone' (default): snapshots are copied in and out, so a writer or reader that keeps using
   * its object cannot change what is stored. 'handover': the writer hands over a snapshot it no
   * longer changes, so copying it again only doubles the cost of every checkpoint: the job
   * master receives structured clones from workers, and an in-process subtask's snapshot is
   * made fresh except for parts nobody mutates once made (the heap backend's copy-on-write
   * snapshot cells, timer entries, emitted elements). Readers still get an envelope of their
   * own (see `readerCopy`).
   */
  ownership?: 'clone' | 'handover';
}

/**
 * Checkpoints on the heap: the in-memory store of every transport. Sizes are estimates
 * (approxSnapshotSize): serializing each snapshot to count its bytes cost as much as the copy.
 */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly snaps = new Map<string, SubtaskSnapshot>();
  private readonly manifests = new Map<string, CheckpointManifest[]>();
  private readonly copy: <T>(v: T) => T;
  /** Set to make the next write fail, for fault injection. */
  failNextWrite: string | null = null;

  /**
   * Copies of snapshot parts a later snapshot hands over again: the memory backend gives a key
   * that did not change since the last checkpoint the same snapshot cell, timers that did not
   * change are the same objects, and an append log hands over its sealed chunks (none of them is
   * ever mutated once made), so storing a checkpoint copies what changed, not the whole state again.
   */
  private readonly partCopies = new WeakMap<object, unknown>();
  private readonly handover: boolean;

  constructor(opts: MemoryStoreOptions = {}) {
    this.handover = opts.ownership === 'handover';
    this.copy = this.handover ? (v) => v : (v) => structuredClone(v);
  }

  private copyPart<T extends object>(part: T): T {
    let c = this.partCopies.get(part) as T | undefined;
    if (c === undefined) this.partCopies.set(part, (c = structuredClone(part)));
    return c;
  }

  /** A stored copy of a snapshot: everything cloned, the keyed cells, timers and sealed log chunks through `copyPart`. */
  private copyIn(snap: SubtaskSnapshot): SubtaskSnapshot {
    if (this.handover) return snap;
    const { keyed, timers, operator, ...rest } = snap;
    const { logs, ...lists } = operator;
    const out = structuredClone(rest) as SubtaskSnapshot;
    out.operator = structuredClone(lists);
    // A log's sealed chunks come again, unchanged, in every later snapshot: each is copied once.
    if (logs) out.operator.logs = Object.fromEntries(Object.entries(logs).map(([n, chunks]) => [n, chunks.map((c) => this.copyPart(c))]));
    out.timers = timers.map((t) => this.copyPart(t));
    if (keyed.type !== 'inline') out.keyed = structuredClone(keyed);
    else {
      const groups: KeyedStateSnapshot['keyGroups'] = {};
      for (const [g, cells] of Object.entries(keyed.snapshot.keyGroups)) groups[Number(g)] = cells.map((c) => this.copyPart(c));
      out.keyed = { type: 'inline', snapshot: { maxParallelism: keyed.snapshot.maxParallelism, keyGroups: groups } };
    }
    return out;
  }

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    if (this.failNextWrite) {
      const reason = this.failNextWrite;
      this.failNextWrite = null;
      throw new Error(reason);
    }
    const ref = `${jobId}/${checkpointId}/${snap.subtask}`;
    const stored = this.copyIn(snap);
    this.snaps.set(ref, stored);
    return { ref, bytes: approxSnapshotSize(stored) };
  }

  async commit(manifest: CheckpointManifest): Promise<void> {
    const list = (this.manifests.get(manifest.jobId) ?? []).filter((m) => m.checkpointId !== manifest.checkpointId);
    this.manifests.set(manifest.jobId, [...list, this.copy(manifest)].sort((a, b) => a.checkpointId - b.checkpointId));
  }

  async latest(jobId: string): Promise<CheckpointManifest | null> {
    return this.manifests.get(jobId)?.at(-1) ?? null;
  }

  async list(jobId: string): Promise<CheckpointManifest[]> {
    return [...(this.manifests.get(jobId) ?? [])];
  }

  async readSubtask(ref: string): Promise<SubtaskSnapshot> {
    const s = this.snaps.get(ref);
    if (!s) throw new Error(`checkpoint data ${ref} is missing`);
    return this.handover ? readerCopy(s) : structuredClone(s);
  }

  async discard(jobId: string, checkpointId: number): Promise<void> {
    this.manifests.set(jobId, (this.manifests.get(jobId) ?? []).filter((m) => m.checkpointId !== checkpointId));
    await this.abort(jobId, checkpointId);
  }

  async abort(jobId: string, checkpointId: number): Promise<void> {
    const prefix = `${jobId}/${checkpointId}/`;
    for (const k of [...this.snaps.keys()]) if (k.startsWith(prefix)) this.snaps.delete(k);
  }
}

/**
 * What a reader of a handed-over snapshot gets: every object and array of its own, so changing
 * one cannot change the stored checkpoint, except the parts nobody mutates once made, which stay
 * shared: keyed snapshot cells (a heap backend restores them copy-on-write), timer entries (a
 * timer service registers copies), append-log chunks, and emitted elements. Copying those was most of what a
 * restore cost.
 */
function readerCopy(s: SubtaskSnapshot): SubtaskSnapshot {
  const { keyed, timers, pendingCommits, deadLetterEpochs, operator, ...rest } = s;
  const { logs, ...lists } = operator;
  const out = structuredClone(rest) as SubtaskSnapshot;
  out.operator = structuredClone(lists);
  // Log chunks are never mutated once in a snapshot (a restored log treats them as sealed): shared.
  if (logs) out.operator.logs = Object.fromEntries(Object.entries(logs).map(([n, chunks]) => [n, [...chunks]]));
  out.timers = [...timers];
  if (keyed.type !== 'inline') out.keyed = structuredClone(keyed);
  else {
    const groups: KeyedStateSnapshot['keyGroups'] = {};
    for (const [g, cells] of Object.entries(keyed.snapshot.keyGroups)) groups[Number(g)] = [...cells];
    out.keyed = { type: 'inline', snapshot: { maxParallelism: keyed.snapshot.maxParallelism, keyGroups: groups } };
  }
  if (pendingCommits) out.pendingCommits = pendingCommits.map((c) => ({ ...c, els: [...c.els] }));
  if (deadLetterEpochs) out.deadLetterEpochs = deadLetterEpochs.map((e) => ({ ...e, items: [...e.items] }));
  return out;
}
