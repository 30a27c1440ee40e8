import type { LoadFigures, NodeLoad, RunSnapshot } from '../../worker/protocol.ts';
import { createStore } from '../store/createStore.ts';

/** One node's or subtask's figures over time, as uPlot reads them (one array per line). */
export interface LoadSeries {
  /** Wall time of each point, ms since the epoch. */
  at: number[];
  busy: number[];
  backpressured: number[];
  inPerSec: number[];
  outPerSec: number[];
}

export interface LoadHistory {
  /** Keyed by node id, and by subtask id ("node#i") for nodes with more than one subtask. */
  series: Record<string, LoadSeries>;
}

/** A point every quarter second, two minutes back: enough to see a trend, little to redraw. */
export const POINT_MS = 250;
export const KEEP_MS = 120_000;

const FIELDS = ['busy', 'backpressured', 'inPerSec', 'outPerSec'] as const;

function appendTo(s: LoadSeries | undefined, f: LoadFigures, at: number): LoadSeries {
  const first = s ? s.at.findIndex((t) => at - t <= KEEP_MS) : 0;
  const keep = <T,>(xs: T[] | undefined, x: T): T[] => [...(xs ?? []).slice(first < 0 ? (xs?.length ?? 0) : first), x];
  return { at: keep(s?.at, at), busy: keep(s?.busy, f.busy), backpressured: keep(s?.backpressured, f.backpressured), inPerSec: keep(s?.inPerSec, f.inPerSec), outPerSec: keep(s?.outPerSec, f.outPerSec) };
}

/**
 * The history after one more snapshot's load figures at wall time `at`: a point per node (and
 * per subtask of a parallel node) at most every POINT_MS, nothing older than KEEP_MS. Only a
 * running job adds points; a paused one keeps its last figures, so the charts stop.
 */
export function appendLoad(h: LoadHistory, load: Record<string, NodeLoad>, at: number): LoadHistory {
  const any = Object.values(h.series)[0];
  if (any && at - any.at[any.at.length - 1] < POINT_MS) return h;
  const series: Record<string, LoadSeries> = {};
  for (const [id, l] of Object.entries(load)) {
    series[id] = appendTo(h.series[id], l, at);
    if (l.subtasks.length > 1) for (const s of l.subtasks) series[s.id] = appendTo(h.series[s.id], s, at);
  }
  return { series };
}

/** The newest point of a series: what the current numbers beside its chart show. */
export function latest(s: LoadSeries | undefined): LoadFigures | null {
  if (!s || s.at.length === 0) return null;
  const i = s.at.length - 1;
  return Object.fromEntries(FIELDS.map((f) => [f, s[f][i]])) as unknown as LoadFigures;
}

export const loadHistory = createStore<LoadHistory>({ series: {} });

/** Called with every snapshot the page accepts; a job just loaded starts an empty history. */
export function recordLoad(snap: RunSnapshot, at = Date.now()): void {
  if (snap.status === 'ready' || snap.status === 'idle') {
    if (Object.keys(loadHistory.get().series).length) loadHistory.set({ series: {} });
    return;
  }
  if (snap.status === 'running' && snap.load) loadHistory.set((h) => appendLoad(h, snap.load!, at));
}
