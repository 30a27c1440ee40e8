import type { Clock } from '../../core/clock.ts';
import { FeedConnection } from '../../engine/feedConnection.ts';
import type { FeedStatus, FeedTimers, FeedTransport } from '../../engine/feedConnection.ts';
import type { FeedLog } from '../../engine/feedLog.ts';
import { feedLog } from '../../engine/operators/feedSource.ts';
import type { FeedSourceParams } from '../../pipeline/kinds/feedSource.ts';
import { feedTransportOf, reconnectPolicyOf } from '../../pipeline/kinds/feedSource.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import { sseTransport } from './sseTransport.ts';
import { webSocketTransport } from './webSocketTransport.ts';
import type { WebSocketConstructor } from './webSocketTransport.ts';

/** A feed's state as the node shows it: the connection's, and the replay buffer's. */
export interface FeedNodeStatus extends FeedStatus {
  url: string;
  /** Messages kept for replay now. */
  buffered: number;
  /** Messages dropped because the buffer was full ('drop' policy). */
  dropped: number;
}

export interface LiveFeedsOptions {
  /** The WebSocket class: the global one in a browser, the `ws` package's in Node. */
  webSocket: WebSocketConstructor | null;
  fetch: typeof fetch;
  timers: FeedTimers;
  clock: Clock;
  /** Completed checkpoints the job retains: time travel may go back to the oldest. */
  retain: number;
  /** Unique to this process, so a resume can tell a checkpoint of another process. */
  session: string;
  /**
   * A feed that closes for good ends its source (watermark +∞, the job may finish): the command
   * line. The designer keeps the source open, so the run stays until the user stops it.
   */
  endOnClose: boolean;
  /** A feed connected, dropped, or closed. */
  onChange?(id: string, s: FeedStatus): void;
}

/**
 * The connections of a job's live feed sources. The job reads each through its FeedLog (handed to
 * the cluster as the node's reader), which outlives restarts of the job's attempts.
 */
export class LiveFeeds {
  readonly readers: Record<string, FeedLog> = {};
  private readonly conns = new Map<string, { conn: FeedConnection; url: string }>();
  private readonly ended = new Map<string, { reason: string; clean: boolean }>();
  /** Called after each message, for a host that runs the job when input arrives. */
  onMessage: (() => void) | null = null;

  constructor(plan: JobPlan, opts: LiveFeedsOptions) {
    for (const n of plan.nodes) {
      if (n.kind !== 'feedSource') continue;
      const params = n.params as unknown as FeedSourceParams;
      const log = feedLog(n.id, params, { retain: opts.retain, session: opts.session });
      const transport = this.transport(params, opts);
      const conn = new FeedConnection(params.url, transport, reconnectPolicyOf(params), opts.timers, opts.clock, {
        message: (text) => {
          log.push(text);
          this.onMessage?.();
        },
        ended: (reason, clean) => {
          this.ended.set(n.id, { reason, clean });
          if (opts.endOnClose) log.end();
          this.onMessage?.();
        },
        changed: (s) => opts.onChange?.(n.id, s),
      });
      this.readers[n.id] = log;
      this.conns.set(n.id, { conn, url: params.url });
    }
  }

  private transport(params: FeedSourceParams, opts: LiveFeedsOptions): FeedTransport {
    if (feedTransportOf(params) === 'sse') return sseTransport(opts.fetch);
    const WS = opts.webSocket;
    if (WS) return webSocketTransport(WS);
    return (url, _id, on) => {
      queueMicrotask(() => on.close({ kind: 'protocol', text: `this runtime has no WebSocket client to open ${url}`, retry: false }));
      return { close: () => undefined };
    };
  }

  get size(): number {
    return this.conns.size;
  }

  start(): void {
    for (const { conn } of this.conns.values()) conn.start();
  }

  stop(reason: string): void {
    for (const { conn } of this.conns.values()) conn.stop(reason);
  }

  /** Feeds closed for good, with their reasons; clean: by the server's normal close, a 204, or a stop. */
  closed(): ReadonlyMap<string, { reason: string; clean: boolean }> {
    return this.ended;
  }

  statuses(): Record<string, FeedNodeStatus> {
    const out: Record<string, FeedNodeStatus> = {};
    for (const [id, { conn, url }] of this.conns) {
      const log = this.readers[id];
      out[id] = { ...conn.status(), url, buffered: log.buffered(), dropped: log.dropped };
    }
    return out;
  }
}
