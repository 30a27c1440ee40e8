import type { LogLine, Resumable, RunSnapshot } from '../../worker/protocol.ts';
import type { ObservationFrame, ObserveRequest } from '../../runtime/observe/types.ts';
import { createStore } from '../store/createStore.ts';
import { liveEngine } from './engineClient.ts';
import { recordLoad } from './loadHistory.ts';
import { keepUnchanged } from './stableSinks.ts';

export interface RunState {
  snapshot: RunSnapshot | null;
  /** The observatory's latest frame (null until a job is loaded or while it has none). */
  frame: ObservationFrame | null;
  /** Every log line so far (capped), including the designer's own messages. */
  log: LogLine[];
  /** Speed in records per second, or null for as fast as possible. */
  speed: number | null;
  busy: boolean;
  /** A checkpoint this project can resume from after a reload, until the person decides. */
  resumeOffer: Resumable | null;
}

export const LOG_CAP = 2000;

export const runStore = createStore<RunState>({ snapshot: null, frame: null, log: [], speed: 50, busy: false, resumeOffer: null });

let localSeq = 1e9;

/** Log lines written by the designer itself (a refused start, a trust decision). */
export function logLocal(level: LogLine['level'], message: string, node?: string): void {
  const line: LogLine = { seq: ++localSeq, level, at: runStore.get().snapshot?.clockMs ?? 0, message, node };
  runStore.set((s) => ({ ...s, log: [...s.log, line].slice(-LOG_CAP) }));
}

export function acceptSnapshot(snap: RunSnapshot): void {
  recordLoad(snap);
  runStore.set((s) => ({ ...s, snapshot: { ...snap, sinks: keepUnchanged(s.snapshot?.sinks, snap.sinks) }, frame: snap.frame ?? null, log: snap.log.length ? [...s.log, ...snap.log].slice(-LOG_CAP) : s.log }));
}

/**
 * What an observatory panel looks at (node, subtask, state window, search, query…): merged into
 * the worker's current request, so the next frames carry it. Panels call this, never the worker.
 */
export function observe(req: Partial<ObserveRequest>): void {
  void liveEngine()?.observe(req);
}

export const isActive = (s: RunState): boolean => s.snapshot !== null && ['ready', 'running', 'paused', 'finished', 'failed'].includes(s.snapshot.status);
