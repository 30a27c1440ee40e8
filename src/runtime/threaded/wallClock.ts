import type { Clock } from '../../core/clock.ts';
import type { TimerService } from '../jobMaster.ts';

/** Real processing time for threaded runs (epoch ms with sub-ms precision). */
export const wallClock: Clock = { now: () => performance.timeOrigin + performance.now() };

/**
 * A yield that lets the event loop handle messages, then continues: a MessageChannel hop costs
 * microseconds, where setTimeout(0) is clamped to 1–4 ms once nested. In Node a port that keeps
 * re-posting to itself starves timers (measured: a 20 ms interval did not fire once in 500 ms of
 * 1 ms slices), so there the yield is setImmediate, which runs after timers and I/O each turn.
 */
export function messageChannelYield(): { yieldNow(cb: () => void): void; close(): void } {
  const immediate = (globalThis as { setImmediate?: (cb: () => void) => unknown }).setImmediate;
  if (immediate) return { yieldNow: (cb) => void immediate(cb), close: () => undefined };
  const ch = new MessageChannel();
  const queue: (() => void)[] = [];
  ch.port1.onmessage = () => queue.shift()?.();
  // In Node an open port keeps the thread alive; the yield must never be the reason it lives on.
  (ch.port1 as unknown as { unref?: () => void }).unref?.();
  (ch.port2 as unknown as { unref?: () => void }).unref?.();
  return {
    yieldNow(cb) {
      queue.push(cb);
      ch.port2.postMessage(null);
    },
    close() {
      ch.port1.close();
      ch.port2.close();
    },
  };
}

/** Real time and timers, for a job master driving real threads: the only place it meets the wall clock. */
export const wallTimers: TimerService = {
  now: () => wallClock.now(),
  every(ms, cb) {
    const t = setInterval(cb, ms);
    return () => clearInterval(t);
  },
  after(ms, cb) {
    const t = setTimeout(cb, ms);
    return () => clearTimeout(t);
  },
  sleep: (ms) => new Promise<void>((r) => setTimeout(r, ms)),
};
