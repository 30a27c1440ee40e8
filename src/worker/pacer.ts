import type { LocalCluster } from '../runtime/localCluster.ts';
import { recordsRead } from './clusterMetrics.ts';

const SLICE_MS = 30; // work per turn of the event loop, so control messages get through
const STEPS_PER_CHECK = 64; // cluster.step() is async: batch many per turn, check the clock between batches

export interface PacerHooks {
  /** Does one turn's work; must return by `deadline` (performance.now() ms) or soon after. */
  work(deadline: number): Promise<void>;
  /** After each turn: returns whether to keep going. */
  after(): boolean;
}

/**
 * Wall-clock pacing of a simulated cluster: turns of ~30 ms on a timer, a budget of source records
 * per second (or as fast as possible), and a wall-clock checkpoint interval.
 */
export class Pacer {
  speed: number | null = null;
  checkpointMs: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private generation = 0;
  private budget = 0;
  private lastTurn = 0;
  private lastCheckpointAt = 0;
  private inTurn = false;
  private current: Promise<void> = Promise.resolve();

  constructor(private readonly hooks: PacerHooks) {}

  /** Source batch size for a speed: one record at a time when slow, so a record visibly flows. */
  static batchSizeFor(speed: number | null): number {
    return speed === null ? 64 : Math.max(1, Math.min(64, Math.floor(speed / 50)));
  }

  configure(speed: number | null, checkpointMs: number | null): void {
    if (speed !== this.speed) this.budget = 0;
    this.speed = speed;
    this.checkpointMs = checkpointMs;
  }

  start(): void {
    this.halt();
    const now = performance.now();
    this.lastTurn = now;
    this.lastCheckpointAt = now;
    this.budget = 0;
    this.schedule(this.generation, 0);
  }

  halt(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A turn still awaiting the cluster finishes, but does not schedule another.
    this.generation++;
  }

  private schedule(gen: number, delay: number): void {
    this.timer = setTimeout(() => void this.turn(gen), delay);
  }

  private async turn(gen: number): Promise<void> {
    this.timer = null;
    // A halted turn may still be awaiting the cluster: never step it from two turns at once.
    if (this.inTurn) return this.schedule(gen, 5);
    this.inTurn = true;
    const work = this.hooks.work(performance.now() + SLICE_MS);
    this.current = work.catch(() => undefined);
    try {
      await work;
    } finally {
      this.inTurn = false;
    }
    // Even a turn halted meanwhile (failure, breakpoint, pause) reports; only the next turn is cancelled.
    const again = this.hooks.after();
    if (again && gen === this.generation) this.schedule(gen, this.speed === null ? 0 : 15);
  }

  /** Halts, then waits until a turn that was under way has left the cluster alone. */
  async stopped(): Promise<void> {
    this.halt();
    await this.current;
  }

  /** True once per wall-clock interval while running. */
  checkpointDue(now: number): boolean {
    if (!this.checkpointMs || now - this.lastCheckpointAt < this.checkpointMs) return false;
    this.lastCheckpointAt = now;
    return true;
  }

  /**
   * Advances the cluster within the turn. Paced: one source batch at a time, each settled through
   * the whole job (stepUntil), until the records-per-second budget is spent. `stop` returning true
   * (a breakpoint) ends the turn at once.
   */
  async advance(cluster: LocalCluster, deadline: number, stop: () => boolean): Promise<void> {
    const now = performance.now();
    if (this.speed === null) {
      while (performance.now() < deadline) {
        for (let i = 0; i < STEPS_PER_CHECK; i++) {
          if ((await cluster.step()) !== 'running' || stop() || cluster.waitingForInput()) return;
        }
      }
      return;
    }
    this.budget = Math.min(this.budget + (this.speed * (now - this.lastTurn)) / 1000, Math.max(1, this.speed));
    this.lastTurn = now;
    while (this.budget >= 1 && performance.now() < deadline) {
      // Records read, not records sent: a source with two outgoing edges sends each record twice.
      const before = recordsRead(cluster);
      const r = await cluster.stepUntil('record');
      this.budget -= Math.max(1, recordsRead(cluster) - before);
      if (r.phase !== 'running' || stop() || !r.reached) return;
    }
  }
}
