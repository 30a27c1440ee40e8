import { LocalCluster } from '../../src/runtime/localCluster.ts';
import { IndexedDbStateBackend } from '../../src/storage/indexeddb/indexedDbBackend.ts';
import { deleteNamespace } from '../../src/storage/indexeddb/db.ts';
import { keyedEvents, readyReader, type KeyedEvent } from '../lib/events.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { interleave, now, pairedRatio, yieldToLoop, type RunPlan } from '../lib/stats.ts';

/** For A/B drivers that bundle this module alone (bench/profile/stateBackendAbPage.ts). */
export { keyedEvents };

let serial = 0;

export interface StateBackendSize {
  events: number;
  keys: number;
  /** Wall time between checkpoints, on both sides. */
  checkpointIntervalMs: number;
}

export interface BackendRun {
  eps: number;
  /** Checkpoints started inside the timed region. */
  checkpoints: number;
}

/**
 * The keyed count in process on the one runtime (LocalCluster, simulated schedule), the event loop
 * given a turn every 256 steps (so IndexedDB callbacks can run), and a checkpoint every
 * `intervalMs` of wall time through the cluster's own coordinator, one in flight at a time (as
 * Flink's default), on either state backend: memory snapshots into the heap checkpoint store,
 * IndexedDB persists its chunks. The timed region ends when the source has read its last event
 * (at most a batch is still downstream); waiting for a checkpoint in flight and the job's final
 * checkpoint (the flush) come after it, on both sides alike.
 */
export async function keyedCountWithBackend(events: readonly KeyedEvent[], kind: 'memory' | 'indexeddb', intervalMs: number, idbFactory?: IDBFactory): Promise<BackendRun> {
  const dbName = `weir-bench-sb-${++serial}-${Math.floor(now())}`;
  const durable = kind === 'indexeddb';
  const t0 = now();
  const cluster = new LocalCluster(keyedCountPlan(), {
    schedule: 'simulated',
    keepChangelog: false,
    checkpointIntervalMs: null,
    readers: { events: readyReader(events) },
    backend: durable ? (node, index, time) => new IndexedDbStateBackend({ dbName, subtask: `${node.id}#${index}`, time, idbFactory, locks: null }).open() : undefined,
  });
  await cluster.start();
  const source = cluster.subtasksOf('events');
  let last = now();
  let ms: number | null = null;
  let checkpoints = 0;
  let finalTaken = false;
  for (let steps = 1; (await cluster.step()) === 'running'; steps++) {
    if (steps % 256 === 0) await yieldToLoop();
    if (ms === null && source.every((r) => r.finished)) ms = now() - t0;
    if (cluster.inFlightCheckpoint() !== null) continue;
    const ended = ms !== null && !finalTaken;
    if (ended || (ms === null && now() - last >= intervalMs)) {
      if (cluster.triggerCheckpoint() === null) continue;
      last = now();
      if (ended) finalTaken = true;
      else checkpoints++;
    }
  }
  const res = cluster.result();
  if (res.status !== 'finished') throw new Error(`the keyed count ${res.status}: ${res.reason}`);
  if (durable) await deleteNamespace(dbName, idbFactory);
  return { eps: events.length / ((ms ?? now() - t0) / 1000), checkpoints };
}

/** stateBackend.ratioIndexeddbToMemory: the keyed count on IndexedDB ÷ on memory, both with a checkpoint every interval, interleaved. */
export async function stateBackendSuite(size: StateBackendSize, plan: RunPlan, idbFactory?: IDBFactory): Promise<Record<string, number>> {
  const events = keyedEvents(size.events, size.keys);
  const cps = { memory: [] as number[], indexeddb: [] as number[] };
  const side = (kind: 'memory' | 'indexeddb') => async () => {
    const x = await keyedCountWithBackend(events, kind, size.checkpointIntervalMs, idbFactory);
    cps[kind].push(x.checkpoints);
    return x.eps;
  };
  const r = await interleave({ memory: side('memory'), indexeddb: side('indexeddb') }, plan);
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
  return {
    'stateBackend.memoryEventsPerSec': r.median.memory,
    'stateBackend.indexeddbEventsPerSec': r.median.indexeddb,
    'stateBackend.checkpointIntervalMs': size.checkpointIntervalMs,
    'stateBackend.memoryCheckpointsPerRun': mid(cps.memory),
    'stateBackend.indexeddbCheckpointsPerRun': mid(cps.indexeddb),
    'stateBackend.ratioIndexeddbToMemory': pairedRatio(r, 'indexeddb', 'memory'),
  };
}
