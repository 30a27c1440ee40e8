import { useRef } from 'react';

export interface Held<T> {
  value: T;
  at: number;
}

/**
 * The value to show: the new one, unless a job is running and the shown one is younger than `ms`.
 * At Max speed a list like the trace is replaced whole 20 times a second, faster than anyone reads it,
 * and each replacement rebuilds hundreds of DOM nodes; a few refreshes a second say the same. Anything
 * but running (paused, stepping, finished) shows at once, so a step or a breakpoint is never late.
 */
export function hold<T>(prev: Held<T> | null, value: T, running: boolean, now: number, ms: number): Held<T> {
  if (prev && (prev.value === value || (running && now - prev.at < ms))) return prev;
  return { value, at: now };
}

/** `hold` across renders; the returned value keeps its identity while held, so memoised children skip. */
export function useHeldWhileRunning<T>(value: T, running: boolean, ms: number): T {
  const held = useRef<Held<T> | null>(null);
  held.current = hold(held.current, value, running, performance.now(), ms);
  return held.current.value;
}
