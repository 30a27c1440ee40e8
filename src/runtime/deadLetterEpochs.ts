import type { DeadLetter } from '../engine/types.ts';
import type { DeadLetterEpoch } from '../checkpoint/types.ts';

/**
 * Dead letters of one subtask handled like sink output (two-phase): collected per epoch, closed
 * by the checkpoint barrier, published when that checkpoint completes. A record replayed after a
 * restore is dead-lettered again, but only its first, committed report ever reaches the output.
 */
export class DeadLetterEpochs {
  private current: DeadLetter[] = [];
  private pending: DeadLetterEpoch[] = [];

  constructor(private readonly origin: string) {}

  add(d: DeadLetter): void {
    this.current.push(d);
  }

  /** At barrier `id`: the returned epochs belong in the snapshot. */
  close(id: number): DeadLetterEpoch[] {
    this.pending.push({ origin: this.origin, epoch: id, items: this.current });
    this.current = [];
    return this.pending.filter((p) => p.items.length > 0).map((p) => ({ ...p, items: [...p.items] }));
  }

  commit(id: number): DeadLetterEpoch[] {
    const ready = this.pending.filter((p) => p.epoch <= id && p.items.length > 0);
    this.pending = this.pending.filter((p) => p.epoch > id);
    return ready;
  }

  commitAll(): DeadLetterEpoch[] {
    const all = [...this.pending, { origin: this.origin, epoch: Infinity, items: this.current }];
    this.pending = [];
    this.current = [];
    return all.filter((p) => p.items.length > 0);
  }
}
