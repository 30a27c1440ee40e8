import type { ManualClock } from '../core/clock.ts';
import type { Rng } from '../core/rng.ts';
import type { SubtaskRunner } from './subtaskRunner.ts';

/**
 * How the in-process scheduler picks the next subtask. Every policy is deterministic.
 * - 'seeded': a seeded random runnable one, so chaos tests explore interleavings and replay
 *   them. One step is one millisecond of processing time.
 * - 'pipelined': the runnable subtask furthest downstream, so a batch goes through the whole
 *   pipeline while it is hot in the cache. One step, one millisecond.
 * - 'simulated': operators (upstream first) run until nothing is left to do; then the source
 *   whose next record is due first in simulated processing time (records read ÷ its rate) is
 *   read, no further than the moment another source is due, and the clock is set to that
 *   moment. Sources interleave by their rates and processing-time results are reproducible:
 *   plain CLI runs, pipeline tests, the oracle and unit tests run this way.
 * - 'live': as 'simulated', but the caller sets the clock (wall-clock time) and sources are
 *   read, round-robin, as soon as they have data; idleness is measured on that clock.
 */
export type SchedulePolicy = 'seeded' | 'pipelined' | 'simulated' | 'live';

/** The clock follows the sources (or the caller), not the steps. */
export const followsSourceTime = (p: SchedulePolicy): boolean => p === 'simulated' || p === 'live';

/** Picks and runs one unit of work under a policy; the cluster owns the runners, the clock and the rng. */
export class InProcessScheduler {
  /** The source a live run reads first next time, so one busy input cannot starve the others. */
  private nextLive = 0;
  /** The subtask the last `runOne` ran (null: none, or only idleness was marked), for the load meter. */
  lastRan: SubtaskRunner | null = null;

  constructor(
    readonly policy: SchedulePolicy,
    private readonly clock: ManualClock,
    private readonly rng: Rng,
    private readonly batchSize: number,
  ) {}

  /** A new attempt's runners: a live run starts reading at the first source again. */
  reset(): void {
    this.nextLive = 0;
  }

  /** Runs one unit of work; false when none can run. `heldBack`: sources paused by stepping. */
  runOne(runners: readonly SubtaskRunner[], sources: readonly SubtaskRunner[], heldBack: (r: SubtaskRunner) => boolean): boolean {
    this.lastRan = null;
    if (this.policy === 'pipelined') {
      // Runners are in the plan's topological order: the last runnable one is furthest downstream.
      for (let i = runners.length - 1; i >= 0; i--) {
        const r = runners[i];
        if (r.runnable() && !heldBack(r)) return (this.lastRan = r).runOne();
      }
      return false;
    }
    if (this.policy === 'seeded') {
      const ready = runners.filter((r) => r.runnable() && !heldBack(r));
      if (ready.length === 0) return false;
      (this.lastRan = this.rng.pick(ready)).runOne();
      return true;
    }
    // Operators first, upstream first: everything a read caused settles before the next read.
    for (const r of runners) if (!r.source && r.runnable()) return (this.lastRan = r).runOne();
    for (const r of sources) if (!r.finished && r.hasPendingBarrier() && !heldBack(r)) return (this.lastRan = r).runOne();
    return this.policy === 'live' ? this.readLive(sources, heldBack) : this.readSimulated(sources, heldBack);
  }

  /** Reads the source whose next record is due first in simulated processing time. */
  private readSimulated(sources: readonly SubtaskRunner[], heldBack: (r: SubtaskRunner) => boolean): boolean {
    let waiting: SubtaskRunner[] | null = null;
    const candidate = (r: SubtaskRunner) => !r.finished && !heldBack(r) && !waiting?.includes(r) && r.outputsHaveCredit();
    for (;;) {
      let best: SubtaskRunner | null = null;
      let bestDue = Infinity;
      for (const r of sources) {
        if (!candidate(r)) continue;
        const due = sourceDue(r);
        if (due < bestDue) [best, bestDue] = [r, due];
      }
      if (!best) return false;
      // Read no further than the moment another source is due, so sources interleave by their rates.
      let otherDue = Infinity;
      for (const r of sources) if (r !== best && candidate(r)) otherDue = Math.min(otherDue, sourceDue(r));
      const interval = best.recordIntervalMs;
      const count = Math.min(this.batchSize, Math.max(1, Math.floor((otherDue - bestDue) / interval) + 1));
      const poll = best.readSource(count);
      if (!poll) {
        // A source with no data yet: try the next one; when none has data, nothing runs.
        (waiting ??= []).push(best);
        continue;
      }
      this.clock.set(bestDue);
      for (const r of sources) if (r !== best) r.markIdleIfSilent();
      this.clock.set(bestDue + Math.max(0, count - 1) * interval);
      this.lastRan = best;
      best.emitRead(poll);
      return true;
    }
  }

  /** A live run: the first source, round-robin, that has something; else idleness on the caller's clock. */
  private readLive(sources: readonly SubtaskRunner[], heldBack: (r: SubtaskRunner) => boolean): boolean {
    const n = sources.length;
    for (let k = 0; k < n; k++) {
      const i = (this.nextLive + k) % n;
      const r = sources[i];
      if (r.finished || heldBack(r) || !r.outputsHaveCredit()) continue;
      const poll = r.readSource(this.batchSize);
      if (!poll) continue;
      this.lastRan = r;
      this.nextLive = (i + 1) % n;
      for (const o of sources) if (o !== r) o.markIdleIfSilent();
      r.emitRead(poll);
      return true;
    }
    let any = false;
    for (const r of sources) any = r.markIdleIfSilent() || any;
    return any;
  }
}

const sourceDue = (r: SubtaskRunner): number => r.sourceOffset() * r.recordIntervalMs;
