import type { PaneObservation } from '../../runtime/observe/types.ts';

export interface PaneLayout {
  keys: string[];
  /** Domain of the time axis, ms of event time. */
  from: number;
  to: number;
  x(t: number): number;
  bars: { pane: PaneObservation; row: number; x: number; width: number }[];
  /** x of the watermark line, or null when it is unknown; held at an end when it is off the axis. */
  watermarkX: number | null;
  /** Which side of the axis the watermark lies beyond, if it does not fall on it. */
  watermarkOff: 'before' | 'after' | null;
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
  const known = watermark !== null && watermark !== -Infinity && visible.length > 0;
  const watermarkOff = !known ? null : watermark < from ? 'before' : watermark > to ? 'after' : null;
  const watermarkX = !known ? null : watermarkOff === 'before' ? 0 : watermarkOff === 'after' ? width : x(watermark);
  return { keys: shown.map((k) => JSON.parse(k) as string), from, to, x, bars, watermarkX, watermarkOff, hiddenKeys: keys.length - shown.length };
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

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Tick steps people count event time in: round milliseconds, seconds, minutes, hours, days. */
const STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, SECOND, 2 * SECOND, 5 * SECOND, 10 * SECOND, 15 * SECOND, 30 * SECOND, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY];

/** Event times above this are epoch milliseconds (shown as UTC clock times); below it, plain ms. */
const EPOCH_LIKE = 1e11;

export interface TimeTick {
  t: number;
  x: number;
  label: string;
}

/**
 * Ticks of an event-time axis from `from` to `to` drawn `width` px wide: the smallest round step
 * that leaves at least `minGap` px between ticks, each labelled only as finely as the step needs
 * (12:04 for minutes, 12:04:30 for seconds, 12:04:30.250 below a second).
 */
export function timeTicks(from: number, to: number, width: number, minGap = 64): TimeTick[] {
  const span = to - from;
  if (!(span > 0) || !Number.isFinite(span) || width <= 0) return [];
  const wanted = (span * minGap) / width;
  const step = STEPS.find((s) => s >= wanted) ?? Math.ceil(wanted / (7 * DAY)) * 7 * DAY;
  const epoch = Math.abs(from) > EPOCH_LIKE;
  const label = (t: number) => {
    if (!epoch) return String(t);
    const iso = new Date(t).toISOString();
    if (step >= DAY) return iso.slice(0, 10);
    if (step >= MINUTE) return iso.slice(11, 16);
    if (step >= SECOND) return iso.slice(11, 19);
    return iso.slice(11, 23);
  };
  const ticks: TimeTick[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push({ t, x: ((t - from) / span) * width, label: label(t) });
  return ticks;
}
