import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IndexedDbStateBackend } from '../storage/indexeddb/indexedDbBackend.ts';
import { LocalCluster } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { seededRng } from '../core/rng.ts';
import type { JobPlan } from '../pipeline/plan.ts';
import type { Row } from '../core/types.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { exportSavepoint, importSavepoint } from '../checkpoint/savepoint.ts';

// Sinks without a primary key over an append-only input keep an append log that is not keyed
// (records arrive forward or round-robin; a rescale hands whole chunks on). Over the same input
// the keyed layout (every such sink before the log: a multiset keyed by the whole row, hashed
// there) must give the same tables through kills, restores and rescales, and so must a
// checkpoint written by the keyed layout restored into the log.

const SINKS = ['collectSink', 'logSink', 'viewSink'] as const;
const base = { checkpointIntervalMs: 30, batchSize: 8, retain: 1000, restart: { type: 'fixedDelay', delayMs: 5, maxAttempts: 10 } } as const;

function randomRows(seed: number, n: number): Row[] {
  const rng = seededRng(seed);
  // Few distinct rows, so copies of one row sit in several chunks and subtasks.
  return Array.from({ length: n }, () => ({ sku: `s${rng.int(12)}`, qty: rng.int(3), note: rng.next() < 0.1 ? null : 'n' }));
}

function doc(rows: Row[], p: number, sink: string) {
  return {
    format: 'weir/pipeline',
    version: 1,
    name: 'multiset_sinks',
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows } },
      { id: 'shape', kind: 'map', params: { code: '(row) => ({ sku: row.sku, qty: row.qty * 2, note: row.note })' }, parallelism: p },
      { id: 'out', kind: sink, params: {}, parallelism: p },
    ],
    edges: [
      { from: { node: 'src', port: 'out' }, to: { node: 'shape', port: 'in' } },
      { from: { node: 'shape', port: 'out' }, to: { node: 'out', port: 'in' } },
    ],
  };
}

/** The same plan with the sink in the keyed layout: its input declared updating, so it keys by the whole row. */
function keyedLayout(plan: JobPlan): JobPlan {
  return { ...plan, nodes: plan.nodes.map((n) => (n.isSink ? { ...n, inputs: { in: { ...n.inputs.in, changelog: 'update' } } } : n)) };
}

const text = (rows: readonly Row[]) => rows.map((r) => JSON.stringify(r)).sort();

describe('multiset sinks: the append log against the keyed layout', () => {
  for (const sink of SINKS) {
    it(`${sink}: kills and restores at p=1 and p=2 give the keyed layout's table`, async () => {
      for (let seed = 1; seed <= 4; seed++) {
        const rows = randomRows(seed, 300);
        const expected = text(runPipeline(doc(rows, 1, sink)).views.out);
        expect(expected).toHaveLength(300);
        for (const p of [1, 2]) {
          const plan = planOrThrow(doc(rows, p, sink));
          const kills = [{ atStep: 40 + seed * 17 }, { atStep: 160 + seed * 11 }];
          for (const [layout, run] of [['log', plan], ['keyed', keyedLayout(plan)]] as const) {
            const res = await new LocalCluster(run, { ...base, scheduleSeed: seed, kills }).run();
            const what = `${sink} seed ${seed} p=${p} ${layout}`;
            expect(res.status, `${what}: ${res.reason}`).toBe('finished');
            expect(res.restarts, what).toBeGreaterThan(0);
            expect(res.deadLetters, what).toEqual([]);
            expect(text(res.views.out), what).toEqual(expected);
          }
        }
      }
    });
  }

  /** A mid-run checkpoint of `plan`, as a fresh store a new cluster resumes from. */
  async function midSavepoint(plan: JobPlan, seed: number): Promise<MemoryCheckpointStore> {
    const store = new MemoryCheckpointStore();
    const first = new LocalCluster(plan, { ...base, jobId: 'a', store, scheduleSeed: seed, kills: [{ atStep: 90 }] });
    expect((await first.run()).status).toBe('finished');
    const completed = first.checkpointHistory().filter((r) => r.status === 'completed');
    expect(completed.length).toBeGreaterThan(2);
    const fresh = new MemoryCheckpointStore();
    await importSavepoint(await exportSavepoint(store, 'a', completed[Math.floor(completed.length / 2)].checkpointId), fresh, 'b');
    return fresh;
  }

  it('rescales exactly: p=2 → 1 and 3, p=1 → 2, and a keyed-layout checkpoint into the log at another parallelism', async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const rows = randomRows(50 + seed, 400);
      const expected = text(runPipeline(doc(rows, 1, 'collectSink')).views.out);
      const cases: [from: number, to: number, keyedFirst: boolean][] = [[2, 1, false], [2, 3, false], [1, 2, false], [2, 3, true], [3, 1, true]];
      for (const [from, to, keyedFirst] of cases) {
        const firstPlan = planOrThrow(doc(rows, from, 'collectSink'));
        const store = await midSavepoint(keyedFirst ? keyedLayout(firstPlan) : firstPlan, seed);
        const restored: number[] = [];
        const second = new LocalCluster(planOrThrow(doc(rows, to, 'collectSink')), { ...base, jobId: 'b', store, scheduleSeed: seed });
        second.onEvent((e) => e.type === 'restored' && restored.push(e.checkpointId ?? -1));
        const res = await second.run();
        const what = `seed ${seed} p=${from}${keyedFirst ? ' (keyed)' : ''} → p=${to}`;
        expect(restored, what).toHaveLength(1);
        expect(res.status, `${what}: ${res.reason}`).toBe('finished');
        expect(res.deadLetters, what).toEqual([]);
        expect(text(res.views.out), what).toEqual(expected);
      }
    }
  });

  it('keeps the log with a durable backend too, through kills, and resumes a heap backend\'s checkpoint there', async () => {
    const rows = randomRows(7, 300);
    const expected = text(runPipeline(doc(rows, 1, 'collectSink')).views.out);
    for (const p of [1, 2]) {
      const idbFactory = new IDBFactory();
      const cluster = new LocalCluster(planOrThrow(doc(rows, p, 'collectSink')), {
        ...base,
        scheduleSeed: p,
        kills: [{ atStep: 120, when: 'writing' }],
        backend: async (node, index, time) => new IndexedDbStateBackend({ dbName: `multiset-${p}`, subtask: `${node.id}#${index}`, time, idbFactory, locks: null }).open(),
      });
      const res = await cluster.run();
      expect(res.status, res.reason).toBe('finished');
      expect(res.restarts).toBeGreaterThan(0);
      expect(text(res.views.out), `p=${p}`).toEqual(expected);
      const sinks = cluster.subtasksOf('out');
      expect(sinks.reduce((n, s) => n + s.task!.operatorState.log('rows').size(), 0), `p=${p}: every row in the logs`).toBe(300);
    }
    // A heap backend's checkpoint (rows in the log) resumed on the durable backend, at another parallelism.
    const store = await midSavepoint(planOrThrow(doc(rows, 2, 'collectSink')), 1);
    const idbFactory = new IDBFactory();
    const res = await new LocalCluster(planOrThrow(doc(rows, 3, 'collectSink')), {
      ...base,
      jobId: 'b',
      store,
      backend: async (node, index, time) => new IndexedDbStateBackend({ dbName: 'multiset-resume', subtask: `${node.id}#${index}`, time, idbFactory, locks: null }).open(),
    }).run();
    expect(res.status, res.reason).toBe('finished');
    expect(text(res.views.out)).toEqual(expected);
  });
});
