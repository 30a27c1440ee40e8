import { LocalCluster } from '../../src/runtime/localCluster.ts';
import { IndexedDbStateBackend } from '../../src/state/indexeddb/indexedDbBackend.ts';
import { deleteNamespace } from '../../src/state/indexeddb/db.ts';
import { keyedEvents, readyReader, type KeyedEvent } from '../lib/events.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { interleave, now, pairedRatio, yieldToLoop, type RunPlan } from '../lib/stats.ts';

let serial = 0;

/**
 * The keyed count in process with the event loop given a turn every few hundred steps (so
 * IndexedDB callbacks can run), and with the IndexedDB backend a checkpoint every `intervalMs`
 * of wall time (the coordinator keeps one in flight at a time) and a final one once the source
 * ended. The run ends when every event is processed and every checkpoint is durable.
 */
export async function keyedCountWithBackend(events: readonly KeyedEvent[], kind: 'memory' | 'indexeddb', intervalMs = 1000, idbFactory?: IDBFactory): Promise<{ eps: number; checkpoints: number }> {
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
  let finalTaken = false;
  for (let steps = 1; (await cluster.step()) === 'running'; steps++) {
    if (steps % 256 === 0) await yieldToLoop();
    if (!durable || cluster.inFlightCheckpoint() !== null) continue;
    // The job's final checkpoint, so that a run shorter than the interval still pays for one.
    const ended: boolean = !finalTaken && source.every((r) => r.finished);
    if (ended || now() - last >= intervalMs) {
      if (cluster.triggerCheckpoint() !== null) last = now();
      finalTaken ||= ended;
    }
  }
  const res = cluster.result();
  if (res.status !== 'finished') throw new Error(`the keyed count ${res.status}: ${res.reason}`);
  const ms = now() - t0;
  if (durable) await deleteNamespace(dbName, idbFactory);
  return { eps: events.length / (ms / 1000), checkpoints: res.checkpoints.filter((c) => c.status === 'completed').length };
}

/** stateBackend.ratioIndexeddbToMemory: IndexedDB + a checkpoint per second ÷ memory without checkpoints, interleaved. */
export async function stateBackendSuite(size: { events: number; keys: number }, plan: RunPlan, idbFactory?: IDBFactory): Promise<Record<string, number>> {
  const events = keyedEvents(size.events, size.keys);
  let checkpoints = 0;
  const r = await interleave(
    {
      memory: async () => (await keyedCountWithBackend(events, 'memory')).eps,
      indexeddb: async () => {
        const x = await keyedCountWithBackend(events, 'indexeddb', 1000, idbFactory);
        checkpoints = x.checkpoints;
        return x.eps;
      },
    },
    plan,
  );
  return {
    'stateBackend.memoryEventsPerSec': r.median.memory,
    'stateBackend.indexeddbEventsPerSec': r.median.indexeddb,
    'stateBackend.checkpointsPerRun': checkpoints,
    'stateBackend.ratioIndexeddbToMemory': pairedRatio(r, 'indexeddb', 'memory'),
  };
}
