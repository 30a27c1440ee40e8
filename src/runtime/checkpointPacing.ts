/**
 * Wall-clock checkpoints for a run that takes them on its own processing thread (the in-process
 * cluster stepped in a loop): one in flight at a time, the next due `intervalMs` after the last
 * one started, and never sooner than `minPauseMs` after the last one settled (Flink's
 * `execution.checkpointing.min-pause`).
 *
 * Without the pause, a checkpoint that takes longer than the interval is followed at once by the
 * next one. In one thread the snapshot and its copy into the store are the same thread's work as
 * the records, so once the state is large enough for a checkpoint to outlast the interval the job
 * does little else than checkpoint: a job whose state grows (windows that have not fired yet)
 * slows down as it goes and looks hung. The pause guarantees that much processing between two
 * checkpoints, whatever they cost.
 *
 * The caller polls `due` between steps with the time and whether a checkpoint is in flight, and
 * reports each checkpoint it started with `started`; the first poll that finds none in flight
 * after one was is when it settled (completed or aborted).
 */
export class CheckpointPacing {
  private lastStart: number;
  private settledAt = -Infinity;
  private inFlight = false;

  constructor(
    readonly intervalMs: number,
    readonly minPauseMs: number,
    startedAt: number,
  ) {
    this.lastStart = startedAt;
  }

  due(now: number, inFlight: boolean): boolean {
    if (inFlight) {
      this.inFlight = true;
      return false;
    }
    if (this.inFlight) {
      this.inFlight = false;
      this.settledAt = now;
    }
    return now - this.lastStart >= this.intervalMs && now - this.settledAt >= this.minPauseMs;
  }

  /** A checkpoint started at `now` (the trigger was accepted). */
  started(now: number): void {
    this.lastStart = now;
    this.inFlight = true;
  }
}

/** What `runPaced` needs of a cluster. */
export interface PacedCluster {
  step(): Promise<'created' | 'running' | 'finished' | 'failed'>;
  inFlightCheckpoint(): number | null;
  triggerCheckpoint(): number | null;
}

/**
 * Steps a started cluster to its end, starting checkpoints as `pacing` says on the wall clock
 * `now`. Returns the final phase and how many checkpoints it started.
 */
export async function runPaced(cluster: PacedCluster, pacing: CheckpointPacing, now: () => number): Promise<{ phase: string; checkpoints: number }> {
  let checkpoints = 0;
  let phase: string;
  while ((phase = await cluster.step()) === 'running') {
    const t = now();
    if (pacing.due(t, cluster.inFlightCheckpoint() !== null) && cluster.triggerCheckpoint() !== null) {
      pacing.started(t);
      checkpoints++;
    }
  }
  return { phase, checkpoints };
}
