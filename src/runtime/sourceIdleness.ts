import type { Clock } from '../core/clock.ts';

/**
 * A source subtask's idleness (Flink's WatermarkStrategy.withIdleness): silent for its timeout
 * on the host's clock, it says so downstream, so a quiet split no longer holds the watermark of
 * the operators after it back; its next record makes it active again. It lives with the source
 * task, so idleness holds wherever the task runs (in process or on a worker).
 */
export class SourceIdleness {
  idle = false;
  private lastEmit: number;

  constructor(
    private readonly timeoutMs: number,
    private readonly clock: Clock,
    /** Tells the operators downstream that this source went idle (true) or active again (false). */
    private readonly announce: (idle: boolean) => void,
  ) {
    this.lastEmit = clock.now();
  }

  /** Records end idleness before they go out; silence for the timeout starts it. */
  track(emitted: boolean): void {
    const now = this.clock.now();
    if (emitted) {
      this.lastEmit = now;
      if (this.idle) {
        this.idle = false;
        this.announce(false);
      }
    } else if (!this.idle && now - this.lastEmit >= this.timeoutMs) {
      this.idle = true;
      this.announce(true);
    }
  }

  /** When the source goes idle if nothing arrives before; null once it is idle. */
  deadline(): number | null {
    return this.idle ? null : this.lastEmit + this.timeoutMs;
  }
}
