// Live feeds on Node worker_threads: the connection and its replay log stay on the job manager's
// thread, the source's worker reads a mirror. A real WebSocket server on 127.0.0.1.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import type { WebSocket as ServerSocket } from 'ws';
import { JobManager } from '../threaded/jobManager.ts';
import type { Spawn } from '../threaded/spawn.ts';
import { WorkerPool } from '../threaded/workerPool.ts';
import { nodeSpawn } from './nodeSpawn.ts';
import { LiveFeeds } from '../feeds/liveFeeds.ts';
import type { WebSocketConstructor } from '../feeds/webSocketTransport.ts';
import { planOrThrow } from '../../testing/runPipeline.ts';
import type { Row } from '../../core/types.ts';

let pool: WorkerPool;
let spawn: Spawn;
beforeAll(async () => {
  pool = new WorkerPool(await nodeSpawn());
  pool.prewarm(3);
  spawn = pool.take;
});
afterAll(() => pool.close());

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const schema = { customer: 'string', ts: 'timestamp' };

/** rows (300, one per 10 ms of event time) and a feed → union → tumbling 1 s count per customer, at parallelism 3. */
function idleDoc(url: string, idleTimeoutMs?: number) {
  const rows = Array.from({ length: 300 }, (_, i) => ({ customer: `c${i % 5}`, ts: i * 10 }));
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'idle',
    nodes: [
      { id: 'rows', kind: 'inlineSource', params: { rows, schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'feed', kind: 'feedSource', params: { url, format: 'json', schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) } } },
      { id: 'both', kind: 'union', params: {}, parallelism: 3 },
      { id: 'per_sec', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }] }, parallelism: 3 },
      { id: 'view', kind: 'viewSink', params: {}, parallelism: 3 },
    ],
    edges: [
      { from: { node: 'rows', port: 'out' }, to: { node: 'both', port: 'in' } },
      { from: { node: 'feed', port: 'out' }, to: { node: 'both', port: 'in' } },
      { from: { node: 'both', port: 'out' }, to: { node: 'per_sec', port: 'in' } },
      { from: { node: 'per_sec', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

async function server(onConnection: (ws: ServerSocket) => void): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  cleanups.push(() => {
    for (const c of wss.clients) c.terminate();
    return new Promise((r) => wss.close(r));
  });
  wss.on('connection', onConnection);
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
}

function feedsOf(doc: unknown): LiveFeeds {
  const f = new LiveFeeds(planOrThrow(doc), {
    webSocket: WebSocket as unknown as WebSocketConstructor,
    fetch,
    timers: { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>), random: () => 0.5 },
    clock: { now: () => performance.now() },
    retain: 3,
    session: 'test',
    endOnClose: true,
  });
  cleanups.push(() => f.stop('test over'));
  f.start();
  return f;
}

const until = async (cond: () => boolean, what: string, ms = 30_000) => {
  for (const t0 = Date.now(); !cond(); await new Promise((r) => setTimeout(r, 5))) if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
};

/**
 * The feed sends one record at event time 0 and falls silent; once the window has published
 * what it will without the feed (or, when nothing can come, once the inline rows are read and
 * well past the timeout), it sends its last record, at 2990, and closes.
 */
async function idleRun(idleTimeoutMs?: number) {
  let last: (() => void) | null = null;
  const url = await server((ws) => {
    ws.send(JSON.stringify({ customer: 'slow', ts: 0 }));
    last = () => {
      ws.send(JSON.stringify({ customer: 'slow', ts: 2990 }));
      ws.close(1000, 'done');
    };
  });
  const doc = idleDoc(url, idleTimeoutMs);
  const previewed: Row[] = [];
  const feeds = feedsOf(doc);
  // The first record is in the feed's log before the job starts, so it is read before any idle timeout.
  await until(() => last !== null && feeds.readers.feed.received >= 1, 'the feed to connect');
  const jm = new JobManager(doc, { spawn, feeds, checkpointIntervalMs: 20, onPreview: (_sink, c) => previewed.push(...c.els.map((e) => e.row)) });
  const run = jm.run();
  if (idleTimeoutMs) await until(() => previewed.length >= 15, 'the windows of the inline rows');
  else {
    await until(() => jm.checkpointHistory().filter((c) => c.status === 'completed').length >= 5, 'checkpoints');
    await new Promise((r) => setTimeout(r, 300));
  }
  const windowsBeforeLast = previewed.length;
  last!();
  const res = await run;
  expect(res.status, res.reason).toBe('finished');
  return { windowsBeforeLast, view: res.views.view };
}

describe('live feeds on worker threads', () => {
  it('without idleTimeoutMs a silent feed holds the windows back at parallelism 3', async () => {
    const { windowsBeforeLast, view } = await idleRun();
    expect(windowsBeforeLast).toBe(0);
    // 3 windows × 5 customers, and both of the feed's records in time.
    expect(view).toHaveLength(17);
  }, 60_000);

  it('with idleTimeoutMs the silent feed goes idle on the worker clock and the other input drives the watermark (parallelism 3)', async () => {
    const { windowsBeforeLast, view } = await idleRun(100);
    expect(windowsBeforeLast).toBeGreaterThanOrEqual(15);
    // The feed's last record (2990) came after its window fired: late, as in Flink.
    expect(view).toHaveLength(16);
    expect(view.find((r) => r.customer === 'slow')).toMatchObject({ n: 1 });
  }, 60_000);

  it('a killed source worker restores from a checkpoint and reads the feed again from its offset: every message counts once', async () => {
    let ws: ServerSocket | null = null;
    const url = await server((c) => void (ws = c));
    const doc = {
      format: 'weir/pipeline',
      version: 1,
      name: 'feed-kill',
      nodes: [
        { id: 'feed', kind: 'feedSource', params: { url, format: 'json', schema: { key: 'string', seq: 'integer' } } },
        { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'seq', as: 'maxSeq' }, { fn: 'countDistinct', field: 'seq', as: 'distinctSeq' }] }, parallelism: 3 },
        { id: 'view', kind: 'viewSink', params: {}, parallelism: 3 },
      ],
      edges: [
        { from: { node: 'feed', port: 'out' }, to: { node: 'agg', port: 'in' } },
        { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    };
    const seq = new Map<string, number>();
    const send = (n: number) => {
      for (let i = 0; i < n; i++) {
        const key = `k${(seq.size + i * 7) % 5}`;
        const s = (seq.get(key) ?? 0) + 1;
        seq.set(key, s);
        ws!.send(JSON.stringify({ key, seq: s }));
      }
    };
    const feeds = feedsOf(doc);
    const lines: string[] = [];
    const jm = new JobManager(doc, { spawn, feeds, checkpointIntervalMs: 20, log: (l) => lines.push(l), restart: { type: 'fixedDelay', delayMs: 20, maxAttempts: 3 } });
    await until(() => ws !== null, 'the feed to connect');
    const run = jm.run();
    send(200);
    await until(() => jm.checkpointHistory().filter((c) => c.status === 'completed').length >= 2, 'two checkpoints');
    send(100);
    // The messages just sent may still be on their way to the source's worker: they die with it, the log keeps them.
    expect(jm.killSubtask('feed#0')).toBe(true);
    await until(() => lines.some((l) => /attempt 2: restoring from checkpoint \d+/.test(l)), 'the restore');
    send(100);
    ws!.close(1000, 'done');
    const res = await run;
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBe(1);
    expect(res.views.view).toHaveLength(seq.size);
    for (const r of res.views.view) {
      expect(r.n, `key ${r.key}`).toBe(seq.get(String(r.key)));
      expect(r.maxSeq, `key ${r.key}`).toBe(r.n);
      expect(r.distinctSeq, `key ${r.key}`).toBe(r.n);
    }
    // Completed checkpoints freed the job manager's log: it holds fewer than the 400 messages sent.
    expect(feeds.readers.feed.buffered()).toBeLessThan(400);
  }, 60_000);

  it("stops the job with the reason when the feed's buffer overflows under onBufferFull 'fail'", async () => {
    let ws: ServerSocket | null = null;
    const url = await server((c) => void (ws = c));
    const doc = {
      format: 'weir/pipeline',
      version: 1,
      name: 'feed-full',
      nodes: [
        { id: 'feed', kind: 'feedSource', params: { url, format: 'json', schema: { key: 'string' }, bufferLimit: 10 } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [{ from: { node: 'feed', port: 'out' }, to: { node: 'view', port: 'in' } }],
    };
    // No checkpoint completes, so nothing is ever freed: the 11th message overflows the buffer.
    const jm = new JobManager(doc, { spawn, feeds: feedsOf(doc), checkpointIntervalMs: null });
    await until(() => ws !== null, 'the feed to connect');
    const run = jm.run();
    for (let i = 0; i < 20; i++) ws!.send(JSON.stringify({ key: `k${i}` }));
    const res = await run;
    expect(res.status).toBe('failed');
    expect(res.reason).toMatch(/live feed "feed" \(ws:.*\): 10 messages are buffered since the oldest retained checkpoint \(the bufferLimit\)/);
    expect(res.restarts).toBe(0);
  }, 60_000);
});
