import type { Epoch } from '../checkpoint/types.ts';

/**
 * Two-phase output of one subtask (sink rows, dead letters): collected per epoch, closed by the
 * checkpoint barrier, published once that checkpoint completes. Every epoch not yet committed
 * goes into each snapshot, so a restore (which replays the records and produces them again)
 * leaves the job master to publish what a snapshot pre-committed, each `origin@epoch` once.
 */
export class EpochBuffer<T> {
  private current: T[] = [];
  private pending: Epoch<T>[] = [];

  constructor(private readonly origin: string) {}

  add(item: T): void {
    this.current.push(item);
  }

  addAll(items: readonly T[]): void {
    for (let i = 0; i < items.length; i++) this.current.push(items[i]);
  }

  /** At barrier `id`: closes the epoch. The returned copies (epochs not yet committed) belong in the snapshot. */
  close(id: number): Epoch<T>[] {
    if (this.current.length) this.pending.push({ origin: this.origin, epoch: id, items: this.current });
    this.current = [];
    return this.pending.map((p) => ({ ...p, items: [...p.items] }));
  }

  /** Checkpoint `id` completed: hands over every epoch up to it. */
  commit(id: number): Epoch<T>[] {
    const ready = this.pending.filter((p) => p.epoch <= id);
    this.pending = this.pending.filter((p) => p.epoch > id);
    return ready;
  }

  /** The job finished: everything left is final. */
  commitAll(): Epoch<T>[] {
    const all = this.current.length ? [...this.pending, { origin: this.origin, epoch: Infinity, items: this.current }] : this.pending;
    this.pending = [];
    this.current = [];
    return all;
  }
}
