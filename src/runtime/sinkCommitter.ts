import type { Element } from '../engine/types.ts';
import type { PendingCommit } from '../checkpoint/types.ts';

/**
 * Two-phase commit for sink output: rows are buffered per epoch, pre-committed with the
 * checkpoint that closes the epoch, and published only once that checkpoint is complete.
 * A restore re-publishes epochs the snapshot pre-committed but the output never saw.
 */
export class SinkCommitter {
  private current: Element[] = [];
  private pending: PendingCommit[] = [];

  constructor(private readonly origin: string) {}

  buffer(els: readonly Element[]): void {
    for (const e of els) this.current.push(e);
  }

  /** At barrier `id`: closes the epoch; the returned list belongs in the snapshot. */
  preCommit(id: number): PendingCommit[] {
    this.pending.push({ origin: this.origin, epoch: id, els: this.current });
    this.current = [];
    return this.pending.map((p) => ({ ...p, els: [...p.els] }));
  }

  /** Checkpoint `id` completed: hands over every epoch up to it. */
  commit(id: number): PendingCommit[] {
    const ready = this.pending.filter((p) => p.epoch <= id);
    this.pending = this.pending.filter((p) => p.epoch > id);
    return ready;
  }

  /** The job finished: everything left is final. */
  commitAll(): PendingCommit[] {
    const all = [...this.pending, { origin: this.origin, epoch: Infinity, els: this.current }];
    this.pending = [];
    this.current = [];
    return all.filter((p) => p.els.length > 0);
  }

  restore(pending: readonly PendingCommit[]): void {
    this.pending = pending.map((p) => ({ ...p, els: [...p.els] }));
    this.current = [];
  }

  bufferedRows(): number {
    return this.current.length + this.pending.reduce((n, p) => n + p.els.length, 0);
  }
}
