import type { EdgeObservation } from '../../runtime/observe/types.ts';

const NUM = String.raw`(-?[\d.]+(?:e-?\d+)?)`;
const CUBIC = new RegExp(String.raw`^M${NUM},${NUM} C${NUM},${NUM} ${NUM},${NUM} ${NUM},${NUM}$`);

/**
 * The point at `progress` (0..1) along an edge's path. React Flow draws a bezier edge as one cubic
 * curve ("M x,y C c1 c2 end"), so the curve is evaluated directly: no DOM, no layout read per frame.
 * Any other path shape falls back to the straight line between its ends.
 */
export function pointOnEdge(path: string, progress: number, from: [number, number], to: [number, number]): [number, number] {
  const t = Math.min(1, Math.max(0, progress));
  const m = CUBIC.exec(path.trim());
  if (!m) return [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t];
  const [x0, y0, x1, y1, x2, y2, x3, y3] = m.slice(1).map(Number);
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return [a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3];
}

/** Backpressure colour band of a queue fill: green below 50 %, amber below 85 %, red above. */
export const pressureBand = (fill: number): 'low' | 'mid' | 'high' => (fill < 0.5 ? 'low' : fill < 0.85 ? 'mid' : 'high');

/** The changelog kinds an edge carries, in changelog order; empty for an append-only edge. */
export function changelogKinds(kinds: EdgeObservation['kinds']): string[] {
  const order = ['+I', '-U', '+U', '-D'] as const;
  const seen = order.filter((k) => (kinds[k] ?? 0) > 0);
  return seen.length === 1 && seen[0] === '+I' ? [] : seen;
}

/** What an edge's overlay shows; two observations with the same signature draw the same. */
export const edgeSignature = (e: EdgeObservation | undefined): string =>
  e ? `${e.rate.toFixed(1)}|${e.fill.toFixed(2)}|${e.watermark}|${changelogKinds(e.kinds).join('')}|${e.barriers.map((b) => `${b.checkpointId}@${b.progress.toFixed(3)}`).join(',')}` : '';
