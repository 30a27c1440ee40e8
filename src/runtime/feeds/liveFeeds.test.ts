// Live feeds against real local servers on 127.0.0.1: a WebSocket server (the ws package) and a
// Node http server speaking Server-Sent Events. Waits are for conditions, never for fixed times.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { planOrThrow } from '../../testing/runPipeline.ts';
import { ManualClock } from '../../core/clock.ts';
import { LiveFeeds } from './liveFeeds.ts';
import type { WebSocketConstructor } from './webSocketTransport.ts';
import { SseParser } from './sseTransport.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const plan = (url: string, extra: Record<string, unknown> = {}) =>
  planOrThrow({
    format: 'weir/pipeline',
    version: 1,
    name: 'f',
    nodes: [
      { id: 'feed', kind: 'feedSource', params: { url, format: 'json', reconnect: { initialDelayMs: 20, maxDelayMs: 40 }, ...extra } },
      { id: 'view', kind: 'viewSink', params: {} },
    ],
    edges: [{ from: { node: 'feed', port: 'out' }, to: { node: 'view', port: 'in' } }],
  });

function feeds(url: string, extra: Record<string, unknown> = {}, endOnClose = false): LiveFeeds {
  const f = new LiveFeeds(plan(url, extra), {
    webSocket: WebSocket as unknown as WebSocketConstructor,
    fetch,
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>), random: () => 0.5 },
    clock: new ManualClock(0),
    retain: 2,
    session: 'test',
    endOnClose,
  });
  cleanups.push(() => f.stop('test over'));
  f.start();
  return f;
}

const values = (f: LiveFeeds) => f.readers.feed.read(1000).map((r) => r.value ?? r.error);

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return (server.address() as AddressInfo).port;
}

describe('a WebSocket feed', () => {
  it('goes live, reads messages, reconnects after a drop, and closes with the server\'s code and reason', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    cleanups.push(() => new Promise((r) => wss.close(r)));
    let connections = 0;
    wss.on('connection', (ws) => {
      connections++;
      if (connections === 1) {
        ws.send('{"n":1}');
        ws.send('not json');
        ws.terminate(); // a drop without a close frame
      } else {
        ws.send('[{"n":2},{"n":3}]');
        ws.close(1000, 'feed over');
      }
    });
    const f = feeds(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ticks`);
    await vi.waitFor(() => expect(f.statuses().feed.phase).toBe('closed'), { timeout: 10_000 });
    expect(connections).toBe(2);
    expect(f.statuses().feed).toMatchObject({ reason: 'server closed the connection (1000 feed over)', received: 3 });
    expect(values(f)).toEqual([{ n: 1 }, expect.stringMatching(/^message 2: not valid JSON/), { n: 2 }, { n: 3 }]);
    // The designer keeps a closed feed's source open: the run goes on until the user stops it.
    expect(f.readers.feed.done()).toBe(false);
  });

  it('says when nothing listens, and gives up after the attempts allowed', async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise((r) => server.close(r));
    const f = feeds(`ws://127.0.0.1:${port}/`, { reconnect: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 2 } }, true);
    await vi.waitFor(() => expect(f.statuses().feed.phase).toBe('closed'), { timeout: 10_000 });
    expect(f.statuses().feed.reason).toBe(`could not connect to ws://127.0.0.1:${port}/ (refused, unreachable or not a WebSocket server); gave up after 2 reconnect attempts`);
    expect(f.readers.feed.done()).toBe(true);
  });
});

describe('a Server-Sent Events feed', () => {
  it('reads events, sends Last-Event-ID when it reconnects, and closes on HTTP 204', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      if (seen.length === 3) return res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (seen.length === 1) res.end(': hello\n\nid: 7\ndata: {"data":{"items":[{"n":1},\ndata: {"n":2}]}}\n\nevent: tick\ndata: {"data":{"items":[]}}\r\n\r\n');
      else res.end('id: 8\ndata: {"data":{"items":[{"n":3}]}}\n\n');
    });
    const port = await listen(server);
    const f = feeds(`http://127.0.0.1:${port}/events`, { path: '$.data.items' });
    await vi.waitFor(() => expect(f.statuses().feed.phase).toBe('closed'), { timeout: 10_000 });
    expect(f.statuses().feed.reason).toBe('HTTP 204 No Content: the server says the feed is over');
    expect(seen.map((h) => h['last-event-id'])).toEqual([undefined, '7', '8']);
    expect(values(f)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('closes on a 404 with the status, and reconnects after a 503', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      res.writeHead(calls === 1 ? 503 : 404).end();
    });
    const port = await listen(server);
    const f = feeds(`http://127.0.0.1:${port}/missing`);
    await vi.waitFor(() => expect(f.statuses().feed.phase).toBe('closed'), { timeout: 10_000 });
    expect(calls).toBe(2);
    expect(f.statuses().feed.reason).toBe('HTTP 404 Not Found');
  });
});

describe('SseParser', () => {
  it('joins data lines, keeps ids, skips comments, and survives CRLF split across chunks', () => {
    const got: [string, string | undefined][] = [];
    const p = new SseParser((d, id) => got.push([d, id]));
    for (const c of ['data: a\r', '\ndata:b\r\n', '\r\n: c\nid: 1\ndata\n\n', 'data: x']) p.push(c);
    expect(got).toEqual([
      ['a\nb', undefined],
      ['', '1'],
    ]);
  });
});
