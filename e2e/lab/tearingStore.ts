import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../../src/checkpoint/types.ts';

export interface TornWrite {
  checkpointId: number;
  /** The subtask whose snapshot had just been written when the kill came. */
  subtask: string;
  /** The latest committed checkpoint right after the kill: must be older than `checkpointId`. */
  latestAfterKill: number | null;
}

/**
 * A checkpoint store that, once armed, tears the next checkpoint: the first subtask snapshot of
 * it is really written, then `kill` runs (a real worker.terminate()) while the other subtasks are
 * still persisting theirs, so the checkpoint has data in IndexedDB but no manifest.
 */
export class TearingStore implements CheckpointStore {
  private armed: (() => void) | null = null;
  torn: TornWrite | null = null;

  constructor(readonly inner: CheckpointStore & { close?: () => Promise<void> }) {}

  tearNext(kill: () => void): void {
    this.armed = kill;
  }

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    const written = await this.inner.writeSubtask(jobId, checkpointId, snap);
    const kill = this.armed;
    if (kill) {
      this.armed = null;
      kill();
      this.torn = { checkpointId, subtask: snap.subtask, latestAfterKill: (await this.inner.latest(jobId))?.checkpointId ?? null };
    }
    return written;
  }

  commit = (m: CheckpointManifest) => this.inner.commit(m);
  latest = (jobId: string) => this.inner.latest(jobId);
  list = (jobId: string) => this.inner.list(jobId);
  readSubtask = (ref: string) => this.inner.readSubtask(ref);
  discard = (jobId: string, id: number) => this.inner.discard(jobId, id);
  abort = (jobId: string, id: number) => this.inner.abort(jobId, id);
  close = async () => this.inner.close?.();
}
