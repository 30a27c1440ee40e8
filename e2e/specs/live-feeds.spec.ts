// Live feeds in the designer: the test starts its own WebSocket and Server-Sent Events servers on
// 127.0.0.1, records arrive while the job runs, each node says "live", and when the servers end
// their feeds the nodes say "closed" with the reason.
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { test } from '../harness.ts';
import { importDoc, node, openRunSettings } from './designer-helpers.spec.ts';

const doc = (wsPort: number, ssePort: number) => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'live feeds (e2e)',
  nodes: [
    {
      id: 'ticks',
      kind: 'feedSource',
      params: { url: `ws://127.0.0.1:${wsPort}/ticks`, format: 'json', path: '$.data', schema: { sym: 'string', px: 'number', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } },
      position: { x: 0, y: 60 },
    },
    { id: 'per_sym', kind: 'aggregate', params: { groupBy: ['sym'], aggregates: [{ fn: 'count', as: 'ticks' }, { fn: 'max', field: 'px', as: 'high' }] }, position: { x: 340, y: 60 } },
    { id: 'prices', kind: 'viewSink', params: { primaryKey: ['sym'] }, position: { x: 660, y: 60 } },
    {
      id: 'news',
      kind: 'feedSource',
      params: { url: `http://127.0.0.1:${ssePort}/news`, format: 'json', schema: { headline: 'string', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } },
      position: { x: 0, y: 330 },
    },
    { id: 'headlines', kind: 'viewSink', params: {}, position: { x: 660, y: 330 } },
  ],
  edges: [
    { id: 'e1', from: { node: 'ticks', port: 'out' }, to: { node: 'per_sym', port: 'in' } },
    { id: 'e2', from: { node: 'per_sym', port: 'out' }, to: { node: 'prices', port: 'in' } },
    { id: 'e3', from: { node: 'news', port: 'out' }, to: { node: 'headlines', port: 'in' } },
  ],
});

test('live feeds: WebSocket and SSE records arrive live, then the nodes say closed with the reason', async (t) => {
  // A WebSocket server that sends a tick every 100 ms until told to close.
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const sockets = new Set<WebSocket>();
  let n = 0;
  const ticker = setInterval(() => {
    n++;
    const msg = JSON.stringify({ data: [{ sym: n % 2 ? 'ACME' : 'GLOBEX', px: 100 + (n % 7), ts: 1_700_000_000_000 + n * 100 }] });
    for (const s of sockets) s.send(msg);
  }, 100);
  wss.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // An SSE server that sends a headline every 150 ms on one open stream; afterwards it answers 204.
  const streams = new Set<ServerResponse>();
  let over = false;
  let m = 0;
  const sse = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'last-event-id' };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    if (over) return res.writeHead(204, cors).end();
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    streams.add(res);
    req.on('close', () => streams.delete(res));
  });
  const headlines = setInterval(() => {
    m++;
    for (const s of streams) s.write(`id: ${m}\ndata: ${JSON.stringify({ headline: `story ${m}`, ts: 1_700_000_000_000 + m * 150 })}\n\n`);
  }, 150);
  await new Promise<void>((r) => sse.listen(0, '127.0.0.1', r));
  const wsPort = (wss.address() as AddressInfo).port;
  const ssePort = (sse.address() as AddressInfo).port;
  t.allowOrigin(`http://127.0.0.1:${wsPort}`);
  t.allowOrigin(`http://127.0.0.1:${ssePort}`);
  try {
    const page = await importDoc(t, doc(wsPort, ssePort), 'ticks');
    // Sinks publish committed results at checkpoints: a job that never ends needs them to show any.
    await openRunSettings(page);
    await page.getByRole('combobox', { name: 'Checkpoint', exact: true }).selectOption('500');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const ticks = node(page, 'ticks').getByRole('status', { name: /^Feed ticks/ });
    const news = node(page, 'news').getByRole('status', { name: /^Feed news/ });
    await t.expectText(ticks, /live · \d+ msg\/s/, 20_000);
    await t.expectText(news, /live · \d+ msg\/s/, 20_000);
    // Records keep arriving while the job runs: the count of ticks grows.
    await page.getByRole('tab', { name: 'Results' }).click();
    await page.getByRole('tab', { name: 'prices', exact: true }).click();
    const table = page.getByRole('table', { name: 'Rows of prices' });
    await t.expectVisible(table.getByRole('row').filter({ hasText: 'ACME' }));
    await t.expectVisible(table.getByRole('row').filter({ hasText: 'GLOBEX' }));
    const read = async () => Number(/in (\d+)/.exec((await node(page, 'per_sym').locator('.op-metrics').textContent()) ?? '')?.[1] ?? 0);
    const first = await t.waitFor('ticks reaching the aggregate', read);
    await t.waitFor('more ticks while the job runs', async () => (await read()) > first + 3);
    await t.expectText(node(page, 'ticks'), /out \d+/);
    await t.screenshot('live-feeds-live');

    // The servers end their feeds: a normal WebSocket close, an SSE 204 on the reconnect.
    for (const s of sockets) s.close(1000, 'market closed');
    over = true;
    for (const s of streams) s.end();
    await t.expectText(ticks, 'closed: server closed the connection (1000 market closed)');
    await t.expectText(news, 'closed: HTTP 204 No Content: the server says the feed is over', 20_000);
    const status = page.getByRole('status', { name: 'Run status' });
    await t.expectText(status, /Running/);
    await t.screenshot('live-feeds-closed');
    await page.getByRole('tab', { name: /^Log/ }).click();
    await t.expectText(page.getByText('live feed ticks closed: server closed the connection (1000 market closed)'), 'market closed');
    await page.getByRole('tab', { name: 'Results' }).click();

    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-TW');
    await t.expectText(node(page, 'ticks'), '已關閉：server closed the connection (1000 market closed)');
    await t.screenshot('live-feeds-zh-TW');
  } finally {
    clearInterval(ticker);
    clearInterval(headlines);
    for (const s of streams) s.end();
    for (const c of wss.clients) c.terminate();
    await new Promise((r) => wss.close(r));
    sse.closeAllConnections();
    await new Promise((r) => sse.close(r));
  }
}, { timeoutMs: 120_000 });
