import type { PaneObservation } from '../../runtime/observe/types.ts';

export interface PaneLayout {
  keys: string[];
  /** Domain of the time axis, ms of event time. */
  from: number;
  to: number;
  x(t: number): number;
  bars: { pane: PaneObservation; row: number; x: number; width: number }[];
  /** x of the watermark line, or null when it is outside the axis or unknown. */
  watermarkX: number | null;
  hiddenKeys: number;
}

/**
 * Lays panes out on a time axis: one row per key (the first `maxKeys` keys in order of their
 * earliest pane), x scaled to `width`. Pure, so the SVG only draws what this returns.
 */
export function layoutPanes(panes: PaneObservation[], watermark: number | null, width: number, maxKeys = 12): PaneLayout {
  const keyOf = (p: PaneObservation) => JSON.stringify(p.key);
  const sorted = [...panes].sort((a, b) => a.start - b.start);
  const keys: string[] = [];
  for (const p of sorted) if (!keys.includes(keyOf(p))) keys.push(keyOf(p));
  const shown = keys.slice(0, maxKeys);
  const visible = sorted.filter((p) => shown.includes(keyOf(p)));
  let from = Math.min(...visible.map((p) => p.start));
  let to = Math.max(...visible.map((p) => p.end));
  if (!visible.length) [from, to] = [0, 1];
  if (watermark !== null && Number.isFinite(watermark)) {
    // Keep the watermark in view when it is near the panes, so a learner sees what it passed.
    const span = to - from;
    if (watermark >= from - span * 0.25 && watermark < from) from = watermark;
    if (watermark <= to + span * 0.25 && watermark > to) to = watermark;
  }
  const span = Math.max(1, to - from);
  const x = (t: number) => ((t - from) / span) * width;
  const bars = visible.map((pane) => ({ pane, row: shown.indexOf(keyOf(pane)), x: x(pane.start), width: Math.max(2, x(pane.end) - x(pane.start) - 1) }));
  const watermarkX = watermark !== null && Number.isFinite(watermark) && watermark >= from && watermark <= to ? x(watermark) : null;
  return { keys: shown.map((k) => JSON.parse(k) as string), from, to, x, bars, watermarkX, hiddenKeys: keys.length - shown.length };
}

/** Points of a source's event-time vs processing-time plot, scaled into a w × h box (y grows upward). */
export function scatterPoints<P extends { processingTime: number; eventTime: number }>(points: P[], w: number, h: number): { p: P; x: number; y: number }[] {
  if (!points.length) return [];
  const px = points.map((p) => p.processingTime);
  const ev = points.map((p) => p.eventTime);
  const [x0, x1] = [Math.min(...px), Math.max(...px)];
  const [y0, y1] = [Math.min(...ev), Math.max(...ev)];
  const sx = (v: number) => (x1 === x0 ? w / 2 : ((v - x0) / (x1 - x0)) * w);
  const sy = (v: number) => (y1 === y0 ? h / 2 : h - ((v - y0) / (y1 - y0)) * h);
  return points.map((p) => ({ p, x: sx(p.processingTime), y: sy(p.eventTime) }));
}
