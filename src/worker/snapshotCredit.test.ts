import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { ClusterSession } from './clusterSession.ts';
import type { RunSnapshot } from './protocol.ts';
import type { PipelineDocument } from '../pipeline/document.ts';

const longRun: PipelineDocument = {
  format: 'weir/pipeline',
  version: 1,
  name: 'credit',
  settings: { parallelism: 1, stateBackend: 'memory' },
  nodes: [
    { id: 'src', kind: 'generatorSource', params: { scenario: 'sequence', count: 100_000_000, keys: 30, seed: 5 } },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }] } },
    { id: 'view', kind: 'viewSink', params: {} },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runFor(ms: number, credit: boolean, ackEvery: number | null): Promise<{ snaps: RunSnapshot[]; s: ClusterSession }> {
  const s = new ClusterSession();
  const snaps: RunSnapshot[] = [];
  s.onSnapshot((x) => snaps.push(x), { credit });
  const acks = ackEvery === null ? null : setInterval(() => s.snapshotApplied(), ackEvery);
  const loaded = await s.load(longRun, { speed: null, checkpointIntervalMs: null, jobId: `credit-${credit}-${ackEvery}` });
  expect(loaded.ok).toBe(true);
  s.run();
  await sleep(ms);
  const at = snaps.length;
  s.pause();
  if (acks) clearInterval(acks);
  await s.stop();
  return { snaps: snaps.slice(0, at), s };
}

describe('snapshot credit', () => {
  it('without an ack, running snapshots wait (at most a second); pause still goes out at once', async () => {
    const { snaps } = await runFor(1500, true, null);
    const running = snaps.filter((x) => x.status === 'running');
    // load's ready snapshot takes the credit, so running ones only come from the 1 s fallback.
    expect(running.length).toBeGreaterThanOrEqual(1);
    expect(running.length).toBeLessThanOrEqual(2);
  }, 20_000);

  it('acks let snapshots flow at the usual rate', async () => {
    const { snaps } = await runFor(1500, true, 5);
    expect(snaps.filter((x) => x.status === 'running').length).toBeGreaterThan(5);
  }, 20_000);
});
