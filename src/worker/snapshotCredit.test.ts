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

describe('rows the page holds', () => {
  it('leaves out a sink window the ack says the page holds, and sends it once its rows are read again', async () => {
    const s = new ClusterSession();
    const snaps: RunSnapshot[] = [];
    // The page's ack: the versions of the rows it holds, as acceptSnapshot rebuilds them.
    const held: Record<string, number> = {};
    s.onSnapshot((x) => {
      snaps.push(x);
      const v = x.sinks.view;
      if (v?.version !== undefined && !v.rowsHeld) held.view = v.version;
      s.snapshotApplied({ ...held });
    }, { credit: true });
    expect((await s.load(longRun, { speed: null, checkpointIntervalMs: 200, jobId: 'credit-held' })).ok).toBe(true);
    s.run();
    await sleep(1500);
    s.pause();
    await s.stop();
    const views = snaps.filter((x) => x.status === 'running').map((x) => x.sinks.view);
    const left = views.filter((v) => v.rowsHeld);
    expect(left.length).toBeGreaterThan(0);
    for (const v of left) {
      expect(v.rows).toEqual([]);
      // The last sample that carried rows had this very version.
      const carried = snaps.map((x) => x.sinks.view).filter((w) => !w.rowsHeld && w.version === v.version);
      expect(carried.length).toBeGreaterThan(0);
    }
    // Committed rows (a checkpoint every 200 ms) cross once per version, not once per snapshot.
    const versions = new Set(views.map((v) => v.version));
    expect(views.filter((v) => !v.rowsHeld && v.rows.length > 0).length).toBeGreaterThan(0);
    expect(views.filter((v) => !v.rowsHeld).length).toBeLessThanOrEqual(versions.size);
  }, 20_000);
});
