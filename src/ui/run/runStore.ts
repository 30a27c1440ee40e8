import type { LogLine, RunSnapshot } from '../../worker/protocol.ts';
import { createStore } from '../store/createStore.ts';

export interface RunState {
  snapshot: RunSnapshot | null;
  /** Every log line so far (capped), including the designer's own messages. */
  log: LogLine[];
  /** Speed in records per second, or null for as fast as possible. */
  speed: number | null;
  busy: boolean;
}

export const LOG_CAP = 2000;

export const runStore = createStore<RunState>({ snapshot: null, log: [], speed: 50, busy: false });

let localSeq = 1e9;

/** Log lines written by the designer itself (a refused start, a trust decision). */
export function logLocal(level: LogLine['level'], message: string, node?: string): void {
  const line: LogLine = { seq: ++localSeq, level, at: runStore.get().snapshot?.clockMs ?? 0, message, node };
  runStore.set((s) => ({ ...s, log: [...s.log, line].slice(-LOG_CAP) }));
}

export function acceptSnapshot(snap: RunSnapshot): void {
  runStore.set((s) => ({ ...s, snapshot: snap, log: snap.log.length ? [...s.log, ...snap.log].slice(-LOG_CAP) : s.log }));
}

export const isActive = (s: RunState): boolean => s.snapshot !== null && ['ready', 'running', 'paused', 'finished', 'failed'].includes(s.snapshot.status);
