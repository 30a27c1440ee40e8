import type { Clock } from '../core/clock.ts';
import type { ReconnectPolicy } from '../pipeline/kinds/feedSource.ts';

/** Why a connection ended, as the transport saw it. */
export interface FeedClose {
  /** server: it closed the connection; http: it answered with a status; network: it could not be reached or dropped; protocol: it sent what the feed cannot read. */
  kind: 'server' | 'http' | 'network' | 'protocol';
  /** For people: "server closed the connection (1000 feed over)", "HTTP 503 Service Unavailable". */
  text: string;
  /** Whether trying again can help (a 404 or a normal close will not). */
  retry: boolean;
  /** The server ended the feed as meant (WebSocket 1000, HTTP 204), not as a fault. */
  clean?: boolean;
}

export interface FeedHandlers {
  open(): void;
  /** One message; `id` is an SSE event id, sent back as Last-Event-ID on reconnect. */
  message(text: string, id?: string): void;
  close(why: FeedClose): void;
}

/** Opens one connection; `lastEventId` is the last SSE id seen (null: none). Returns how to close it. */
export type FeedTransport = (url: string, lastEventId: string | null, on: FeedHandlers) => { close(): void };

/** setTimeout and randomness, injected so backoff is tested without waiting. */
export interface FeedTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  random(): number;
}


export type FeedPhase = 'connecting' | 'live' | 'reconnecting' | 'closed';

/** What the designer shows on the node. */
export interface FeedStatus {
  phase: FeedPhase;
  /** Reconnect attempt (1 = the first retry); 0 on the first connection. */
  attempt: number;
  /** reconnecting: when the next attempt starts, on the feed's clock. */
  retryAt: number | null;
  /** reconnecting: how long until then (another thread's clock has another origin). */
  retryInMs: number | null;
  /** Why the last connection ended (reconnecting, closed). */
  reason: string | null;
  /** Messages received over the last second. */
  ratePerSec: number;
  received: number;
}

/**
 * The delay before reconnect attempt `attempt` (1-based): exponential, bounded by maxDelayMs, with
 * "equal jitter" (half fixed, half random) so many clients do not come back at the same instant.
 */
export function backoffDelay(policy: ReconnectPolicy, attempt: number, random: number): number {
  const exp = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(exp / 2 + (exp / 2) * random);
}

const RATE_BUCKET_MS = 250;

/**
 * Keeps one live feed connected: opens it, hands each message on, and after a drop tries again
 * with exponential backoff and jitter until the policy gives up. A close that retrying cannot help
 * (a normal close by the server, a 404) ends it. Pure: the transport, timers, randomness and the
 * clock are injected.
 */
export class FeedConnection {
  private phase: FeedPhase = 'connecting';
  private attempt = 0;
  private retryAt: number | null = null;
  private reason: string | null = null;
  private conn: { close(): void } | null = null;
  private timer: unknown = null;
  private lastEventId: string | null = null;
  private received = 0;
  private readonly buckets: { at: number; n: number }[] = [];
  /** Increases with every connection, so a late callback of an old one is ignored. */
  private generation = 0;

  constructor(
    private readonly url: string,
    private readonly transport: FeedTransport,
    private readonly policy: ReconnectPolicy,
    private readonly timers: FeedTimers,
    private readonly clock: Clock,
    /** `ended` says whether the end was clean: a normal close by the server, or `stop`. */
    private readonly on: { message(text: string): void; ended(reason: string, clean: boolean): void; changed?(s: FeedStatus): void },
  ) {}

  start(): void {
    if (this.conn || this.phase === 'closed') return;
    this.connect();
  }

  /** The user stopped the run: close for good. */
  stop(reason = 'stopped'): void {
    if (this.phase === 'closed') return;
    this.timers.clear(this.timer);
    this.timer = null;
    this.generation++;
    this.conn?.close();
    this.conn = null;
    this.end(reason, true);
  }

  status(): FeedStatus {
    const now = this.clock.now();
    let n = 0;
    for (const b of this.buckets) if (b.at + RATE_BUCKET_MS > now - 1000) n += b.n;
    const retryInMs = this.retryAt === null ? null : Math.max(0, this.retryAt - now);
    return { phase: this.phase, attempt: this.attempt, retryAt: this.retryAt, retryInMs, reason: this.reason, ratePerSec: n, received: this.received };
  }

  private connect(): void {
    const gen = ++this.generation;
    this.phase = 'connecting';
    this.retryAt = null;
    this.changed();
    const mine = () => gen === this.generation;
    this.conn = this.transport(this.url, this.lastEventId, {
      open: () => {
        if (!mine()) return;
        this.phase = 'live';
        this.attempt = 0;
        this.reason = null;
        this.changed();
      },
      message: (text, id) => {
        if (!mine()) return;
        if (id !== undefined) this.lastEventId = id;
        this.received++;
        this.count();
        this.on.message(text);
      },
      close: (why) => {
        if (!mine()) return;
        this.generation++;
        this.conn = null;
        this.dropped(why);
      },
    });
  }

  private dropped(why: FeedClose): void {
    this.reason = why.text;
    const limit = this.policy.maxAttempts;
    if (!why.retry) return this.end(why.text, why.clean === true);
    if (limit !== null && this.attempt >= limit) return this.end(`${why.text}; gave up after ${limit} reconnect attempt${limit === 1 ? '' : 's'}`, false);
    this.attempt++;
    const delay = backoffDelay(this.policy, this.attempt, this.timers.random());
    this.phase = 'reconnecting';
    this.retryAt = this.clock.now() + delay;
    this.changed();
    this.timer = this.timers.set(() => {
      this.timer = null;
      if (this.phase === 'reconnecting') this.connect();
    }, delay);
  }

  private end(reason: string, clean: boolean): void {
    this.phase = 'closed';
    this.reason = reason;
    this.retryAt = null;
    this.changed();
    this.on.ended(reason, clean);
  }

  private count(): void {
    const at = Math.floor(this.clock.now() / RATE_BUCKET_MS) * RATE_BUCKET_MS;
    const last = this.buckets[this.buckets.length - 1];
    if (last && last.at === at) last.n++;
    else {
      this.buckets.push({ at, n: 1 });
      if (this.buckets.length > 5) this.buckets.shift();
    }
  }

  private changed(): void {
    this.on.changed?.(this.status());
  }
}
