import { IndexedDbStateBackend } from '../../src/storage/indexeddb/indexedDbBackend.ts';
import { deleteNamespace } from '../../src/storage/indexeddb/db.ts';
import { keyGroupOf } from '../../src/core/keys.ts';
import { valueState } from '../../src/state/descriptors.ts';
import type { KeyedStateHandle } from '../../src/state/snapshotHandles.ts';
import type { StateTime } from '../../src/state/backend.ts';
import { median, now, type RunPlan } from '../lib/stats.ts';

const TIME: StateTime = { processingTime: () => 0, eventTime: () => 1_700_000_000_000 };
const CHUNK = 512;
let serial = 0;

/** The aggregate operator's state for one group of a count + sum (see operators/aggregate.ts). */
const groupValue = (k: number, bump = 0) => ({ n: 3 + bump, accs: [3 + bump, [41.5 + bump, 3 + bump]], out: { key: k, cnt: 3 + bump, total: 41.5 + bump } });

async function filledBackend(keys: number, idbFactory?: IDBFactory, dbName = `weir-bench-${++serial}-${Math.floor(now())}`) {
  const b = await new IndexedDbStateBackend({ dbName, subtask: 'totals#0', time: TIME, idbFactory, locks: null }).open();
  const group = b.value(valueState<ReturnType<typeof groupValue>>('group'));
  for (let k = 0; k < keys; k++) {
    b.setCurrentKey(k);
    group.update(groupValue(k));
  }
  return { b, group, dbName };
}

/** Raw IndexedDB: the same entries in chunk values of 512 per key group, keyed out of line as Weir's store is, one strict transaction. */
export async function rawWriteRead(keys: number, idbFactory?: IDBFactory): Promise<{ writeMs: number; readMs: number }> {
  const factory = idbFactory ?? indexedDB;
  const name = `weir-bench-raw-${++serial}-${Math.floor(now())}`;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name, 1);
    req.onupgradeneeded = () => req.result.createObjectStore('chunks');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const byKg = new Map<number, unknown[]>();
  for (let k = 0; k < keys; k++) {
    const kg = keyGroupOf(k);
    let l = byKg.get(kg);
    if (!l) byKg.set(kg, (l = []));
    l.push([k, [['group', 'value', groupValue(k), 0, 1_700_000_000_000]]]);
  }
  const t0 = now();
  const tx = db.transaction('chunks', 'readwrite', { durability: 'strict' });
  let id = 0;
  for (const [kg, entries] of byKg) {
    for (let i = 0; i < entries.length; i += CHUNK) {
      const chunk = { id: String(id++).padStart(12, '0'), kg, writtenBy: 1, entries: entries.slice(i, i + CHUNK) };
      tx.objectStore('chunks').put(chunk, chunk.id);
    }
  }
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  const writeMs = now() - t0;
  const t1 = now();
  const rtx = db.transaction('chunks', 'readonly');
  const got = await new Promise<number>((resolve, reject) => {
    const req = rtx.objectStore('chunks').getAll();
    req.onsuccess = () => resolve((req.result as { entries: unknown[] }[]).reduce((n, c) => n + c.entries.length, 0));
    req.onerror = () => reject(req.error);
  });
  const readMs = now() - t1;
  // Closing with a transaction still finishing would make the delete below report "blocked".
  await new Promise<void>((resolve) => {
    rtx.oncomplete = () => resolve();
    rtx.onabort = () => resolve();
  });
  if (got !== keys) throw new Error(`raw read found ${got} entries, wrote ${keys}`);
  db.close();
  await deleteNamespace(name, factory);
  return { writeMs, readMs };
}

export interface CheckpointRun {
  fullMs: number;
  fullSyncMs: number;
  incrementalMs: number;
  incrementalSyncMs: number;
  restoreMs: number;
}

/** Full checkpoint (every key dirty), then one after 1% of keys changed, then a restore into a fresh backend. */
export async function checkpointOnce(keys: number, idbFactory?: IDBFactory): Promise<CheckpointRun> {
  const { b, group, dbName } = await filledBackend(keys, idbFactory);
  let t0 = now();
  const full = b.persist(1, { incremental: true });
  const fullSyncMs = now() - t0;
  await full.done;
  const fullMs = now() - t0;
  const step = 100;
  for (let k = 0; k < keys; k += step) {
    b.setCurrentKey(k);
    group.update(groupValue(k, 1));
  }
  t0 = now();
  const inc = b.persist(2, { incremental: true });
  const incrementalSyncMs = now() - t0;
  const { handle } = await inc.done;
  const incrementalMs = now() - t0;
  b.close();
  const fresh = await new IndexedDbStateBackend({ dbName, subtask: 'totals#0', time: TIME, idbFactory, locks: null }).open();
  t0 = now();
  await fresh.restoreHandles([handle as KeyedStateHandle]);
  const restoreMs = now() - t0;
  const restored = fresh.keys('group').length;
  fresh.close();
  await deleteNamespace(dbName, idbFactory);
  if (restored !== keys) throw new Error(`restore brought back ${restored} of ${keys} keys`);
  return { fullMs, fullSyncMs, incrementalMs, incrementalSyncMs, restoreMs };
}

/** checkpoint.* and recovery.*: Weir's backend and raw IndexedDB of the same entries, interleaved per round. */
export async function checkpointSuite(keys: number, plan: RunPlan, idbFactory?: IDBFactory): Promise<Record<string, number>> {
  const runs: CheckpointRun[] = [];
  const raws: { writeMs: number; readMs: number }[] = [];
  for (let round = 0; round < plan.warmups + plan.runs; round++) {
    const a = round % 2 ? await rawWriteRead(keys, idbFactory) : null;
    const c = await checkpointOnce(keys, idbFactory);
    const r = a ?? (await rawWriteRead(keys, idbFactory));
    if (round < plan.warmups) continue;
    runs.push(c);
    raws.push(r);
  }
  const m = (f: (r: CheckpointRun) => number) => median(runs.map(f));
  return {
    'checkpoint.fullMs1MKeys': m((r) => r.fullMs),
    'checkpoint.rawWriteMs1MKeys': median(raws.map((r) => r.writeMs)),
    'checkpoint.ratioFullToRaw': median(runs.map((r, i) => r.fullMs / raws[i].writeMs)),
    'checkpoint.incrementalMs1MKeys': m((r) => r.incrementalMs),
    'checkpoint.ratioIncrementalToFull': median(runs.map((r) => r.incrementalMs / r.fullMs)),
    'checkpoint.syncPartMaxMs': Math.max(...runs.map((r) => Math.max(r.fullSyncMs, r.incrementalSyncMs))),
    'recovery.restoreMs1MKeys': m((r) => r.restoreMs),
    'recovery.rawReadMs1MKeys': median(raws.map((r) => r.readMs)),
    'recovery.ratioToRawRead': median(runs.map((r, i) => r.restoreMs / raws[i].readMs)),
  };
}

/** scaling.checkpointMs.*: a full checkpoint as the state grows. */
export async function checkpointScalingSuite(sizes: Record<string, number>, plan: RunPlan, idbFactory?: IDBFactory): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, keys] of Object.entries(sizes)) {
    const xs: number[] = [];
    for (let round = 0; round < plan.warmups + plan.runs; round++) {
      const r = await checkpointOnce(keys, idbFactory);
      if (round >= plan.warmups) xs.push(r.fullMs);
    }
    out[`scaling.checkpointMs.${name}`] = median(xs);
  }
  return out;
}
