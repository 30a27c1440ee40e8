import type { LogLine, RunSnapshot } from '../../worker/protocol.ts';

export type Schedule = (fn: () => void) => void;

const nextFrame: Schedule = (fn) => {
  // Hidden pages get no animation frames; a timer keeps their state (lessons, results) current.
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') requestAnimationFrame(() => fn());
  else setTimeout(fn, 0);
};

/**
 * Applies at most one running snapshot per animation frame. The worker posts up to 12.5 a second;
 * when rendering falls behind (a busy or shared CPU) they queue up, and applying each one costs a
 * whole React render and layout that nobody sees. Snapshots carry full state (status, sinks,
 * frame), so the latest one stands for those it replaces, except their log lines, which are kept.
 * Anything but a running snapshot (a step, pause, finish, failure) is applied at once, in order.
 */
export function perFrame(apply: (s: RunSnapshot) => void, schedule: Schedule = nextFrame, applied: () => void = () => {}): (s: RunSnapshot) => void {
  let pending: RunSnapshot | null = null;
  let log: LogLine[] = [];
  const flush = () => {
    const snap = pending;
    if (!snap) return;
    pending = null;
    const merged = log.length === snap.log.length ? snap : { ...snap, log };
    log = [];
    apply(merged);
    applied();
  };
  return (snap) => {
    if (snap.log.length) log = log.length ? log.concat(snap.log) : snap.log;
    const idle = pending === null;
    pending = snap;
    if (snap.status !== 'running') flush();
    else if (idle) schedule(flush);
  };
}
