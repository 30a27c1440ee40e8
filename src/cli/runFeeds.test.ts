// `weir run --input id=ws://…` and `--input id=sse+http://…` against servers on 127.0.0.1.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { readJson, removeTempDirs, runMain, salesPipeline, tempDir, writeJson, writeLines } from './cliTestKit.ts';

afterAll(removeTempDirs);
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const visits = ['{"customer":"ann","amount":3,"ts":1000}', '{"customer":"bob","amount":2,"ts":1400}', 'not json', '{"customer":"ann","amount":4,"ts":3500}'];

async function wsServer(onConnection: (ws: import('ws').WebSocket) => void): Promise<number> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', onConnection);
  closers.push(() => new Promise((r) => wss.close(r)));
  return (wss.address() as AddressInfo).port;
}

async function fileRun(dir: string, pipeline: string) {
  const out = join(dir, 'file-out');
  const r = await runMain(['run', pipeline, '--input', `visits=${writeLines(dir, 'v.jsonl', visits)}`, '--out', out]);
  expect(r.code, r.err).toBe(0);
  return readJson(join(out, 'by_customer.view.json'));
}

describe('weir run with a live feed input', () => {
  it('reads a WebSocket feed into a fileSource until the server closes, and ends equal to the file run', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', salesPipeline());
    const port = await wsServer((ws) => {
      for (const v of visits) ws.send(v);
      ws.close(1000, 'that is all');
    });
    const out = join(dir, 'out');
    const r = await runMain(['run', pipeline, '--input', `visits=ws://127.0.0.1:${port}/visits`, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`input visits: live feed ws://127.0.0.1:${port}/visits (WebSocket), until it closes or Ctrl-C`);
    expect(r.err).toContain('live feed visits closed: server closed the connection (1000 that is all)');
    expect(r.err).toContain('source visits (fileSource): 3 records read, 1 dead-lettered');
    expect(readJson(join(out, 'by_customer.view.json'))).toEqual(await fileRun(dir, pipeline));
  });

  it('reads Server-Sent Events with sse+http://, resuming with Last-Event-ID, until the server answers 204', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', salesPipeline());
    const ids: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      ids.push(req.headers['last-event-id'] as string | undefined);
      if (ids.length === 3) return res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const part = ids.length === 1 ? visits.slice(0, 2) : visits.slice(2);
      res.end(part.map((v, i) => `id: ${ids.length}-${i}\ndata: ${v}\n\n`).join(''));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(r)));
    const out = join(dir, 'out');
    const url = `sse+http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    const r = await runMain(['run', pipeline, '--input', `visits=${url}`, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(ids).toEqual([undefined, '1-1', '2-1']);
    expect(r.err).toContain('live feed visits closed: HTTP 204 No Content: the server says the feed is over');
    expect(readJson(join(out, 'by_customer.view.json'))).toEqual(await fileRun(dir, pipeline));
  });

  it('exits 2 and says why when the feed cannot be reached, and refuses a URL for a node that cannot read one', async () => {
    const dir = tempDir();
    const doc = salesPipeline();
    (doc.nodes[0] as { kind: string; params: Record<string, unknown> }).kind = 'feedSource';
    (doc.nodes[0] as { params: Record<string, unknown> }).params = { ...doc.nodes[0].params, url: 'ws://127.0.0.1:9/', reconnect: { initialDelayMs: 5, maxDelayMs: 5, maxAttempts: 1 } };
    const pipeline = writeJson(dir, 'p.json', doc);
    const r = await runMain(['run', pipeline, '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('live feed visits closed: could not connect to ws://127.0.0.1:9/ (refused, unreachable or not a WebSocket server); gave up after 1 reconnect attempt');
    const bad = await runMain(['run', pipeline, '--input', 'raw=ws://127.0.0.1:9/', '--out', join(dir, 'out2')]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--input raw=ws://127.0.0.1:9/: node "raw" is a logSink, which cannot read a live feed; fileSource and feedSource nodes: visits');
    const parallel = await runMain(['run', pipeline, '--parallelism', '2', '--out', join(dir, 'out3')]);
    expect(parallel.code, parallel.err).toBe(2);
    expect(parallel.err).toContain('live feed visits closed: could not connect to ws://127.0.0.1:9/');
  });

  it('--parallelism 3 --chaos 2 with a WebSocket feed gives the output of the run without kills, for every record the feed sent', async () => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', salesPipeline());
    // 1,500 messages in bursts of 5 every 5 ms: the kills land while the feed is still sending. One in 100 is not JSON.
    const records = Array.from({ length: 1500 }, (_, i) => (i % 100 === 50 ? `not json ${i}` : JSON.stringify({ customer: `c${i % 7}`, amount: i % 13, ts: i * 50 })));
    const good = records.filter((r) => r.startsWith('{'));
    const port = await wsServer((ws) => {
      let i = 0;
      const tick = setInterval(() => {
        for (let k = 0; k < 5 && i < records.length; k++) ws.send(records[i++]);
        if (i < records.length) return;
        clearInterval(tick);
        ws.close(1000, 'that is all');
      }, 5);
      ws.on('close', () => clearInterval(tick));
    });
    const url = `ws://127.0.0.1:${port}/visits`;
    const run = async (out: string, ...flags: string[]) => {
      const r = await runMain(['run', pipeline, '--input', `visits=${url}`, '--out', join(dir, out), '--seed', '4', ...flags]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain('live feed visits closed: server closed the connection (1000 that is all)');
      // Each bad message is one dead letter, however often a restart replays it.
      expect(r.err).toMatch(/dead letters: 15\b/);
      return r.err;
    };
    await run('plain');
    await run('calm', '--parallelism', '3', '--checkpoint-interval', '20');
    const chaos = await run('chaos', '--parallelism', '3', '--checkpoint-interval', '20', '--chaos', '2');
    expect(chaos).toMatch(/restarts: 2 \(recovery/);
    const view = readJson(join(dir, 'plain', 'by_customer.view.json')) as { total: number; visits: number }[];
    expect(view.reduce((t, r) => t + r.visits, 0)).toBe(good.length);
    expect(view.reduce((t, r) => t + r.total, 0)).toBe(good.reduce((t, r) => t + (JSON.parse(r) as { amount: number }).amount, 0));
    const deadLetters = (out: string) => readFileSync(join(dir, out, 'visits.dead-letter.jsonl'), 'utf8').split('\n').filter((l) => l).sort();
    for (const out of ['calm', 'chaos']) {
      expect(readJson(join(dir, out, 'by_customer.view.json')), out).toEqual(view);
      expect(sortedChangelog(join(dir, out)), out).toEqual(sortedChangelog(join(dir, 'plain')));
      expect(readFileSync(join(dir, out, 'raw.changelog.jsonl'), 'utf8').split('\n').filter((l) => l).length, out).toBe(good.length);
      expect(deadLetters(out), out).toEqual(deadLetters('plain'));
    }
  }, 120_000);
});

/** The view's changelog sorted stably by customer: parallel subtasks interleave keys, a key's own order stays. */
function sortedChangelog(dir: string): string[] {
  const lines = readFileSync(join(dir, 'by_customer.changelog.jsonl'), 'utf8').split('\n').filter((l) => l);
  const keyOf = (l: string) => String((JSON.parse(l) as { row: { customer: string } }).row.customer);
  return lines.map((l, i) => ({ l, i, k: keyOf(l) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i)).map((x) => x.l);
}
