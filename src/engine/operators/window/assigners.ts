/** Which windows an event-time record belongs to, exactly as Flink's window TVFs assign them. */

export interface WindowBounds {
  start: number;
  /** Exclusive. */
  end: number;
}

export interface WindowShape {
  type: 'tumble' | 'hop' | 'session' | 'cumulate';
  sizeMs?: number;
  slideMs?: number;
  gapMs?: number;
  stepMs?: number;
  offsetMs?: number;
}

/** A true modulo: JavaScript's `%` keeps the dividend's sign, which would misplace negative timestamps. */
export const mod = (x: number, m: number): number => ((x % m) + m) % m;

/** Flink's TimeWindow.getWindowStartWithOffset. */
export const windowStart = (ts: number, offset: number, size: number): number => ts - mod(ts - offset, size);

export function tumbleWindows(ts: number, size: number, offset = 0): WindowBounds[] {
  const start = windowStart(ts, offset, size);
  return [{ start, end: start + size }];
}

/** Every [start, start + size) with start ≡ offset (mod slide) that contains ts, latest start first. */
export function hopWindows(ts: number, size: number, slide: number, offset = 0): WindowBounds[] {
  const out: WindowBounds[] = [];
  for (let start = windowStart(ts, offset, slide); start > ts - size; start -= slide) out.push({ start, end: start + size });
  return out;
}

/** [S, S + step), [S, S + 2·step) … [S, S + size) that contain ts, where S is the tumble start for `size`. */
export function cumulateWindows(ts: number, size: number, step: number, offset = 0): WindowBounds[] {
  const start = windowStart(ts, offset, size);
  const out: WindowBounds[] = [];
  for (let end = start + (Math.floor((ts - start) / step) + 1) * step; end <= start + size; end += step) out.push({ start, end });
  return out;
}

/** A session record's own window, before it merges with its neighbours. */
export const sessionWindow = (ts: number, gap: number): WindowBounds => ({ start: ts, end: ts + gap });

/** Flink's TimeWindow.intersects: windows that merely touch still merge into one session. */
export const touches = (a: WindowBounds, b: WindowBounds): boolean => a.start <= b.end && a.end >= b.start;

/** The assigner for the fixed (non-merging) window types. */
export function fixedAssigner(shape: WindowShape): (ts: number) => WindowBounds[] {
  const offset = shape.offsetMs ?? 0;
  const size = shape.sizeMs!;
  switch (shape.type) {
    case 'tumble':
      return (ts) => tumbleWindows(ts, size, offset);
    case 'hop':
      return (ts) => hopWindows(ts, size, shape.slideMs!, offset);
    case 'cumulate':
      return (ts) => cumulateWindows(ts, size, shape.stepMs!, offset);
    default:
      throw new Error(`${shape.type} windows merge; they have no fixed assigner`);
  }
}

/** Max timestamp that still belongs to the window: Flink's TimeWindow.maxTimestamp(), where it fires. */
export const maxTimestamp = (w: WindowBounds): number => w.end - 1;

/**
 * A window's id, `start|end`. Every key of a window asks for the same id (a HOP window aggregate
 * over many keys once per key and window), and writing two 13-digit times as text is most of the
 * cost, so the ids of the last few windows are kept. Exact: equal (===) bounds write equal text
 * (-0 and 0 both write 0; NaN never matches).
 */
const RECENT_IDS = 8;
const idStarts = new Float64Array(RECENT_IDS).fill(NaN);
const idEnds = new Float64Array(RECENT_IDS).fill(NaN);
const ids: string[] = new Array<string>(RECENT_IDS).fill('');
let nextId = 0;

export function windowId(w: WindowBounds): string {
  const { start, end } = w;
  for (let i = 0; i < RECENT_IDS; i++) if (idStarts[i] === start && idEnds[i] === end) return ids[i];
  const id = `${start}|${end}`;
  idStarts[nextId] = start;
  idEnds[nextId] = end;
  ids[nextId] = id;
  nextId = (nextId + 1) % RECENT_IDS;
  return id;
}
