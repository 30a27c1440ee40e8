import { Executor } from '../../src/engine/executor.ts';
import { IndexedDbStateBackend } from '../../src/state/indexeddb/indexedDbBackend.ts';
import { deleteNamespace } from '../../src/state/indexeddb/db.ts';
import type { KeyedStateBackend } from '../../src/state/backend.ts';
import type { PersistResult } from '../../src/state/backend.ts';
import { keyedEvents, readyReader, type KeyedEvent } from '../lib/events.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { interleave, now, pairedRatio, yieldToLoop, type RunPlan } from '../lib/stats.ts';

let serial = 0;

/**
 * The keyed count with the event loop given a turn every few hundred steps (so IndexedDB
 * callbacks can run), and with the IndexedDB backend a checkpoint every `intervalMs` of wall
 * time (one in flight at a time) and a final one. The run ends when every event is processed and every
 * checkpoint is durable.
 */
export async function keyedCountWithBackend(events: readonly KeyedEvent[], kind: 'memory' | 'indexeddb', intervalMs = 1000, idbFactory?: IDBFactory): Promise<{ eps: number; checkpoints: number }> {
  const dbName = `weir-bench-sb-${++serial}-${Math.floor(now())}`;
  const durable: IndexedDbStateBackend[] = [];
  const backend =
    kind === 'memory'
      ? undefined
      : (node: { id: string }, time: ConstructorParameters<typeof IndexedDbStateBackend>[0]['time']): KeyedStateBackend => {
          const b = new IndexedDbStateBackend({ dbName, subtask: `${node.id}#0`, time, idbFactory, locks: null });
          durable.push(b);
          return b;
        };
  const t0 = now();
  const ex = new Executor(keyedCountPlan(), { keepChangelog: false, readers: { events: readyReader(events) }, backend });
  for (const b of durable) await b.open();
  let inFlight: Promise<PersistResult[]> | null = null;
  let last = now();
  let id = 0;
  const checkpoint = () => {
    ex.drainInFlight();
    id++;
    const done = Promise.all(durable.map((b) => b.persist(id).done));
    inFlight = done;
    void done.finally(() => {
      if (inFlight === done) inFlight = null;
    });
    last = now();
  };
  while (!ex.isFinished()) {
    ex.run(256);
    await yieldToLoop();
    // As the runtime's coordinator (and Flink's default): one checkpoint in flight at a time.
    if (durable.length && !inFlight && now() - last >= intervalMs) checkpoint();
  }
  await inFlight;
  // The job's final checkpoint, so that a run shorter than the interval still pays for one.
  if (durable.length) {
    checkpoint();
    await inFlight;
  }
  const ms = now() - t0;
  for (const b of durable) b.close();
  if (durable.length) await deleteNamespace(dbName, idbFactory);
  return { eps: events.length / (ms / 1000), checkpoints: id };
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
