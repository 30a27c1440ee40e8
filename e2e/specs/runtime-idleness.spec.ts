// Source idleness in the designer, in Chromium: a live feed (a WebSocket server on 127.0.0.1)
// sends one record and falls silent, beside inline rows; both go through a union into a 1 s
// tumbling count per customer, every operator at parallelism 3. Without idleTimeoutMs the silent
// feed holds the watermark back, so no window fires however long the run goes on; with it the
// feed goes idle on the job's clock and the inline rows alone drive the watermark, so their
// windows fire and are committed while the feed is still silent.
//
// The same job on the parallel runtime in Chromium (BrowserJob: the job manager on the page, the
// subtasks on Web Workers, the feed's connection on the page and its mirror in the source's
// worker), driven through the runtime lab page: there the feed goes idle on the worker's clock.
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { test } from '../harness.ts';
import type { TestContext } from '../harness.ts';
import { importDoc, node, openRunSettings } from './designer-helpers.spec.ts';
import type { LabOptions, LabResult } from '../lab/lab.ts';
import { openLab } from '../lab/serveLab.ts';

const schema = { customer: 'string', ts: 'timestamp' };

function idleDoc(port: number, idleTimeoutMs?: number, parallelism?: number) {
  const p = parallelism ? { parallelism } : {};
  const rows = Array.from({ length: 300 }, (_, i) => ({ customer: `c${i % 5}`, ts: i * 10 }));
  const eventTime = { field: 'ts', maxOutOfOrdernessMs: 0 };
  return {
    format: 'weir/pipeline',
    version: 1,
    name: `idleness ${idleTimeoutMs ?? 'off'} (e2e)`,
    nodes: [
      { id: 'rows', kind: 'inlineSource', params: { rows, schema, eventTime }, position: { x: 0, y: 0 } },
      { id: 'feed', kind: 'feedSource', params: { url: `ws://127.0.0.1:${port}/slow`, format: 'json', schema, eventTime: { ...eventTime, ...(idleTimeoutMs ? { idleTimeoutMs } : {}) } }, position: { x: 0, y: 260 } },
      { id: 'both', kind: 'union', params: {}, position: { x: 320, y: 120 }, ...p },
      { id: 'per_sec', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['customer'], aggregates: [{ fn: 'count', as: 'n' }] }, position: { x: 620, y: 120 }, ...p },
      { id: 'out', kind: 'viewSink', params: {}, position: { x: 920, y: 120 }, ...p },
    ],
    edges: [
      { id: 'e1', from: { node: 'rows', port: 'out' }, to: { node: 'both', port: 'in' } },
      { id: 'e2', from: { node: 'feed', port: 'out' }, to: { node: 'both', port: 'in' } },
      { id: 'e3', from: { node: 'both', port: 'out' }, to: { node: 'per_sec', port: 'in' } },
      { id: 'e4', from: { node: 'per_sec', port: 'out' }, to: { node: 'out', port: 'in' } },
    ],
  };
}

/** A server that sends one record at event time 0 to each connection, then nothing until `last()`: a record at 2990, and a close. */
async function silentFeed(t: TestContext): Promise<{ port: number; last: () => void; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => ws.send(JSON.stringify({ customer: 'slow', ts: 0 })));
  const port = (wss.address() as AddressInfo).port;
  t.allowOrigin(`http://127.0.0.1:${port}`);
  return {
    port,
    last: () => {
      for (const c of wss.clients) {
        c.send(JSON.stringify({ customer: 'slow', ts: 2990 }));
        c.close(1000, 'done');
      }
    },
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise((r) => wss.close(r));
    },
  };
}

/** Runs the document at parallelism 3 with 500 ms checkpoints until `checkpoints` completed; returns a reader of how many rows the sink's committed view holds. */
async function runUntilCheckpoints(t: TestContext, doc: unknown, checkpoints: number): Promise<() => Promise<number>> {
  const page = await importDoc(t, doc, 'feed');
  await openRunSettings(page);
  await page.getByRole('combobox', { name: 'Checkpoint', exact: true }).selectOption('500');
  await page.getByRole('combobox', { name: 'Parallelism', exact: true }).selectOption('3');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('max');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await t.expectText(node(page, 'feed').getByRole('status', { name: /^Feed feed/ }), /live/, 20_000);
  const status = page.getByRole('status', { name: 'Run status' });
  await t.waitFor(`${checkpoints} checkpoints`, async () => Number(/(\d+) checkpoints?/.exec((await status.textContent()) ?? '')?.[1] ?? 0) >= checkpoints, 30_000);
  // A job fed by a live feed never ends: it is still running, the feed still silent.
  await t.expectText(status, /Running/);
  await page.getByRole('tab', { name: 'Results' }).click();
  await page.getByRole('tab', { name: 'out', exact: true }).click();
  // The sink's committed sample says how many rows the view holds (the table renders only those in sight);
  // a sink that has committed nothing yet shows no sample at all.
  const counts = page.getByText(/^\d+ rows · \d+ changes$/);
  const empty = page.getByText('Run the pipeline to fill this table.');
  await t.expectVisible(counts.or(empty));
  return async () => ((await counts.count()) ? Number(/^(\d+) rows/.exec((await counts.textContent()) ?? '')?.[1]) : 0);
}

test('runtime idleness: in the designer at parallelism 3, a silent feed without idleTimeoutMs holds every window back', async (t) => {
  const feed = await silentFeed(t);
  try {
    const rows = await (await runUntilCheckpoints(t, idleDoc(feed.port), 8))();
    t.expect(rows === 0, `no window may fire while the feed holds the watermark at 0, got ${rows} rows`);
  } finally {
    await feed.close();
  }
}, { timeoutMs: 90_000 });

test('runtime idleness: in the designer at parallelism 3, idleTimeoutMs lets the other input advance the watermark while the feed is silent', async (t) => {
  const feed = await silentFeed(t);
  try {
    const read = await runUntilCheckpoints(t, idleDoc(feed.port, 100), 3);
    // 3 windows × 5 customers of the inline rows, and the feed's one record (window 0, count 1).
    await t.waitFor('the 16 windows (15 of the inline rows, 1 of the feed)', async () => (await read()) === 16, 30_000);
    await t.screenshot('runtime-idleness-windows');
  } finally {
    await feed.close();
  }
}, { timeoutMs: 90_000 });

/**
 * Runs the job on BrowserJob at parallelism 3 with the feed connected from the page; once the
 * windows the inline rows alone can fire are previewed (with idleness), or after 5 checkpoints and
 * 300 ms more (without), the feed sends its last record and closes, and the job ends.
 */
async function browserJobRun(t: TestContext, idleTimeoutMs?: number): Promise<{ before: number; res: LabResult }> {
  const feed = await silentFeed(t);
  try {
    const page = await openLab(t);
    const opts: LabOptions = { jobId: `idle-${idleTimeoutMs ?? 'off'}`, liveFeeds: true, waitForFeeds: true, preview: true, checkpointIntervalMs: 20 };
    await page.evaluate(([d, o]) => window.__weirLab.start(d, o), [idleDoc(feed.port, idleTimeoutMs, 3), opts] as const);
    const status = () => page.evaluate(() => window.__weirLab.status());
    if (idleTimeoutMs) await t.waitFor('the windows of the inline rows, previewed', async () => (await page.evaluate(() => window.__weirLab.previewed())) >= 15, 30_000);
    else {
      await t.waitFor('5 completed checkpoints', async () => (await status()).completed.length >= 5, 30_000);
      await page.waitForTimeout(300);
    }
    t.expect((await status()).running, 'the job waits for its feed');
    const before = await page.evaluate(() => window.__weirLab.previewed());
    feed.last();
    const res = await page.evaluate(() => window.__weirLab.wait());
    t.expect(res.status === 'finished', `the job ${res.status}: ${res.reason}\n${res.log.join('\n')}`);
    return { before, res };
  } finally {
    await feed.close();
  }
}

test('runtime idleness: on BrowserJob at parallelism 3, a silent feed without idleTimeoutMs holds the windows back', async (t) => {
  const { before, res } = await browserJobRun(t);
  t.expect(before === 0, `no window may fire while the feed holds the watermark at 0, ${before} rows previewed`);
  // 3 windows × 5 customers, and both of the feed's records in time.
  t.expect(res.views.out.length === 17, `17 windows at the end, got ${res.views.out.length}`);
}, { timeoutMs: 90_000 });

test('runtime idleness: on BrowserJob at parallelism 3, idleTimeoutMs lets the other input drive the watermark on the workers', async (t) => {
  const { before, res } = await browserJobRun(t, 100);
  t.expect(before >= 15, `the inline rows' 15 windows fire while the feed is silent, ${before} rows previewed`);
  // The feed's last record (2990) came after its window fired: late, as in Flink.
  t.expect(res.views.out.length === 16, `16 windows at the end, got ${res.views.out.length}: ${JSON.stringify(res.views.out)}`);
  const slow = res.views.out.filter((r) => r.customer === 'slow');
  t.expect(slow.length === 1 && slow[0].n === 1, `the feed's one window counts its first record only: ${JSON.stringify(slow)}`);
}, { timeoutMs: 90_000 });
