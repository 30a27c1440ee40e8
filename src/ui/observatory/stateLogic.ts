import type { StateRow } from '../../runtime/observe/types.ts';

/**
 * Flash counters per key: a row that changed gets its counter bumped, and the row alternates
 * between two identical CSS animations by the counter's parity, so the flash restarts without
 * remounting the row or rendering anything per record.
 */
export function bumpFlashes(counters: Map<string, number>, rows: StateRow[]): Map<string, number> {
  for (const r of rows) if (r.changed) counters.set(r.keyText, (counters.get(r.keyText) ?? 0) + 1);
  return counters;
}

/** Frames in a row that a key may change and still flash; beyond that it is simply "changing". */
export const STEADY_AFTER = 3;

/**
 * How many frames in a row each shown key has changed. At high speed every key changes in every
 * frame: a flash restarted 20 times a second says nothing, yet repaints every row on every frame
 * (measured: the State tab at Max went from about 12 to 18 fps without row flashes).
 */
export function changeStreaks(previous: Map<string, number>, rows: StateRow[]): Map<string, number> {
  const next = new Map<string, number>();
  for (const r of rows) if (r.changed) next.set(r.keyText, (previous.get(r.keyText) ?? 0) + 1);
  return next;
}

export const isSteady = (streaks: Map<string, number>, keyText: string): boolean => (streaks.get(keyText) ?? 0) > STEADY_AFTER;

export const flashClass = (counters: Map<string, number>, keyText: string): string => {
  const n = counters.get(keyText);
  return n === undefined ? '' : n % 2 ? ' obs-flash-a' : ' obs-flash-b';
};

/** The soonest TTL expiry of a row's descriptors, or null when none has TTL. */
export function soonestTtl(row: StateRow): number | null {
  let min: number | null = null;
  for (const v of Object.values(row.ttlMs)) if (v !== null && (min === null || v < min)) min = v;
  return min;
}

/**
 * Which rows of the virtual window to ask the engine for: some rows beyond each edge, the offset
 * moved in steps so that a slow scroll does not send a request per pixel.
 */
export function stateWindow(scrollTop: number, height: number, rowHeight: number, overscan = 20): { offset: number; limit: number } {
  const first = Math.floor(scrollTop / rowHeight);
  const step = Math.max(1, Math.floor(overscan / 2));
  const offset = Math.max(0, Math.floor((first - overscan) / step) * step);
  return { offset, limit: Math.ceil(height / rowHeight) + 1 + overscan * 2 + step };
}
