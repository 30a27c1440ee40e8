import type { RunSnapshot } from './protocol.ts';

/** With credit, a running snapshot waits for the previous one's ack, but never longer than this. */
const CREDIT_WAIT_MS = 1000;

/**
 * What every engine session shares with the page, whichever runtime runs the job: one listener
 * for snapshots with optional credit, and one control queue so loads, stops and steps never
 * interleave. Both sessions (in-process and on Web Workers) build on it, so the page sees one
 * protocol.
 */
export abstract class SessionChannel {
  protected listener: ((s: RunSnapshot) => void) | null = null;
  private credit = false;
  private unacked = false;
  private lastPost = -Infinity;
  /** Per sink, the rows version the listener said it holds: samples of that version leave the rows out. */
  protected heldRows: Readonly<Record<string, number>> = {};
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * `credit`: the listener calls snapshotApplied() once it has shown a snapshot, and running
   * snapshots are not produced before that. A UI that renders slower than the snapshot rate then costs the job
   * only the frames it can show: no frame production, cloning or decoding of snapshots it would drop.
   */
  onSnapshot(l: (s: RunSnapshot) => void, opts: { credit?: boolean } = {}): void {
    this.listener = l;
    this.credit = opts.credit ?? false;
    this.unacked = false;
    this.heldRows = {};
  }

  snapshotApplied(heldRows: Record<string, number> = {}): void {
    this.unacked = false;
    this.heldRows = heldRows;
  }

  /** Runs `fn` after every control call queued before it, whether those succeeded or failed. */
  protected serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Whether a snapshot may be posted at `now` (and if so, counts it as posted): always when forced,
   * otherwise at most every `minGapMs` and, with credit, only once the last one was shown.
   */
  protected mayPost(now: number, force: boolean, minGapMs = 0): this is { listener: (s: RunSnapshot) => void } {
    if (!this.listener) return false;
    const gap = now - this.lastPost;
    if (!force && (gap < minGapMs || (this.unacked && gap < CREDIT_WAIT_MS))) return false;
    this.lastPost = now;
    this.unacked = this.credit;
    return true;
  }
}
