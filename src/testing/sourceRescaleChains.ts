// Shared by the in-process and threaded source rescale tests: a source rescaled more than once.
// After the first rescale its subtasks no longer own the positions i mod p from the start (they
// skip what the old splits had read), so the rescale after it starts from an assignment that is
// not i mod p. The in-process cluster makes those stops deterministic (a seeded schedule).
import { expect } from 'vitest';
import { LocalCluster } from '../runtime/localCluster.ts';
import type { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import type { SplitSourceSnapshot } from '../runtime/sourceSplit.ts';
import { planOrThrow } from './runPipeline.ts';
import { exactlyOnceDoc, sequenceRows } from './exactlyOncePipelines.ts';

export const RESCALE_RECORDS = 6000;
const KEYS = 41;

export type RescaledSource = 'inline' | 'file';

/** The exactly-once pipeline with every node, source included, at parallelism `p`. */
export function rescaleDoc(p: number, kind: RescaledSource) {
  const doc = exactlyOnceDoc(p, { n: RESCALE_RECORDS, keys: KEYS });
  const nodes = doc.nodes.map((n) => {
    const node = { ...n, parallelism: p };
    // The same rows as a JSON Lines file: its reader keeps a (line, byte) position in checkpoints.
    return kind === 'file' && n.id === 'src' ? { ...node, kind: 'fileSource', params: { path: 'in.jsonl', schema: { key: 'string', seq: 'integer', amount: 'integer', ts: 'integer' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } } : node;
  });
  return { ...doc, nodes };
}

const lines = sequenceRows(RESCALE_RECORDS, KEYS).map((r) => JSON.stringify(r));
export const rescaleInputs = (kind: RescaledSource) => (kind === 'file' ? { src: { name: 'in.jsonl', lines } } : undefined);

/**
 * Runs at parallelism `p` from the store's latest checkpoint until one more checkpoint completed,
 * then drops the cluster. The first run reads large batches between rare checkpoints, so its
 * subtasks stop far apart; later runs read small batches between frequent ones, so they stop
 * before passing the old splits' offsets and the level they skip still matters afterwards.
 */
async function stopAfterCheckpoint(store: MemoryCheckpointStore, jobId: string, p: number, kind: RescaledSource, first: boolean, seed: number): Promise<SplitSourceSnapshot[]> {
  const pace = first ? { batchSize: 40, checkpointIntervalMs: 60 } : { batchSize: 2, checkpointIntervalMs: 6 };
  const c = new LocalCluster(planOrThrow(rescaleDoc(p, kind)), { store, jobId, inputs: rescaleInputs(kind), ...pace, scheduleSeed: seed });
  await c.start();
  while (c.running() && !c.checkpointHistory().some((r) => r.status === 'completed')) await c.step();
  expect(c.running(), 'the job is stopped mid-way, not at its end').toBe(true);
  const latest = (await store.latest(jobId))!;
  return Promise.all(Array.from({ length: p }, async (_, i) => (await store.readSubtask(latest.subtasks[`src#${i}`])).source as SplitSourceSnapshot));
}

/**
 * Checkpoints and stops at each parallelism of `path` in turn, each run restoring the one before.
 * Checks that the stop after the first rescale left an assignment that is not i mod p.
 */
export async function rescaleThrough(store: MemoryCheckpointStore, jobId: string, kind: RescaledSource, path: readonly number[]): Promise<void> {
  for (let step = 0; step < path.length; step++) {
    const sources = await stopAfterCheckpoint(store, jobId, path[step], kind, step === 0, 11 + step);
    const offsets = sources.map((s) => s.offset);
    expect(offsets.every((o) => o > 0 && o < RESCALE_RECORDS), `offsets ${offsets} at parallelism ${path[step]}`).toBe(true);
    if (step !== 1) continue;
    // These subtasks still skip positions the level before had read beyond the lowest offset they reached.
    const skipped = sources[0].splits ?? [];
    expect(skipped.length, 'the rescaled subtasks carry the level they skip').toBeGreaterThan(0);
    expect(Math.max(...skipped[skipped.length - 1].offsets), `levels ${JSON.stringify(skipped)} vs offsets ${offsets}`).toBeGreaterThan(Math.min(...offsets));
  }
}
