import type { Element } from '../../../core/types.ts';
import { isAddition } from '../../../core/types.ts';
import type { PaneKeeper, Pane } from './panes.ts';
import type { WindowBounds } from './assigners.ts';
import { sessionWindow, touches } from './assigners.ts';

export type Outcome = 'ok' | 'late' | { deadLetter: string };

/**
 * Session windows: a record opens [ts, ts + gap) and merges with every session of its key
 * that it overlaps or touches (Flink's MergingWindowSet). The merged pane takes the union of
 * the bounds and the merged accumulators; the old panes, their timers and any result they
 * already emitted are withdrawn. As in Flink, a record is late only when its own window is
 * late and it joins no live session.
 */
export function processSessionElement(keeper: PaneKeeper, gap: number, el: Element, ts: number): Outcome {
  const own = sessionWindow(ts, gap);
  const panes = keeper.panes.entries().map(([, p]) => p);
  if (!isAddition(el.kind)) {
    // Sessions never split: a retraction comes out of whichever session holds its time.
    const home = panes.find((p) => p.start <= ts && ts < p.end);
    if (!home || home.n <= 0) return keeper.isLate(own) ? 'late' : { deadLetter: 'retraction for a session window that holds no rows' };
    keeper.apply(home, el);
    keeper.save(home);
    return 'ok';
  }
  const hits = panes.filter((p) => touches(p, own));
  if (hits.length === 0) {
    if (keeper.isLate(own)) return 'late';
    const p = keeper.open(own, el.row);
    keeper.apply(p, el);
    keeper.save(p);
    return 'ok';
  }
  if (hits.length === 1 && hits[0].start <= own.start && hits[0].end >= own.end) {
    keeper.apply(hits[0], el);
    keeper.save(hits[0]);
    return 'ok';
  }
  const merged = mergeBounds(own, hits);
  let accs = hits[0].accs;
  for (const h of hits.slice(1)) accs = keeper.calls.merge(accs, h.accs);
  const n = hits.reduce((sum, h) => sum + h.n, 0);
  for (const h of hits) keeper.discard(h);
  if (hits.length > 1) keeper.noteMerge(hits, merged);
  const p = keeper.open(merged, hits[0].group, accs, n);
  keeper.apply(p, el);
  keeper.save(p);
  return 'ok';
}

function mergeBounds(own: WindowBounds, hits: readonly Pane[]): WindowBounds {
  let { start, end } = own;
  for (const h of hits) {
    if (h.start < start) start = h.start;
    if (h.end > end) end = h.end;
  }
  return { start, end };
}
