/** What the meter needs of a subtask. */
export interface MeteredSubtask {
  readonly id: string;
  /** Has work it cannot do because a downstream channel has no credit. */
  backpressured(): boolean;
}

/** Cumulative times of one subtask, ms on the meter's clock, since the meter started (restarts included). */
export interface SubtaskLoadTimes {
  /** Running its operator (or reading its source). */
  busyMs: number;
  /** Holding input it could process, or a source it could read, while a downstream queue was full. */
  backpressuredMs: number;
}

/**
 * Busy and backpressured time per subtask of the in-process cluster, as Flink's
 * busyTimeMsPerSecond and backPressuredTimeMsPerSecond; the rest of the time is idle. All
 * subtasks share one thread here, so a subtask is busy while that thread runs it: the busy
 * figures of a job add up to at most 100 %. A subtask's state only changes when some subtask
 * runs, so each step reads the clock twice (around the work) and re-checks who is blocked;
 * blocked time runs on between steps (and between the host's turns) until the next check.
 * The clock is injected: wall time in the designer, a manual one in tests.
 */
export class LoadMeter {
  private readonly times = new Map<string, SubtaskLoadTimes>();
  private blocked: MeteredSubtask[] = [];
  /** When `blocked` was last checked. */
  private checkedAt: number;

  constructor(private readonly now: () => number) {
    this.checkedAt = now();
  }

  private of(id: string): SubtaskLoadTimes {
    let t = this.times.get(id);
    if (!t) this.times.set(id, (t = { busyMs: 0, backpressuredMs: 0 }));
    return t;
  }

  /** Before a step's work: the clock reading to hand to `stepDone`. */
  stepStart(): number {
    return this.now();
  }

  /** After a step: `ran` did the work since `start` (null: none did); then who is blocked now. */
  stepDone(start: number, ran: MeteredSubtask | null, all: readonly MeteredSubtask[]): void {
    const end = this.now();
    if (ran) this.of(ran.id).busyMs += Math.max(0, end - start);
    this.recheck(all, end);
  }

  /** New subtasks (a restart): blocked time so far goes to the old ones, then the new ones are watched. */
  redeployed(all: readonly MeteredSubtask[]): void {
    this.recheck(all, this.now());
  }

  private recheck(all: readonly MeteredSubtask[], at: number): void {
    const dt = Math.max(0, at - this.checkedAt);
    for (const s of this.blocked) this.of(s.id).backpressuredMs += dt;
    this.checkedAt = at;
    const next: MeteredSubtask[] = [];
    for (const s of all) if (s.backpressured()) next.push(s);
    this.blocked = next;
  }

  /** Cumulative times per subtask id, the blocked interval still open included. */
  read(): Map<string, SubtaskLoadTimes> {
    const open = Math.max(0, this.now() - this.checkedAt);
    const out = new Map<string, SubtaskLoadTimes>();
    for (const [id, t] of this.times) out.set(id, { ...t });
    for (const s of this.blocked) {
      const t = out.get(s.id) ?? { busyMs: 0, backpressuredMs: 0 };
      t.backpressuredMs += open;
      out.set(s.id, t);
    }
    return out;
  }
}
