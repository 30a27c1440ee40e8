import { upperBound } from '../runHistory.ts';

/** Entries kept at most; the oldest half is forgotten beyond it (as the run history forgets marks). */
const MAX_READS = 1_000_000;

/**
 * Which source read made which traces: after each read that made some, its step and the count of
 * traces so far. A replay of the run to a point makes only the traces the trace list still shows
 * there; this says from which step on (tracing takes part in no scheduling decision, so the rest
 * of the run is the same either way).
 */
export class TraceLog {
  private steps: number[] = [];
  private seqs: number[] = [];
  private forgotten = false;

  /** A read in step `step` brought the count of traces to `seq`. */
  note(step: number, seq: number): void {
    if (this.seqs.at(-1) === seq) return;
    this.steps.push(step);
    this.seqs.push(seq);
    if (this.steps.length > MAX_READS) {
      this.steps = this.steps.slice(MAX_READS / 2);
      this.seqs = this.seqs.slice(MAX_READS / 2);
      this.forgotten = true;
    }
  }

  /**
   * The step of the read that made the oldest of the newest `shown` traces after step `to`: a
   * replay to `to` makes its traces from there on. 0 when unknown (forgotten): trace everything.
   */
  startFor(to: number, shown: number): number {
    const last = upperBound(this.steps, to) - 1;
    if (last < 0) return this.forgotten ? 0 : to + 1;
    const oldest = this.seqs[last] - shown + 1;
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqs[mid] >= oldest) hi = mid;
      else lo = mid + 1;
    }
    return lo === 0 && this.forgotten ? 0 : this.steps[lo];
  }
}
