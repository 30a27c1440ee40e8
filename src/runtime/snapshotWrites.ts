import type { PersistResult } from '../state/backend.ts';
import type { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import type { JobMaster } from './jobMaster.ts';

/** One subtask's snapshot between its synchronous copy and its acknowledgement. */
export interface SnapshotWrite {
  attempt: number;
  id: number;
  snap: SubtaskSnapshot;
  timing: { alignMs: number; syncMs: number; buffered: number };
  takenAt: number;
  /** A durable backend still writing the keyed state; its handle goes into `snap.keyed`. */
  keyedWrite?: Promise<PersistResult>;
}

/**
 * The asynchronous part of the in-process cluster's snapshots: taken snapshots wait here and
 * complete when the scheduler says (after a seeded delay, so kills can land while writes are in
 * flight), then go to the job master, which stores and acknowledges them. A write of an
 * attempt that has since been killed completes as nothing.
 */
export class SnapshotWrites {
  private queue: SnapshotWrite[] = [];

  constructor(
    private readonly master: JobMaster,
    /** The cluster's current attempt and coordinator, read when a write completes. */
    private readonly attempt: () => number,
    private readonly coordinator: () => CheckpointCoordinator,
  ) {}

  get length(): number {
    return this.queue.length;
  }

  push(w: SnapshotWrite): void {
    this.queue.push(w);
  }

  /** A new attempt: the old attempt's writes are dropped. */
  clear(): void {
    this.queue = [];
  }

  /** Completes the oldest write. */
  completeNext(): Promise<void> {
    return this.complete(this.queue.shift()!);
  }

  /** Lets in-flight snapshot writes finish so the history is complete. */
  async completeAll(): Promise<void> {
    while (this.queue.length) await this.completeNext();
  }

  private async complete(w: SnapshotWrite): Promise<void> {
    if (w.attempt !== this.attempt()) return;
    let keyedBytes: { full: number; written: number } | null = null;
    if (w.keyedWrite) {
      try {
        const persisted = await w.keyedWrite;
        w.snap.keyed = persisted.handle;
        keyedBytes = { full: persisted.fullBytes, written: persisted.writtenBytes };
      } catch (e) {
        await this.coordinator().decline(w.id, w.snap.subtask, `writing keyed state failed: ${(e as Error).message}`);
        return;
      }
    }
    // The asynchronous phase runs from the synchronous copy to the acknowledgement, waiting included.
    await this.master.writeSnapshot(w.id, w.snap, w.timing, keyedBytes, () => w.attempt !== this.attempt(), undefined, w.takenAt);
  }
}
