import type { Control, RunHistory } from '../runtime/runHistory.ts';
import { upperBound } from '../runtime/runHistory.ts';
import type { HistoryView, StepKind } from './protocol.ts';

/** Marks per kind the scrubber gets at most: a frame stays small however long the run. */
const MARKS_IN_VIEW = 400;

/**
 * The session's side of stepping back: the longest history the run has had (kept while the person
 * is back in it, so the scrubber can go forward again), and the points where the run came to rest
 * (after a step, a pause, a breakpoint), which are the points a step back returns to.
 */
export class RunTimeline {
  /** The history to replay: the current cluster's, or a longer one the person stepped back from. */
  private future: RunHistory | null = null;
  private rests: number[] = [0];
  /** The points where a frame showed a node's state table on the first pass: its `changed` marks count from the last one. */
  private looks: StateLook[] = [];

  /** The history that reaches furthest: the one to replay from. */
  full(current: RunHistory): RunHistory {
    return this.future ?? current;
  }

  /** After a replay to `at` from `full`: the rest of `full` stays reachable. */
  steppedBack(full: RunHistory, at: number): void {
    this.future = full.end > at ? full : null;
  }

  /** A new action at `at` (a step, a run, a kill, an injection): the old future is gone. */
  diverge(at: number): void {
    this.future = null;
    this.rests.length = upperBound(this.rests, at);
    while (this.looks.length && this.looks[this.looks.length - 1].at > at) this.looks.pop();
  }

  /** A frame at `at` showed the state table of `node` (of one subtask, or all). Looks while back in the history were made before. */
  looked(at: number, node: string, subtask: number | null): void {
    if (this.future) return;
    const last = this.looks[this.looks.length - 1];
    if (last && last.at === at && last.node === node && last.subtask === subtask) return;
    this.looks.push({ at, node, subtask });
  }

  /**
   * For a replay to `at`: per node and subtask the last look before it, in the order of their
   * points. Marking the state table there, as those frames did, makes every `changed` mark at
   * `at` what the run showed.
   */
  looksBefore(at: number): StateLook[] {
    const last = new Map<string, StateLook>();
    for (const l of this.looks) {
      if (l.at >= at) break;
      const id = `${l.subtask ?? '*'} ${l.node}`;
      last.delete(id);
      last.set(id, l);
    }
    return [...last.values()];
  }

  /**
   * The run came to rest at this point on its first pass (what the person saw there is worth
   * returning to). Points visited while back in the history are not: they were passed before.
   */
  rest(at: number): void {
    if (this.future) return;
    const i = upperBound(this.rests, at);
    if (this.rests[i - 1] !== at) this.rests.splice(i, 0, at);
  }

  clear(): void {
    this.future = null;
    this.rests = [0];
    this.looks = [];
  }

  /**
   * The point one `kind` back from `at`: the last rest before the latest `kind` at or before `at`
   * (and after the one before it), else the step just before it; with no `kind` before `at`, the
   * start. Null when already at the start.
   */
  back(kind: StepKind, at: number, history: RunHistory): number | null {
    if (at <= 0) return null;
    const m = history.lastMark(kind, at);
    if (m === null) return 0;
    const prev = history.lastMark(kind, m - 1) ?? 0;
    const i = upperBound(this.rests, m - 1) - 1;
    const r = i >= 0 ? this.rests[i] : null;
    return r !== null && r >= prev && r < at ? r : Math.max(0, m - 1);
  }

  view(at: number, current: RunHistory, replayable: HistoryView['replayable']): HistoryView {
    const h = this.full(current);
    return {
      at,
      end: Math.max(h.end, at),
      replayable,
      checkpoints: h.marksIn('checkpoint', h.end, MARKS_IN_VIEW),
      kills: h.marksIn('kill', h.end, MARKS_IN_VIEW),
      restores: h.marksIn('restore', h.end, MARKS_IN_VIEW),
    };
  }
}

/** A frame that showed the state table of `node` at point `at` (`subtask` null: every subtask). */
export interface StateLook {
  at: number;
  node: string;
  subtask: number | null;
}

/** Where in `controls` a cluster at step `at` (reached by replaying them) goes on from. */
export function positionOf(controls: readonly Control[], at: number): { index: number; offset: number } {
  // At the start nothing was applied, not even the controls before the first step.
  if (at === 0) return { index: 0, offset: 0 };
  let steps = 0;
  for (let index = 0; index < controls.length; index++) {
    const c = controls[index];
    if (c.t !== 'steps') continue;
    if (steps + c.n > at) return { index, offset: at - steps };
    steps += c.n;
    if (steps === at) return { index: index + 1, offset: 0 };
  }
  return { index: controls.length, offset: 0 };
}
