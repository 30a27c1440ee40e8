import { describe, expect, it } from 'vitest';
import { CheckpointPacing, runPaced } from './checkpointPacing.ts';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow } from '../testing/runPipeline.ts';

describe('CheckpointPacing', () => {
  it('starts one checkpoint per interval while checkpoints are short', () => {
    const p = new CheckpointPacing(100, 100, 0);
    expect(p.due(50, false)).toBe(false);
    expect(p.due(100, false)).toBe(true);
    p.started(100);
    expect(p.due(101, true)).toBe(false);
    // Settled at 110: due again at 210 (the pause), not at 200 (the interval).
    expect(p.due(110, false)).toBe(false);
    expect(p.due(200, false)).toBe(false);
    expect(p.due(210, false)).toBe(true);
  });

  it('after a checkpoint longer than the interval, waits the pause instead of starting the next at once', () => {
    const p = new CheckpointPacing(100, 100, 0);
    p.started(0);
    expect(p.due(350, true)).toBe(false);
    expect(p.due(400, false)).toBe(false);
    expect(p.due(499, false)).toBe(false);
    expect(p.due(500, false)).toBe(true);
  });

  it('without a pause the overdue checkpoint starts as soon as the last one settles', () => {
    const p = new CheckpointPacing(100, 0, 0);
    p.started(0);
    expect(p.due(350, true)).toBe(false);
    expect(p.due(351, false)).toBe(true);
  });
});

/** A keyed tumbling-window count whose state grows for the whole run: no window closes before the end. */
function growingStateDoc(n: number) {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'growing',
    settings: { parallelism: 1 },
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows: Array.from({ length: n }, (_, i) => ({ k: i, ts: i })), eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'win', kind: 'window', params: { type: 'tumble', sizeMs: 10 * n, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] } },
      { id: 'view', kind: 'viewSink', params: {} },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'win', port: 'in' } },
      { from: { node: 'win', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

describe('runPaced', () => {
  /**
   * A wall clock on which each step costs 1 ms and a checkpoint costs 1 ms per key in the
   * window's state (its snapshot and copy run on the same thread): past 20 keys, a checkpoint
   * outlasts the 20 ms interval. Returns the records the window read between checkpoints.
   */
  async function recordsBetweenCheckpoints(minPauseMs: number) {
    const n = 1_000;
    const cluster = new LocalCluster(planOrThrow(growingStateDoc(n)), { schedule: 'simulated', checkpointIntervalMs: null, keepChangelog: false, batchSize: 4 });
    let wall = 0;
    const readAt: number[] = [];
    cluster.onEvent((e) => {
      if (e.type !== 'checkpoint') return;
      const read = cluster.metrics().win.recordsIn;
      if (e.status === 'triggered') readAt.push(read);
      else wall += read;
    });
    await cluster.start();
    const pacing = new CheckpointPacing(20, minPauseMs, 0);
    const r = await runPaced({ step: () => ((wall += 1), cluster.step()), inFlightCheckpoint: () => cluster.inFlightCheckpoint(), triggerCheckpoint: () => cluster.triggerCheckpoint() }, pacing, () => wall);
    expect(r.phase).toBe('finished');
    expect(cluster.result().views.view).toHaveLength(n);
    return readAt.slice(1).map((x, i) => x - readAt[i]);
  }

  it('lets the job make progress between checkpoints that outlast the interval', async () => {
    const gaps = await recordsBetweenCheckpoints(20);
    expect(gaps.length).toBeGreaterThan(3);
    // The 20 ms pause is 20 steps of processing after each checkpoint settles.
    expect(median(gaps)).toBeGreaterThanOrEqual(20);
  });

  it('without a pause, checkpoints run back to back and the job all but stops once they outlast the interval', async () => {
    const gaps = await recordsBetweenCheckpoints(0);
    // Only the records that flow while barriers travel: a few steps' worth per checkpoint.
    expect(median(gaps)).toBeLessThanOrEqual(12);
  });
});
