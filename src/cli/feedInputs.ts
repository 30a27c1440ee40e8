import { WebSocket } from 'ws';
import type { JobPlan } from '../pipeline/plan.ts';
import type { FeedSourceParams } from '../pipeline/kinds/feedSource.ts';
import { feedTransportOf } from '../pipeline/kinds/feedSource.ts';
import type { FileSourceParams } from '../pipeline/kinds/fileSource.ts';
import { LiveFeeds } from '../runtime/feeds/liveFeeds.ts';
import type { WebSocketConstructor } from '../runtime/feeds/webSocketTransport.ts';
import { InvalidError } from './io.ts';
import { readText } from './load.ts';
import type { LinesInput } from '../core/source.ts';
import { splitLines } from './inputs.ts';

/** `ws://…`, `wss://…` (WebSocket), `sse+http://…`, `sse+https://…` (Server-Sent Events). */
const FEED_URL = /^(wss?|sse\+https?):\/\//i;

export const isFeedUrl = (value: string): boolean => FEED_URL.test(value);

export interface FeedInput {
  nodeId: string;
  url: string;
  transport: 'websocket' | 'sse';
}

/**
 * Takes the live feeds out of the `--input` list: a URL given to a fileSource or a feedSource
 * (the feedSource's own `url` when none is given), and a file given to a feedSource, read as
 * recorded messages, one per line. What is left is for resolveFileInputs.
 */
export function feedInputs(plan: JobPlan, given: ReadonlyMap<string, string>): { rest: Map<string, string>; feeds: FeedInput[]; recorded: Record<string, LinesInput>; params: Record<string, FeedSourceParams> } {
  const rest = new Map(given);
  const feeds: FeedInput[] = [];
  const recorded: Record<string, LinesInput> = {};
  const params: Record<string, FeedSourceParams> = {};
  const problems: string[] = [];
  for (const [id, value] of given) {
    if (!isFeedUrl(value)) continue;
    rest.delete(id);
    const n = plan.nodes.find((x) => x.id === id);
    if (!n || (n.kind !== 'fileSource' && n.kind !== 'feedSource')) {
      const known = plan.nodes.filter((x) => x.kind === 'fileSource' || x.kind === 'feedSource').map((x) => x.id).join(', ') || '(none)';
      problems.push(`--input ${id}=${value}: ${n ? `node "${id}" is a ${n.kind}, which cannot read a live feed` : `no node "${id}" in the pipeline`}; fileSource and feedSource nodes: ${known}`);
      continue;
    }
    const url = value.replace(/^sse\+/i, '');
    const transport = /^sse\+/i.test(value) ? 'sse' : 'websocket';
    const own = n.params as unknown as FeedSourceParams & FileSourceParams;
    if (n.kind === 'fileSource' && own.format === 'csv') {
      problems.push(`--input ${id}=${value}: fileSource "${id}" reads CSV with a header line, which a feed does not send; make it a feedSource with format "csv" and its columns`);
      continue;
    }
    // A fileSource fed by a URL reads one JSON object per line of each message, its schema and event time unchanged.
    params[id] = n.kind === 'feedSource' ? { ...own, url, transport } : { url, transport, format: 'ndjson', schema: own.schema, eventTime: own.eventTime };
    feeds.push({ nodeId: id, url, transport });
  }
  for (const n of plan.nodes) {
    if (n.kind !== 'feedSource' || feeds.some((f) => f.nodeId === n.id)) continue;
    const file = rest.get(n.id);
    rest.delete(n.id);
    const own = n.params as unknown as FeedSourceParams;
    if (file === undefined) {
      params[n.id] = own;
      feeds.push({ nodeId: n.id, url: own.url, transport: feedTransportOf(own) ?? 'websocket' });
    } else if (file === '-') problems.push(`--input ${n.id}=-: a feedSource reads its feed, not standard input; give it a URL (ws://…, sse+http://…) or a file of recorded messages`);
    else {
      try {
        recorded[n.id] = { name: file, lines: splitLines(readText(file, `the recorded messages of "${n.id}"`)) };
      } catch (e) {
        if (!(e instanceof InvalidError)) throw e;
        problems.push(...e.lines);
      }
    }
  }
  if (problems.length) throw new InvalidError(problems);
  return { rest, feeds, recorded, params };
}

/** The connections of a CLI run: the `ws` package's WebSocket, Node's fetch; a feed that closes ends its source. */
export function cliFeeds(plan: JobPlan, params: Record<string, FeedSourceParams>, retain = 1): LiveFeeds {
  const feedPlan: JobPlan = { ...plan, nodes: plan.nodes.map((n) => (params[n.id] ? { ...n, kind: 'feedSource', params: params[n.id] as unknown as Record<string, unknown> } : n)) };
  return new LiveFeeds(feedPlan, {
    webSocket: WebSocket as unknown as WebSocketConstructor,
    fetch: (input, init) => fetch(input, init),
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>), random: Math.random },
    clock: { now: () => performance.now() },
    retain,
    session: `cli-${process.pid}`,
    endOnClose: true,
  });
}
