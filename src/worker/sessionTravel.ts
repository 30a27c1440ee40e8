import type { PipelineDocument } from '../pipeline/document.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import { replayHistory } from '../runtime/runHistory.ts';
import type { RunHistory } from '../runtime/runHistory.ts';
import type { LoadOptions } from './protocol.ts';
import type { Job } from './clusterJob.ts';
import { RunTimeline, positionOf } from './runTimeline.ts';
import { SourceRows } from '../runtime/sourceRows.ts';

/** What stepping back needs of the session that owns the job. */
export interface TravelSession {
  job(): Job | null;
  loaded(): { doc: PipelineDocument; opts: LoadOptions } | null;
  /** Stops the pacer: the run is paused wherever the travel leaves it. */
  halt(): void;
  /** Releases the job and deploys a fresh one of the same plan: counters reset, sink windows kept; its sources read `rows` first. */
  redeploy(plan: JobPlan, doc: PipelineDocument, opts: LoadOptions, rows: SourceRows): Promise<Job>;
  /** Runs cluster work; a throw fails the job with the node named. */
  guard(work: () => Promise<unknown>): Promise<void>;
  traceEvery(job: Job, n: number): void;
  /** Around a replayed restore, so the session does not count it as a failure restart. */
  travelling(checkpointId: number | null): void;
  warn(message: string): void;
}

/**
 * Stepping back and the scrubber in the in-process session: the run's timeline (runTimeline.ts)
 * and the replays of its history (runHistory.ts) that reach any point of it.
 */
export class SessionTravel {
  readonly timeline = new RunTimeline();
  /** While a step back replays the history: its events were logged the first time. */
  replaying = false;
  /**
   * The rows the sources made, kept from the first replay on: every later replay reads them
   * instead of making them again (the run passed before without them, so running forward costs
   * no memory for them).
   */
  private rows: SourceRows | null = null;

  constructor(private readonly s: TravelSession) {}

  /** Another job (or none): its timeline and rows are gone. */
  clear(): void {
    this.timeline.clear();
    this.rows = null;
  }

  /** Why this run's history cannot be replayed, or null. */
  private unreplayable(): string | null {
    return this.s.loaded()?.opts.resume ? 'this run resumed from checkpoints an earlier page stored, and its history before them is not here; start the run again to step back in it' : null;
  }

  /**
   * Replays the history to point `to`. Earlier than now: a fresh job of the same plan and options
   * replays it from the start; later (after a step back): the current job goes on replaying it.
   * The run is deterministic, so state, buffers, panes, channels and sink tables are exactly what
   * the run showed when it first passed that point. The job now at `to`, or null (and logged)
   * when it cannot.
   */
  async travelTo(job: Job, to: number, full: RunHistory): Promise<Job | null> {
    const why = this.unreplayable();
    const loaded = this.s.loaded();
    if (why || !loaded) {
      this.s.warn(`cannot step back: ${why ?? 'no job is loaded'}`);
      return null;
    }
    this.s.halt();
    let target = job;
    let from = { index: 0, offset: 0 };
    this.replaying = true;
    try {
      if (to < job.cluster.stepCount()) {
        const traceFrom = job.observer.traceStartFor(to);
        target = await this.s.redeploy(job.plan, loaded.doc, { ...loaded.opts, resume: false }, (this.rows ??= new SourceRows()));
        target.observer.traceFrom(traceFrom);
      } else from = positionOf(full.controls, job.cluster.stepCount());
      const hooks = { tag: (name: string, v: number) => void (name === 'traceEvery' && this.s.traceEvery(target, v)), restoring: (id: number | null) => this.s.travelling(id) };
      // The state table marks rows changed since the last frame that showed them: the replay
      // marks each node's table where the run's frames last did before `to`.
      const looks = this.timeline.looksBefore(to).filter((l) => l.at >= target.cluster.stepCount());
      await this.s.guard(async () => {
        for (const l of looks) {
          from = await replayHistory(target.cluster, full.controls, l.at, hooks, from);
          target.observer.markSeen(l.node, l.subtask);
        }
        await replayHistory(target.cluster, full.controls, to, hooks, from);
      });
    } finally {
      this.replaying = false;
    }
    this.timeline.steppedBack(full, to);
    return target;
  }
}
