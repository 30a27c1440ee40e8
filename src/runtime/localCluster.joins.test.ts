import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import type { ClusterOptions, Kill } from './localCluster.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { ordersPaymentsJoinDoc } from '../testing/chaos/joinDocs.ts';
import type { JoinType } from '../testing/chaos/joinDocs.ts';
import { paddedSideKey, waitingPaddedSubtask } from '../testing/chaos/paddedKill.ts';
import { seededRng } from '../core/rng.ts';
import { IndexedDbStateBackend } from '../storage/indexeddb/indexedDbBackend.ts';
import type { Element, Row } from '../core/types.ts';
import { compareRows } from '../engine/operators/changelogTable.ts';

// Outer joins emit a NULL-padded row, then retract it when the match arrives. In a view without
// a primary key (a multiset of rows) the retraction must reach the sink subtask holding the
// padded row, before and after every restore; a match must never be lost or doubled.

const TYPES: JoinType[] = ['left', 'full', 'inner'];
const base = { checkpointIntervalMs: 40, batchSize: 16, restart: { type: 'fixedDelay', delayMs: 5, maxAttempts: 10 } } as const;
const doc = (type: JoinType, parallelism: number) => ordersPaymentsJoinDoc({ type, parallelism, orders: 400 });

const reference = new Map(TYPES.map((t) => [t, runPipeline(doc(t, 1)).views.view]));
/** Orders the plain run matched with a payment: their padded rows are retracted later. */
const matched = new Set(runPipeline(doc('inner', 1)).views.view.map((r) => r.order_id));

/** The multiset the published changelog replays to: nothing committed twice or lost. */
function replay(log: readonly Element[]): Row[] {
  const copies = new Map<string, { row: Row; n: number }>();
  for (const e of log) {
    const k = JSON.stringify(e.row);
    const c = copies.get(k) ?? { row: e.row, n: 0 };
    c.n += e.kind === '+I' || e.kind === '+U' ? 1 : -1;
    copies.set(k, c);
  }
  return [...copies.values()].flatMap((c) => Array.from({ length: Math.max(0, c.n) }, () => c.row)).sort((a, b) => compareRows(a, b, Object.keys(a)));
}

function expectExact(type: JoinType, res: Awaited<ReturnType<LocalCluster['run']>>, what: string): void {
  expect(res.status, `${what}: ${res.reason}`).toBe('finished');
  expect(res.deadLetters.map((d) => d.reason), what).toEqual([]);
  expect(res.views.view, what).toEqual(reference.get(type));
  expect(replay(res.changelogs.view), `${what}: replayed changelog`).toEqual(reference.get(type));
}

/** Runs the job, killing the join subtask that holds a committed padded row still waiting for its match. */
async function runWithPaddedKill(type: JoinType, p: number, opts: ClusterOptions): Promise<{ res: Awaited<ReturnType<LocalCluster['run']>>; hit: boolean }> {
  const committed = new Set<string>();
  let fresh = false;
  const cluster = new LocalCluster(planOrThrow(doc(type, p)), {
    ...opts,
    onPublish: (_sink, els) => {
      for (const e of els) {
        const k = e.kind === '+I' ? paddedSideKey(e) : null;
        if (k) (committed.add(k), (fresh = true));
      }
    },
  });
  await cluster.start();
  let hit = false;
  while ((await cluster.step()) === 'running') {
    if (hit || !fresh) continue;
    fresh = false;
    const victim = waitingPaddedSubtask(cluster, 'paid', committed, matched);
    if (victim) (cluster.kill(victim), (hit = true));
  }
  return { res: cluster.result(), hit };
}

describe('joins under restarts (LocalCluster)', () => {
  it('views without a primary key are exact when a committed padded row is retracted after a restore', async () => {
    for (const type of ['left', 'full'] as const) {
      for (const p of [2, 3, 4]) {
        const { res, hit } = await runWithPaddedKill(type, p, { ...base, scheduleSeed: p });
        expect(hit, `${type} p=${p}: no padded row was waiting at a kill point`).toBe(true);
        expect(res.restarts).toBe(1);
        expectExact(type, res, `${type} p=${p} (kill between a padded row and its match)`);
      }
    }
  });

  it('left, full and inner joins at parallelism 2-4 survive 1-3 seeded kills (processing, alignment, snapshot writes)', async () => {
    const rng = seededRng(15);
    const modes: Kill['when'][] = ['any', 'aligning', 'writing'];
    let restarts = 0;
    for (const type of TYPES) {
      for (const p of [2, 3, 4]) {
        const opts = { ...base, scheduleSeed: 100 + p };
        const plain = await new LocalCluster(planOrThrow(doc(type, p)), opts).run();
        expectExact(type, plain, `${type} p=${p} without kills`);
        for (let trial = 0; trial < 2; trial++) {
          const kills: Kill[] = Array.from({ length: 1 + rng.int(3) }, () => ({ atStep: 1 + rng.int(Math.floor(plain.steps * 0.9)), when: modes[rng.int(3)] }));
          const res = await new LocalCluster(planOrThrow(doc(type, p)), { ...opts, kills }).run();
          restarts += res.restarts;
          expectExact(type, res, `${type} p=${p} kills ${JSON.stringify(kills)}`);
        }
      }
    }
    expect(restarts).toBeGreaterThanOrEqual(18);
  }, 60_000);

  it('the same with the IndexedDB state backend', async () => {
    for (const [i, type] of TYPES.entries()) {
      const idbFactory = new IDBFactory();
      const { res, hit } = await runWithPaddedKill(type, 2 + i, {
        ...base,
        scheduleSeed: 7 + i,
        kills: type === 'inner' ? [{ atStep: 300, when: 'writing' }] : [],
        backend: async (node, index, time) => new IndexedDbStateBackend({ dbName: `join-${type}`, subtask: `${node.id}#${index}`, time, idbFactory, locks: null }).open(),
      });
      expect(hit || type === 'inner').toBe(true);
      expect(res.restarts, type).toBeGreaterThanOrEqual(1);
      expectExact(type, res, `${type} on IndexedDB`);
    }
  }, 60_000);

  it('a view without a primary key is exact when its parallelism differs from the join (no failure)', async () => {
    for (const type of ['left', 'full'] as const) {
      const d = doc(type, 3);
      d.nodes.find((n) => n.id === 'view')!.parallelism = 2;
      expectExact(type, await new LocalCluster(planOrThrow(d), { ...base, scheduleSeed: 3 }).run(), `${type} join p=3 into view p=2`);
    }
  });
});

describe('multiset views under restarts', () => {
  it('keeps every copy of a duplicated row across a restore (copies once sat in two subtasks and one overwrote the other)', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ sku: `s${Math.floor(i / 7) % 30}`, qty: 1 }));
    const d = (p: number) => ({
      format: 'weir/pipeline',
      version: 1,
      name: 'duplicates',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows } },
        { id: 'shape', kind: 'map', params: { code: '(row) => ({ sku: row.sku, qty: row.qty })' }, parallelism: p },
        { id: 'view', kind: 'viewSink', params: {}, parallelism: p },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'shape', port: 'in' } },
        { from: { node: 'shape', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    });
    const expected = runPipeline(d(1)).views.view;
    for (const p of [2, 3]) {
      const res = await new LocalCluster(planOrThrow(d(p)), { ...base, scheduleSeed: p, kills: [{ atStep: 120 }] }).run();
      expect(res.restarts).toBe(1);
      expect(res.views.view, `p=${p}`).toEqual(expected);
    }
  });
});
