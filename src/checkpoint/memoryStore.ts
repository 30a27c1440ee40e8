import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from './types.ts';

/** Keeps checkpoints on the heap as structured clones; the reference store for tests and the memory backend. */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly blobs = new Map<string, SubtaskSnapshot>();
  private readonly manifests = new Map<string, CheckpointManifest[]>();
  /** Set to make the next write fail, for fault injection. */
  failNextWrite: string | null = null;

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    if (this.failNextWrite) {
      const reason = this.failNextWrite;
      this.failNextWrite = null;
      throw new Error(reason);
    }
    const ref = `${jobId}/${checkpointId}/${snap.subtask}`;
    const copy = structuredClone(snap);
    this.blobs.set(ref, copy);
    return { ref, bytes: JSON.stringify(copy, (_k, v) => (v instanceof Map ? [...v] : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : v)).length };
  }

  async commit(manifest: CheckpointManifest): Promise<void> {
    const list = this.manifests.get(manifest.jobId) ?? [];
    this.manifests.set(manifest.jobId, [...list.filter((m) => m.checkpointId !== manifest.checkpointId), structuredClone(manifest)].sort((a, b) => a.checkpointId - b.checkpointId));
  }

  async latest(jobId: string): Promise<CheckpointManifest | null> {
    return this.manifests.get(jobId)?.at(-1) ?? null;
  }

  async list(jobId: string): Promise<CheckpointManifest[]> {
    return [...(this.manifests.get(jobId) ?? [])];
  }

  async readSubtask(ref: string): Promise<SubtaskSnapshot> {
    const s = this.blobs.get(ref);
    if (!s) throw new Error(`checkpoint data ${ref} is missing`);
    return structuredClone(s);
  }

  async discard(jobId: string, checkpointId: number): Promise<void> {
    this.manifests.set(jobId, (this.manifests.get(jobId) ?? []).filter((m) => m.checkpointId !== checkpointId));
    await this.abort(jobId, checkpointId);
  }

  async abort(jobId: string, checkpointId: number): Promise<void> {
    const prefix = `${jobId}/${checkpointId}/`;
    for (const k of [...this.blobs.keys()]) if (k.startsWith(prefix)) this.blobs.delete(k);
  }
}
