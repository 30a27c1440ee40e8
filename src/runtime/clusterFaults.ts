import type { Rng } from '../core/rng.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';
import type { Kill } from './clusterTypes.ts';

/** Thrown out of a step when a subtask is killed; the cluster recovers as the restart strategy allows. */
export class Killed extends Error {}

/**
 * Fault injection for the in-process cluster: kills planned by step (optionally waiting until
 * some subtask aligns barriers or a snapshot write is in flight) and kills asked for now. The
 * victim of a planned kill without a subtask is a seeded random live one, drawn from the
 * cluster's own scheduling rng, so a seeded run with kills replays exactly.
 */
export class FaultInjector {
  private readonly kills: Kill[];
  private pendingKill: string | null = null;

  constructor(
    kills: readonly Kill[] | undefined,
    private readonly rng: Rng,
  ) {
    this.kills = [...(kills ?? [])].sort((a, b) => a.atStep - b.atStep);
  }

  /** The subtask fails at the next step. */
  kill(subtask: string): void {
    this.pendingKill = subtask;
  }

  /** Throws Killed when a kill falls on step `steps`. */
  check(steps: number, runners: readonly SubtaskRunner[], writesInFlight: number): void {
    if (this.pendingKill) {
      const victim = this.pendingKill;
      this.pendingKill = null;
      throw new Killed(`subtask ${victim} was killed at step ${steps}`);
    }
    const k = this.kills[0];
    if (!k || steps < k.atStep) return;
    if (k.when === 'aligning' && !runners.some((r) => r.isAligning())) return;
    if (k.when === 'writing' && writesInFlight === 0) return;
    this.kills.shift();
    const live = runners.filter((r) => !r.finished);
    const victim = k.subtask ?? (live.length ? this.rng.pick(live).id : runners[0].id);
    throw new Killed(`subtask ${victim} was killed at step ${steps}${k.when && k.when !== 'any' ? ` (while ${k.when})` : ''}`);
  }
}
