import type { Clock } from '../../core/clock.ts';

/** How many reads' worth of budget a source may save up while it waits (a quarter second, at least one record). */
const BURST_S = 0.25;

/**
 * A records-per-second budget for each source subtask of one worker, on the worker's clock: the
 * designer's speed setting on the threaded runtime. `null` reads as fast as possible; 0 holds the
 * sources (a pause: the job stays deployed, everything downstream drains, barriers still leave).
 */
export class SourcePace {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private rate: number | null,
    private readonly clock: Clock,
  ) {}

  get perSubtask(): number | null {
    return this.rate;
  }

  set(rate: number | null): void {
    this.rate = rate;
    // A new pace starts from an empty budget: a resume after a long pause does not burst.
    this.buckets.clear();
  }

  private bucket(id: string): { tokens: number; at: number } {
    const now = this.clock.now();
    let b = this.buckets.get(id);
    if (!b) this.buckets.set(id, (b = { tokens: 0, at: now }));
    const rate = this.rate ?? 0;
    b.tokens = Math.min(b.tokens + (rate * (now - b.at)) / 1000, Math.max(1, rate * BURST_S));
    b.at = now;
    return b;
  }

  /** May source subtask `id` read now? */
  mayRead(id: string): boolean {
    if (this.rate === null) return true;
    if (this.rate <= 0) return false;
    return this.bucket(id).tokens >= 1;
  }

  /** Subtask `id` read `n` records (a batch may overdraw the budget; the next read waits for it). */
  spent(id: string, n: number): void {
    if (this.rate === null || n <= 0) return;
    this.bucket(id).tokens -= n;
  }

  /**
   * Clock time at which `id` may read again (now, if its budget refilled since it was last held);
   * null when it is not paced or is held until set() (paused): no wake-up is due then.
   */
  nextReadAt(id: string): number | null {
    if (this.rate === null || this.rate <= 0) return null;
    const b = this.bucket(id);
    return b.tokens >= 1 ? b.at : b.at + ((1 - b.tokens) * 1000) / this.rate;
  }
}
