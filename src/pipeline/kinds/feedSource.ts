import type { KindSpec } from '../kindSpec.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { durationMs, fieldList, sourceCommonProps, sourceStream } from './common.ts';
import type { InferProblem } from './common.ts';
import type { CommonSourceParams } from '../../core/source.ts';
import { parseJsonPath } from '../../core/jsonPath.ts';

/**
 * How one message of a live feed holds its records:
 * - `json`: one JSON value; an object is one record, an array holds one record per element;
 * - `jsonArray`: one JSON array of records (anything else is a bad message);
 * - `ndjson`: one JSON object per line of the message;
 * - `csv`: one or more CSV lines without a header, their cells named by `columns`.
 */
export type FeedFormat = 'json' | 'jsonArray' | 'ndjson' | 'csv';

export const FEED_FORMATS: readonly FeedFormat[] = ['json', 'jsonArray', 'ndjson', 'csv'];

/** What a feed does when its replay buffer is full: stop the job, or go on and dead-letter the gap. */
export type FeedBufferPolicy = 'fail' | 'drop';

export interface ReconnectPolicy {
  /** First delay; each attempt doubles it. */
  initialDelayMs: number;
  /** No delay is longer than this. */
  maxDelayMs: number;
  /** Attempts after a drop before giving up; null: for ever. */
  maxAttempts: number | null;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: null };

export type FeedTransportKind = 'websocket' | 'sse';

export interface FeedSourceParams extends CommonSourceParams {
  /** ws:// or wss:// (WebSocket), http:// or https:// (Server-Sent Events). */
  url: string;
  /** Default: by the URL's scheme. */
  transport?: FeedTransportKind;
  format?: FeedFormat;
  /** JSON path to the records in each message, as in `$.data.items`. */
  path?: string;
  /** csv: the name of each cell. */
  columns?: string[];
  delimiter?: string;
  reconnect?: Partial<ReconnectPolicy>;
  /** Messages kept for replay since the oldest retained checkpoint. */
  bufferLimit?: number;
  onBufferFull?: FeedBufferPolicy;
}

export const DEFAULT_FEED_BUFFER = 100_000;

/** The transport a feed uses: the declared one, else the URL's scheme's; null for a scheme neither speaks. */
export function feedTransportOf(params: Pick<FeedSourceParams, 'url' | 'transport'>): FeedTransportKind | null {
  if (params.transport) return params.transport;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(params.url ?? '')?.[1]?.toLowerCase();
  return scheme === 'ws' || scheme === 'wss' ? 'websocket' : scheme === 'http' || scheme === 'https' ? 'sse' : null;
}

export const reconnectPolicyOf = (params: Pick<FeedSourceParams, 'reconnect'>): ReconnectPolicy => ({ ...DEFAULT_RECONNECT, ...params.reconnect });

function feedProblems(p: FeedSourceParams): InferProblem[] {
  const out: InferProblem[] = [];
  const transport = feedTransportOf(p);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(p.url ?? '')?.[1]?.toLowerCase();
  if (!scheme) out.push({ field: 'params.url', message: `"${p.url}" is not a URL; give ws://host:port/path for a WebSocket or http://host:port/path for Server-Sent Events`, code: 'bad-url' });
  else if (transport === null) out.push({ field: 'params.url', message: `a live feed speaks ws://, wss:// (WebSocket) or http://, https:// (Server-Sent Events), not ${scheme}://`, code: 'bad-url' });
  else if (transport === 'websocket' && scheme !== 'ws' && scheme !== 'wss') out.push({ field: 'params.url', message: `a WebSocket URL starts with ws:// or wss://, not ${scheme}://`, code: 'bad-url' });
  else if (transport === 'sse' && scheme !== 'http' && scheme !== 'https') out.push({ field: 'params.url', message: `Server-Sent Events come over http:// or https://, not ${scheme}://`, code: 'bad-url' });
  const path = p.path ? parseJsonPath(p.path) : [];
  if (typeof path === 'string') out.push({ field: 'params.path', message: path, code: 'bad-path' });
  if (p.format === 'csv' && !p.columns?.length) out.push({ field: 'params.columns', message: 'a CSV feed has no header line: declare the name of each cell in columns', code: 'missing-columns' });
  const r = reconnectPolicyOf(p);
  if (r.maxDelayMs < r.initialDelayMs) out.push({ field: 'params.reconnect.maxDelayMs', message: `the longest delay (${r.maxDelayMs} ms) is shorter than the first (${r.initialDelayMs} ms)`, code: 'bad-range' });
  return out;
}

export const feedSourceSpec: KindSpec<FeedSourceParams> = {
  kind: 'feedSource',
  group: 'sources',
  title: 'Live feed',
  endless: true,
  icon: '⇶',
  summary: 'Records as they arrive on a WebSocket or a Server-Sent Events stream.',
  semantics:
    'Connects to `url` and emits the records of each message as +I records, in arrival order; the feed never ends by itself, so the run goes on until it is stopped (the command line stops when the feed closes for good). `transport` is `websocket` for ws:// and wss:// URLs and `sse` (Server-Sent Events over fetch) for http:// and https://; by default the scheme decides. `format` says how a message holds records: `json` (an object, or an array of objects), `jsonArray` (an array of objects), `ndjson` (one object per line) or `csv` (lines without a header, cells named by `columns` and typed by `schema`). `path` (as in `$.data.items`) picks the records out of each JSON message. A message that cannot be read, a record that is not an object, has a field of another type than `schema` declares or lacks the `eventTime` field goes to the dead-letter output with its 1-based message number and the reason, and is counted.\n\n' +
    'After a drop the source reconnects with exponential backoff and jitter (`reconnect`: first delay, longest delay, attempts; for ever by default); a normal close by the server (WebSocket code 1000), HTTP 204 or a 4xx answer ends the feed. The node shows the state: connecting, live with messages per second, reconnecting in N s (attempt k), or closed with the reason (the close code and reason, the HTTP status, or the network error). For SSE the last event id is sent as `Last-Event-ID` on reconnect, so a server that keeps ids can send what was missed.\n\n' +
    '**Exactly-once, and its limit.** A live feed cannot be rewound, so the source keeps every message it received since the oldest retained checkpoint (at most `bufferLimit`; when full, `onBufferFull` fails the job, or drops new messages as one counted dead letter per gap). Offsets count messages. A restart or a travel back in time restores a checkpoint and reads the kept messages from its offset again, so each message received while the job ran lands exactly once. A checkpoint also carries the messages received but not yet read, so a resume in a new process (a reloaded page) reads them too. What is not guaranteed: messages the server sent while the feed was disconnected (unless it replays them, as an SSE server with Last-Event-ID can), and messages a crashed process had read after its last checkpoint. The source runs as one subtask.',
  inputs: [],
  outputs: [{ name: 'out', doc: 'The records of the feed, in arrival order.' }],
  params: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1, description: 'ws://host:port/path (WebSocket) or http://host:port/path (Server-Sent Events).' },
      transport: { enum: ['websocket', 'sse'], description: 'websocket or sse; default: by the URL (ws:// or wss://: websocket, http:// or https://: sse).' },
      format: { enum: [...FEED_FORMATS], description: 'json: an object or an array of objects per message; jsonArray: an array per message; ndjson: one object per line; csv: lines of cells named by columns.' },
      path: { type: 'string', description: 'JSON path to the records in each message, as in $.data.items; default: the whole message.', 'x-weir-visible-when': { format: ['json', 'jsonArray', 'ndjson'] } },
      columns: { ...fieldList('CSV: the name of each cell, in order.'), 'x-weir-visible-when': { format: ['csv'] } },
      delimiter: { type: 'string', minLength: 1, maxLength: 1, description: 'CSV field delimiter; default comma.', 'x-weir-visible-when': { format: ['csv'] } },
      ...sourceCommonProps,
      reconnect: {
        type: 'object',
        description: 'Reconnecting after a drop: exponential backoff with jitter.',
        properties: {
          initialDelayMs: durationMs('Delay before the first attempt; each attempt doubles it (half of it random).'),
          maxDelayMs: durationMs('No delay is longer than this.'),
          maxAttempts: { type: 'integer', minimum: 0, description: 'Attempts in a row before the feed is closed; leave out to try for ever.' },
        },
        additionalProperties: false,
      },
      bufferLimit: { type: 'integer', minimum: 1, description: 'Messages kept for replay after a restart (those since the oldest retained checkpoint); default 100000.' },
      onBufferFull: { enum: ['fail', 'drop'], description: 'When bufferLimit is reached: fail the job, or drop new messages as counted dead letters.' },
    },
    required: ['url'],
    additionalProperties: false,
  },
  defaults: { url: 'ws://127.0.0.1:8080/', format: 'json', eventTime: { field: 'ts', maxOutOfOrdernessMs: 1000 } },
  example: {
    url: 'ws://127.0.0.1:8080/ticks',
    format: 'json',
    path: '$.data',
    schema: { symbol: 'string', price: 'number', ts: 'timestamp' },
    eventTime: { field: 'ts', maxOutOfOrdernessMs: 1000 },
  },
  stateful: false,
  singleSubtask: () => 'a live feed is one connection, read by one subtask',
  infer: ({ params }) => {
    const fromColumns = params.format === 'csv' && params.columns?.length && !params.schema ? Object.fromEntries(params.columns.map((c) => [c, 'string' as FieldType])) : null;
    const { info, problems } = sourceStream(params, (params.schema as Record<string, FieldType> | undefined) ?? fromColumns);
    return { outputs: { out: info }, problems: [...problems, ...feedProblems(params)] };
  },
};
