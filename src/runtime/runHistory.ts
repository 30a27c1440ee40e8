/**
 * What drove an in-process run, in order: every step (with the sources it held back) and every
 * control from outside (a checkpoint started by hand or by the wall clock, a kill, an injected
 * record, a restore). The run is deterministic given these, so replaying them into a fresh
 * cluster of the same plan and options reaches any earlier point exactly: operator state, join
 * buffers, window panes, channel contents, sink output, the scheduler's random state and the
 * clock. A point is a step count; a control recorded at count c happened after step c.
 */

/** Which sources a step holds back (stepping settles the rest of the job before reading on). */
export type HoldMode = 'no' | 'all' | 'except-barriers';

export type Control =
  | { t: 'steps'; n: number; hold: HoldMode }
  | { t: 'trigger' }
  | { t: 'kill'; subtask: string }
  | { t: 'inject'; source: string; values: Record<string, string> }
  | { t: 'restore'; checkpointId: number }
  /** Something outside the cluster that changes what is observed (the tracing rate), replayed through a hook. */
  | { t: 'tag'; name: string; value: number };

/** Step counts at which something happened, for stepping back and for the scrubber's marks. */
export interface HistoryMarks {
  /** A source put a record batch / a watermark on a channel during that step. */
  record: number[];
  watermark: number[];
  /** A barrier was put on any edge during that step. */
  barrier: number[];
  /** A checkpoint completed during (or right after) that step. */
  checkpoint: number[];
  /** A subtask failed (killed) in that step; the job restarted from its latest checkpoint. */
  kill: number[];
  /** The run travelled back to a checkpoint after that step. */
  restore: number[];
}

export type MarkKind = keyof HistoryMarks;

/** Per kind: 4 MB of step counts at most. */
const MAX_MARKS = 1_000_000;

const emptyMarks = (): HistoryMarks => ({ record: [], watermark: [], barrier: [], checkpoint: [], kill: [], restore: [] });

/** The cluster's side of replay: one step with sources held as recorded, and each control. */
export interface Replayable {
  stepCount(): number;
  running(): boolean;
  stepHeld(hold: HoldMode): Promise<unknown>;
  triggerCheckpoint(): number | null;
  kill(subtask: string): void;
  inject(source: string, values: Record<string, string>): unknown;
  restoreTo(checkpointId: number): Promise<void>;
}

export interface ReplayHooks {
  tag?(name: string, value: number): void;
  /** Around a replayed restore, so the session does not count it as a failure restart. */
  restoring?(checkpointId: number | null): void;
}

export class RunHistory {
  readonly controls: Control[] = [];
  readonly marks: HistoryMarks = emptyMarks();
  private steps = 0;
  private readonly forgotten: Partial<Record<MarkKind, number>> = {};

  /** Steps taken so far: the point the run is at. */
  get end(): number {
    return this.steps;
  }

  step(hold: HoldMode): void {
    this.steps++;
    const last = this.controls.at(-1);
    if (last?.t === 'steps' && last.hold === hold) last.n++;
    else this.controls.push({ t: 'steps', n: 1, hold });
  }

  control(c: Exclude<Control, { t: 'steps' }>): void {
    this.controls.push(c);
  }

  /** Marks the current step (the one being taken, or the last one taken) once per kind. */
  mark(kind: MarkKind, at = this.steps): void {
    const list = this.marks[kind];
    if (list.at(-1) === at) return;
    list.push(at);
    // A long fast run marks a record every few steps: keep memory bounded by forgetting the oldest.
    if (list.length > MAX_MARKS) {
      list.splice(0, list.length - MAX_MARKS / 2);
      this.forgotten[kind] = list[0];
    }
  }

  /** Marks of a kind before this step were forgotten (0: none). */
  forgottenBefore(kind: MarkKind): number {
    return this.forgotten[kind] ?? 0;
  }

  /** The latest mark of a kind at or before a point, or null. */
  lastMark(kind: MarkKind, atOrBefore: number): number | null {
    const list = this.marks[kind];
    const i = upperBound(list, atOrBefore) - 1;
    return i >= 0 ? list[i] : null;
  }

  /** Marks of a kind in (from, to], for the scrubber (at most `max`, the latest). */
  marksIn(kind: MarkKind, to: number, max: number): number[] {
    const list = this.marks[kind];
    const hi = upperBound(list, to);
    return list.slice(Math.max(0, hi - max), hi);
  }
}

/** Index of the first element greater than x in an ascending list. */
export function upperBound(list: readonly number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Replays `controls` into a cluster that starts at `from` steps (a fresh one: 0) until it reaches
 * step `to`; controls recorded at `to` itself are not applied (the point is "after step `to`").
 * Returns the index of the first control not fully replayed and how many of its steps were taken,
 * so a later call can go on from there without starting over.
 */
export async function replayHistory(cluster: Replayable, controls: readonly Control[], to: number, hooks: ReplayHooks = {}, resume = { index: 0, offset: 0 }): Promise<{ index: number; offset: number }> {
  let { index, offset } = resume;
  for (; index < controls.length; index++, offset = 0) {
    const c = controls[index];
    if (cluster.stepCount() >= to) break;
    if (c.t === 'steps') {
      while (offset < c.n && cluster.stepCount() < to && cluster.running()) {
        await cluster.stepHeld(c.hold);
        offset++;
      }
      if (offset < c.n) break;
    } else if (c.t === 'trigger') cluster.triggerCheckpoint();
    else if (c.t === 'kill') cluster.kill(c.subtask);
    else if (c.t === 'inject') cluster.inject(c.source, c.values);
    else if (c.t === 'tag') hooks.tag?.(c.name, c.value);
    else {
      hooks.restoring?.(c.checkpointId);
      try {
        await cluster.restoreTo(c.checkpointId);
      } finally {
        hooks.restoring?.(null);
      }
    }
  }
  return { index, offset };
}
