import { Executor } from '../../src/engine/executor.ts';
import { IndexedDbStateBackend } from '../../src/state/indexeddb/indexedDbBackend.ts';
import { deleteNamespace } from '../../src/state/indexeddb/db.ts';
import { memoryCheckpoint } from '../lib/executorCheckpoint.ts';
import type { KeyedStateBackend, PersistResult } from '../../src/state/backend.ts';
import { keyedEvents, readyReader, type KeyedEvent } from '../lib/events.ts';
import { keyedCountPlan } from '../lib/keyedCountDoc.ts';
import { interleave, now, pairedRatio, yieldToLoop, type RunPlan } from '../lib/stats.ts';

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
 * The keyed count with the event loop given a turn every 256 steps (so IndexedDB callbacks can
 * run), and a checkpoint every `intervalMs` of wall time, one in flight at a time (as the runtime's
 * coordinator and Flink's default), on either backend:
 * - memory: `memoryCheckpoint`, the consistent cut written to the heap checkpoint store;
 * - indexeddb: `persist()` of each backend (its incremental chunks, written off the critical path).
 * The timed region ends when the last event is processed. Waiting for a checkpoint still in flight
 * and the job's final checkpoint (the flush) come after it, on both sides alike.
 */
export async function keyedCountWithBackend(events: readonly KeyedEvent[], kind: 'memory' | 'indexeddb', intervalMs: number, idbFactory?: IDBFactory): Promise<BackendRun> {
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
  let retained: Promise<unknown> | null = null;
  const jobId = `bench-sb-${serial}`;
  const t0 = now();
  const ex = new Executor(keyedCountPlan(), { keepChangelog: false, readers: { events: readyReader(events) }, backend });
  for (const b of durable) await b.open();
  let inFlight: Promise<unknown> | null = null;
  let last = now();
  let id = 0;
  const checkpoint = () => {
    id++;
    let done: Promise<unknown>;
    if (kind === 'memory') done = retained = memoryCheckpoint(ex, jobId, id);
    else {
      ex.drainInFlight();
      done = Promise.all(durable.map((b) => b.persist(id).done)) as Promise<PersistResult[]>;
    }
    inFlight = done;
    void done.finally(() => {
      if (inFlight === done) inFlight = null;
    });
    last = now();
  };
  while (!ex.isFinished()) {
    ex.run(256);
    await yieldToLoop();
    if (!inFlight && now() - last >= intervalMs) checkpoint();
  }
  const ms = now() - t0;
  const checkpoints = id;
  // The flush, outside the timed region: the checkpoint in flight and the job's final one.
  await inFlight;
  checkpoint();
  await inFlight;
  void retained;
  for (const b of durable) b.close();
  if (durable.length) await deleteNamespace(dbName, idbFactory);
  return { eps: events.length / (ms / 1000), checkpoints };
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
