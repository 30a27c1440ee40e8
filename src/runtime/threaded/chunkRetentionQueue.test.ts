// The manager's chunk collection, one at a time: a checkpoint that completes while one runs is
// collected right after it, with the newest retained set, and a finished job can wait for it.
import { describe, expect, it } from 'vitest';
import { ChunkRetention } from './chunkRetention.ts';
import { MemoryCheckpointStore } from '../../checkpoint/memoryStore.ts';
import type { CheckpointManifest, SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { Deployment } from './deployment.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';

const manifest = (checkpointId: number): CheckpointManifest =>
  ({ jobId: 'j', checkpointId, triggeredAt: 0, completedAt: 0, subtasks: { 'agg#0': `agg#0@${checkpointId}` }, parallelism: { agg: 1 }, stats: [], fullBytes: 0, incrementalBytes: 0 }) as CheckpointManifest;
const snapshot = (checkpointId: number) =>
  ({ subtask: 'agg#0', keyed: { type: 'chunks', store: 's', chunks: [{ id: `c${checkpointId}`, keyGroup: 0, entries: 1, writtenBy: checkpointId }] } }) as unknown as SubtaskSnapshot;

/** A deployment whose workers' retainOnly calls wait until released, recording what each kept. */
function slowDeployment() {
  const kept: string[][] = [];
  const releases: (() => void)[] = [];
  const dep = {
    isFailed: false,
    guard: <T>(p: Promise<T>) => p,
    slots: [{ api: { retainOnly: (h: Record<string, KeyedStateHandle[]>) => new Promise<void>((resolve) => {
      kept.push(Object.values(h).flat().flatMap((x) => (x.type === 'chunks' ? x.chunks.map((c) => c.id) : [])).sort());
      releases.push(resolve);
    }) } }],
  } as unknown as Deployment;
  return { dep, kept, release: () => releases.shift()?.() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('chunk collection queue', () => {
  it('collects again after a running collection, with the retained set of the newest request', async () => {
    const retention = new ChunkRetention(new MemoryCheckpointStore());
    const { dep, kept, release } = slowDeployment();
    for (const id of [1, 2, 3, 4]) retention.noteSnapshot(id, snapshot(id));
    retention.collect(dep, [manifest(1), manifest(2)]);
    await tick();
    retention.collect(dep, [manifest(2), manifest(3)]); // completes while the first runs
    retention.collect(dep, [manifest(3), manifest(4)]); // the newest request wins
    expect(kept).toEqual([['c1', 'c2']]);
    const done = retention.settled();
    release();
    await tick();
    await tick();
    expect(kept).toEqual([['c1', 'c2'], ['c3', 'c4']]);
    let settled = false;
    void done.then(() => (settled = true));
    await tick();
    expect(settled).toBe(false); // the second collection still runs
    release();
    await done;
    expect(kept.length).toBe(2);
  });
});
