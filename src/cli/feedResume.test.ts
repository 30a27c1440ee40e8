// A live feed with --state-dir: the process is killed (SIGKILL) while the feed is still sending,
// then `--resume` reconnects and goes on. docs/runtime.md ("Live feeds") promises: nothing
// committed is lost or emitted twice, the messages a checkpoint carried as received but unread
// come back, and what the killed process had read after its last checkpoint is lost (it was in
// memory only), as are messages the server sent to the dead connection. So the output must be
// one unbroken prefix of what the first connection received, then everything the second one did.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { readJson, removeTempDirs, runMain, salesPipeline, tempDir, writeJson } from './cliTestKit.ts';
import { weirAsync } from './durableRunKit.ts';
import { CommittedOutput } from '../runtime/node/committedOutput.ts';

afterAll(removeTempDirs);
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const N = 3000;
/** Message i: customer c(i mod 7), amount i mod 13, ts = i × 50 (so ts names the message); every 100th from 50 is not JSON. */
const message = (i: number) => (i % 100 === 50 ? `not json ${i}` : JSON.stringify({ customer: `c${i % 7}`, amount: i % 13, ts: i * 50 }));
const isGood = (i: number) => i % 100 !== 50;

/**
 * A server that sends each of the N messages once, whoever is connected: bursts of 5 every 5 ms,
 * and a new connection goes on where the last one stopped (a WebSocket feed has no replay).
 * Closes (1000) after the last message. `starts` records where each connection began. After the
 * first third it trickles (one message per 25 ms) until `release()`: the kill must fall mid-feed
 * however slowly a loaded machine brings the run to its second checkpoint, and messages are still
 * in flight when it does.
 */
async function onceServer(): Promise<{ url: string; starts: number[]; sent: () => number; release: () => void }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  closers.push(() => new Promise((r) => wss.close(r)));
  const starts: number[] = [];
  let next = 0;
  let released = false;
  let ticks = 0;
  wss.on('connection', (ws) => {
    starts.push(next);
    const tick = setInterval(() => {
      const trickle = !released && next >= N / 3;
      if (trickle && ticks++ % 5 !== 0) return;
      for (let k = 0; k < (trickle ? 1 : 5) && next < N; k++) ws.send(message(next++));
      if (next < N) return;
      clearInterval(tick);
      ws.close(1000, 'that is all');
    }, 5);
    ws.on('close', () => clearInterval(tick));
  });
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/visits`, starts, sent: () => next, release: () => (released = true) };
}

const jobDir = (state: string) => join(state, 'spend%20per%20customer');
const manifests = (state: string) => (existsSync(jobDir(state)) ? readdirSync(jobDir(state)).filter((f) => /^manifest-\d+\.json$/.test(f)).length : 0);
/** The message index of each row of the raw log's changelog lines. */
const indexesOf = (lines: string[]) => lines.map((l) => (JSON.parse(l) as { row: { ts: number } }).row.ts / 50);

async function until(what: string, cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('weir run with a live feed, --state-dir, killed and resumed', () => {
  it.each([2, 3])('--parallelism %i: SIGKILL mid-feed, then --resume loses nothing committed and emits nothing twice', async (parallelism) => {
    const dir = tempDir();
    const pipeline = writeJson(dir, 'p.json', salesPipeline());
    const server = await onceServer();
    const state = join(dir, 'state');
    const flags = ['--input', `visits=${server.url}`, '--parallelism', String(parallelism), '--checkpoint-interval', '40', '--state-dir', state];
    const first = weirAsync([pipeline, '--out', join(dir, 'killed'), ...flags]);
    // Killed mid-feed, with checkpoints completed and output committed behind it.
    await until('two checkpoints and a third of the feed', () => manifests(state) >= 2 && server.sent() >= N / 3, 60_000);
    process.kill(first.pid, 'SIGKILL');
    const killed = await first.done;
    expect(killed.signal, killed.err).toBe('SIGKILL');
    const sentToFirst = server.sent();
    expect(sentToFirst, 'the kill fell while the feed was still sending').toBeLessThan(N);
    const committedBefore = indexesOf([...new CommittedOutput(join(jobDir(state), 'committed')).changelogLines('raw')]);
    expect(committedBefore.length, 'output was committed before the kill').toBeGreaterThan(0);

    server.release();
    const out = join(dir, 'resumed');
    const r = await runMain(['run', pipeline, '--out', out, ...flags, '--resume']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/--resume: restoring checkpoint \d+/);
    expect(r.err).toContain('live feed visits closed: server closed the connection (1000 that is all)');
    expect(server.starts).toEqual([0, sentToFirst]);

    const raw = indexesOf(readFileSync(join(out, 'raw.changelog.jsonl'), 'utf8').split('\n').filter((l) => l));
    // Nothing twice.
    expect(raw.length).toBe(new Set(raw).size);
    const got = new Set(raw);
    // Nothing committed lost.
    expect(committedBefore.filter((i) => !got.has(i))).toEqual([]);
    // A bad message shows up as its dead letter ("not json i"), so the prefix below counts those
    // too: a cut that falls just after a bad message loses that message with what follows it.
    const dead = readFileSync(join(out, 'visits.dead-letter.jsonl'), 'utf8').split('\n').filter((l) => l);
    const deadIndexes = dead.map((l) => Number(/not json (\d+)/.exec((JSON.parse(l) as { raw: string }).raw)?.[1]));
    const seen = new Set([...raw, ...deadIndexes]);
    // An unbroken prefix of the first connection's messages (up to what the restored checkpoint
    // had read or carried), then every message of the second connection.
    const prefix = Array.from({ length: sentToFirst }, (_, i) => i).findIndex((i) => !seen.has(i));
    const kept = prefix < 0 ? sentToFirst : prefix;
    const want = [...Array.from({ length: kept }, (_, i) => i), ...Array.from({ length: N - sentToFirst }, (_, i) => sentToFirst + i)].filter(isGood);
    expect([...raw].sort((a, b) => a - b)).toEqual(want);
    expect(kept).toBeGreaterThanOrEqual(Math.max(...committedBefore) + 1);
    // The view's state agrees with the output: the sums and counts of exactly those messages.
    const expected = new Map<string, { total: number; visits: number }>();
    for (const i of want) {
      const v = JSON.parse(message(i)) as { customer: string; amount: number };
      const e = expected.get(v.customer) ?? { total: 0, visits: 0 };
      expected.set(v.customer, { total: e.total + v.amount, visits: e.visits + 1 });
    }
    const view = readJson(join(out, 'by_customer.view.json')) as { customer: string; total: number; visits: number }[];
    expect(Object.fromEntries(view.map((v) => [v.customer, { total: v.total, visits: v.visits }]))).toEqual(Object.fromEntries(expected));
    // Each bad message that made it in is one dead letter, once.
    const badKept = [...Array.from({ length: kept }, (_, i) => i), ...Array.from({ length: N - sentToFirst }, (_, i) => sentToFirst + i)].filter((i) => !isGood(i));
    expect([...deadIndexes].sort((a, b) => a - b)).toEqual(badKept);
    expect(new Set(dead).size).toBe(dead.length);
    console.log(`parallelism ${parallelism}: killed after ${sentToFirst} messages sent, ${committedBefore.length} rows committed; resumed with the first ${kept}, lost ${sentToFirst - kept}; ${raw.length} rows, ${dead.length} dead letters`);
  }, 120_000);
});
