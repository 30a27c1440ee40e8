import type { Element, Row, RowKind } from '../../core/types.ts';
import { Ring } from './ring.ts';

const RATE_WINDOW_MS = 1000;
const SAMPLE_SIZE = 5;

/** Per edge: records over the last second of job time, changelog kinds and a few recent rows. */
export class EdgeRecorder {
  private readonly arrivals: { at: number; n: number }[] = [];
  readonly kinds: Partial<Record<RowKind, number>> = {};
  readonly sample = new Ring<{ kind: RowKind; row: Row }>(SAMPLE_SIZE);

  record(els: readonly Element[], now: number): void {
    this.arrivals.push({ at: now, n: els.length });
    for (const e of els) this.kinds[e.kind] = (this.kinds[e.kind] ?? 0) + 1;
    // Sampling the tail of each batch keeps this O(1) per batch.
    for (let i = Math.max(0, els.length - SAMPLE_SIZE); i < els.length; i++) this.sample.push({ kind: els[i].kind, row: els[i].row });
    if (this.arrivals.length > 4096) this.trim(now);
  }

  /** Records per second over the last second on the recorder's rate clock (see Recorder.rateNow). */
  rate(now: number): number {
    this.trim(now);
    let n = 0;
    for (const a of this.arrivals) n += a.n;
    return (n * 1000) / RATE_WINDOW_MS;
  }

  private trim(now: number): void {
    let drop = 0;
    while (drop < this.arrivals.length && this.arrivals[drop].at <= now - RATE_WINDOW_MS) drop++;
    if (drop) this.arrivals.splice(0, drop);
  }
}
