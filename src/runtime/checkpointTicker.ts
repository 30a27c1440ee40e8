import type { CheckpointCoordinator } from '../checkpoint/coordinator.ts';
import type { TimerService } from './jobMaster.ts';

/**
 * Periodic checkpoints with one in flight, as Flink's coordinator queues them: a tick that finds
 * the previous checkpoint still running is not dropped but remembered, and the next checkpoint
 * starts the moment the running one completes or aborts. Dropping it made the next one wait for
 * the following tick, so a checkpoint that took a little longer than the interval halved the
 * checkpoint rate and doubled how long output waited to be committed.
 */
export class CheckpointTicker {
  private overdue = false;
  private intervalMs = 0;
  private cancel: (() => void) | null = null;
  private running = false;

  constructor(
    private readonly coordinator: () => CheckpointCoordinator | null,
    private readonly timers: TimerService,
  ) {}

  /** Ticks every `intervalMs` after the last trigger; returns the stop function. */
  start(intervalMs: number): () => void {
    this.intervalMs = intervalMs;
    this.running = true;
    this.arm();
    return () => this.stop();
  }

  stop(): void {
    this.running = false;
    this.cancel?.();
    this.cancel = null;
    this.overdue = false;
  }

  private arm(): void {
    this.cancel?.();
    this.cancel = this.timers.after(this.intervalMs, () => this.tick());
  }

  private tick(): void {
    this.cancel = null;
    const c = this.coordinator();
    if (!c || !this.running) return;
    void c.checkTimeout();
    if (c.isPending()) this.overdue = true;
    else this.trigger(c);
  }

  private trigger(c: CheckpointCoordinator): void {
    this.overdue = false;
    c.trigger();
    // The next one is due an interval after this one started, not at a fixed phase that a late start would put right behind it.
    this.arm();
  }

  /** The checkpoint in flight completed or aborted: an overdue one starts now. */
  settled(): void {
    if (!this.overdue || !this.running) return;
    const c = this.coordinator();
    if (c && !c.isPending()) this.trigger(c);
  }
}
