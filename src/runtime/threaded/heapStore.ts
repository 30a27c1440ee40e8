import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../../checkpoint/types.ts';
import { approxSize } from '../../state/size.ts';

/**
 * The job manager's default store: checkpoints on its heap, kept as they arrived. A snapshot
 * reaches the manager as a structured clone that nobody else holds, and goes back to workers as
 * another clone, so copying it again (and serializing it to count bytes, as the reference
 * MemoryCheckpointStore does) only doubled the cost of every checkpoint. Sizes are estimates.
 */
export class HeapCheckpointStore implements CheckpointStore {
  private readonly snaps = new Map<string, SubtaskSnapshot>();
  private readonly manifests = new Map<string, CheckpointManifest[]>();

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    const ref = `${jobId}/${checkpointId}/${snap.subtask}`;
    this.snaps.set(ref, snap);
    return { ref, bytes: approxSize(snap) };
  }

  async commit(manifest: CheckpointManifest): Promise<void> {
    const list = (this.manifests.get(manifest.jobId) ?? []).filter((m) => m.checkpointId !== manifest.checkpointId);
    this.manifests.set(manifest.jobId, [...list, manifest].sort((a, b) => a.checkpointId - b.checkpointId));
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
    return s;
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
