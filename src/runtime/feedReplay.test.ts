// A live feed cannot be rewound: its source keeps what it received since the oldest retained
// checkpoint and reads it again after a restart. Kills land while messages keep arriving.
import { describe, expect, it } from 'vitest';
import { planOrThrow } from '../testing/runPipeline.ts';
import { seededRng } from '../core/rng.ts';
import { feedLog } from '../engine/operators/feedSource.ts';
import type { FeedSourceParams } from '../pipeline/kinds/feedSource.ts';
import type { Row } from '../core/types.ts';
import { LocalCluster } from './localCluster.ts';
import type { Kill } from './localCluster.ts';

const feedParams: FeedSourceParams = { url: 'ws://127.0.0.1:1/', format: 'json', path: '$.batch', schema: { key: 'string', seq: 'integer' } };

const doc = {
  format: 'weir/pipeline',
  version: 1,
  name: 'feed',
  nodes: [
    { id: 'feed', kind: 'feedSource', params: feedParams },
    { id: 'by', kind: 'keyBy', params: { key: ['key'] } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'seq', as: 'maxSeq' }, { fn: 'countDistinct', field: 'seq', as: 'distinctSeq' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'feed', port: 'out' }, to: { node: 'by', port: 'in' } },
    { from: { node: 'by', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};

/** Sends `messages` messages of two records each while the cluster steps, killing it where told; then ends the feed. */
async function runFeed(seed: number, messages: number, kills: Kill[], checkpointIntervalMs: number | null = 15) {
  const rng = seededRng(seed);
  const log = feedLog('feed', feedParams, { retain: 3, session: 'test' });
  const cluster = new LocalCluster(planOrThrow(doc), { scheduleSeed: seed, checkpointIntervalMs, batchSize: 4, kills, retain: 3, readers: { feed: log }, restart: { type: 'fixedDelay', delayMs: 5, maxAttempts: 20 } });
  await cluster.start();
  const seq = new Map<string, number>();
  let sent = 0;
  while (sent < messages) {
    // A burst of messages arrives, then the job runs a while (or until it has nothing to read).
    for (let i = rng.int(4); i >= 0 && sent < messages; i--, sent++) {
      const batch = [0, 1].map(() => {
        const key = `k${rng.int(5)}`;
        const s = (seq.get(key) ?? 0) + 1;
        seq.set(key, s);
        return { key, seq: s };
      });
      log.push(JSON.stringify({ batch }));
    }
    for (let steps = rng.int(60); steps > 0 && !cluster.waitingForInput(); steps--) expect(await cluster.step()).toBe('running');
  }
  log.end();
  const res = await cluster.run();
  return { res, seq, log };
}

function assertExactlyOnce(view: Row[], seq: Map<string, number>) {
  expect(view.length).toBe(seq.size);
  for (const r of view) {
    expect(r.n, `key ${r.key}`).toBe(seq.get(String(r.key)));
    expect(r.maxSeq, `key ${r.key}`).toBe(r.n);
    expect(r.distinctSeq, `key ${r.key}`).toBe(r.n);
  }
}

describe('a live feed under kills', () => {
  it('waits for messages without failing, and ends when the feed ends', async () => {
    const { res, seq } = await runFeed(1, 40, []);
    expect(res.status).toBe('finished');
    assertExactlyOnce(res.views.view, seq);
    expect(res.checkpoints.filter((c) => c.status === 'completed').length).toBeGreaterThan(2);
  });

  it('without checkpoints, a restart reads every message again from the first', async () => {
    const { res, seq } = await runFeed(7, 60, [{ atStep: 150 }, { atStep: 300 }], null);
    expect(res.status, res.reason).toBe('finished');
    expect(res.restarts).toBeGreaterThan(0);
    assertExactlyOnce(res.views.view, seq);
  });

  it('replays what it buffered since the restored checkpoint: every message counts exactly once', async () => {
    let restarts = 0;
    for (let trial = 0; trial < 12; trial++) {
      const rng = seededRng(100 + trial);
      const kills: Kill[] = Array.from({ length: 1 + rng.int(3) }, () => ({ atStep: 20 + rng.int(400), when: (['any', 'aligning', 'writing'] as const)[rng.int(3)] }));
      const { res, seq, log } = await runFeed(trial, 120, kills);
      expect(res.status, `trial ${trial}: ${res.reason}`).toBe('finished');
      restarts += res.restarts;
      assertExactlyOnce(res.views.view, seq);
      // Completed checkpoints freed the buffer: it holds far fewer than the 120 messages sent.
      expect(log.buffered(), `trial ${trial}`).toBeLessThan(120);
    }
    expect(restarts).toBeGreaterThan(8);
  }, 120_000);
});
