// Source idleness in the designer's session: a live feed that sends one record and falls silent,
// beside inline rows, into one event-time window. A real WebSocket server on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { ClusterSession } from './clusterSession.ts';
import type { RunSnapshot } from './protocol.ts';
import type { PipelineDocument } from '../pipeline/document.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const schema = { customer: 'string', ts: 'timestamp' };

/** rows (300, one per 10 ms of event time, 5 customers) and feed → union → tumbling 1 s count per customer. */
function doc(url: string, idleTimeoutMs?: number): PipelineDocument {
  const rows = Array.from({ length: 300 }, (_, i) => ({ customer: `c${i % 5}`, ts: i * 10 }));
  return {
    format: 'weir/pipeline',
    version: 1,
    name: `idle-${idleTimeoutMs ?? 'none'}`,
    settings: { parallelism: 2 },
    nodes: [
      { id: 'rows', kind: 'inlineSource', params: { rows, schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'feed', kind: 'feedSource', params: { url, format: 'json', schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) } } },
      { id: 'both', kind: 'union', params: {} },
      { id: 'per_sec', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }] } },
      { id: 'view', kind: 'viewSink', params: {} },
    ],
    edges: [
      { from: { node: 'rows', port: 'out' }, to: { node: 'both', port: 'in' } },
      { from: { node: 'feed', port: 'out' }, to: { node: 'both', port: 'in' } },
      { from: { node: 'both', port: 'out' }, to: { node: 'per_sec', port: 'in' } },
      { from: { node: 'per_sec', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  } as PipelineDocument;
}

/** A feed that sends one record of customer "slow" at event time 0 to each connection, then nothing. */
async function silentAfterOne(): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  cleanups.push(() => {
    for (const c of wss.clients) c.terminate();
    return new Promise((r) => wss.close(r));
  });
  wss.on('connection', (ws) => ws.send(JSON.stringify({ customer: 'slow', ts: 0 })));
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
}

function session() {
  const g = globalThis as { WebSocket?: unknown };
  const had = g.WebSocket;
  g.WebSocket = WebSocket; // the engine worker's global WebSocket, as in a browser
  cleanups.push(() => void (g.WebSocket = had));
  const s = new ClusterSession();
  const snaps: RunSnapshot[] = [];
  s.onSnapshot((x) => snaps.push(x));
  cleanups.push(() => s.stop());
  const until = (pred: (x: RunSnapshot) => boolean, ms = 20_000) =>
    new Promise<RunSnapshot>((resolve, reject) => {
      const t0 = Date.now();
      const poll = () => {
        const hit = snaps.find(pred);
        if (hit) return resolve(hit);
        if (Date.now() - t0 > ms) return reject(new Error(`no snapshot matched; last: ${JSON.stringify({ status: snaps.at(-1)?.status, clock: snaps.at(-1)?.clockMs, view: snaps.at(-1)?.sinks.view?.total })}`));
        setTimeout(poll, 5);
      };
      poll();
    });
  /** Loads the document and waits until the feed's record is received, so the run reads it before any idle timeout. */
  const loadWithRecord = async (d: PipelineDocument) => {
    expect((await s.load(d, { speed: null, checkpointIntervalMs: 20 })).ok).toBe(true);
    for (const t0 = Date.now(); !((snaps.at(-1)?.feeds?.feed?.received ?? 0) >= 1); await new Promise((r) => setTimeout(r, 5))) {
      if (Date.now() - t0 > 20_000) throw new Error('the feed sent nothing');
      s.observe({}); // posts a snapshot with the feeds' state
    }
  };
  return { s, until, loadWithRecord };
}

const windowWatermark = (x: RunSnapshot) => x.metrics.per_sec?.watermark ?? -Infinity;

describe('source idleness in the designer', () => {
  it('without idleTimeoutMs the silent feed holds the window back however long the run goes on', async () => {
    const { s, until, loadWithRecord } = session();
    await loadWithRecord(doc(await silentAfterOne()));
    s.run();
    // Its record arrived, the inline rows are all read, checkpoints completed, and the job's clock ran far past any timeout.
    const late = await until((x) => x.metrics.feed?.recordsOut === 1 && x.metrics.rows?.recordsOut === 300 && x.checkpoints >= 3 && x.clockMs > 2000);
    expect(late.status).toBe('running');
    expect(windowWatermark(late)).toBeLessThan(1000);
    expect(late.sinks.view.total).toBe(0);
  });

  it('with idleTimeoutMs the silent feed goes idle on the job clock and the window fires for the other input', async () => {
    const { s, until, loadWithRecord } = session();
    await loadWithRecord(doc(await silentAfterOne(), 50));
    s.run();
    // 3 windows × 5 customers of the rows, and the feed's one record in the first window.
    const done = await until((x) => x.sinks.view?.total === 16);
    expect(windowWatermark(done)).toBe(Infinity);
    expect(done.status).toBe('running'); // a live feed keeps the designer's run open
    s.setSinkWindow('view', 0, 100);
    const slow = await until((x) => x.sinks.view.rows.some((r) => r.customer === 'slow'));
    expect(slow.sinks.view.rows.find((r) => r.customer === 'slow')).toMatchObject({ n: 1 });
  });
});
