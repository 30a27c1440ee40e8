import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import type { ClusterOptions, ClusterResult, Kill } from './localCluster.ts';
import { readSnapshots } from './jobMaster.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { seededRng } from '../core/rng.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';
import { numericKeyDoc, numericKeyRows } from '../testing/chainingDocs.ts';

// Fused (the view chained behind its GROUP BY, reading its columns; with no reader of the
// changelog the aggregate builds no rows) against unfused (every operator on its own), on numeric
// keys: the key index's integer path, -0 against 0 in one- and two-field keys, NaN, NULL, keys
// beyond int32, and a GROUP BY over another's changelog (retractions).

type Doc = Record<string, unknown>;
const CHECKPOINTED = { checkpointIntervalMs: 25, batchSize: 16, restart: { type: 'fixedDelay', delayMs: 2, maxAttempts: 20 } } as const;
const AGGREGATES = ['totals', 'pairs', 'counts', 'by_n'];
const FUSED = ['view', 'pair_view', 'n_view'];

interface Side {
  res: ClusterResult;
  cluster: LocalCluster;
  store: MemoryCheckpointStore;
}

async function run(doc: Doc, opts: ClusterOptions): Promise<Side> {
  const store = new MemoryCheckpointStore();
  const cluster = new LocalCluster(planOrThrow(doc), { ...opts, jobId: 'j', store });
  return { res: await cluster.run(), cluster, store };
}

/**
 * The aggregates' snapshots of every checkpoint, by where the source stood: at a barrier the
 * state is a function of the input before it, so two runs that cut at the same offset must hold
 * the same groups, whichever way their views ran (and whenever their checkpoints fell).
 */
async function checkpointsByCut(store: MemoryCheckpointStore): Promise<Map<string, Record<string, SubtaskSnapshot[]>>> {
  const out = new Map<string, Record<string, SubtaskSnapshot[]>>();
  for (const m of await store.list('j')) {
    const snaps = await readSnapshots(store, m);
    // In subtask order (a manifest lists subtasks as they acknowledged).
    const bySubtask = (list: SubtaskSnapshot[]) => [...list].sort((a, b) => (a.subtask < b.subtask ? -1 : 1));
    out.set(JSON.stringify(snaps.src.map((s) => s.source)), Object.fromEntries(AGGREGATES.map((id) => [id, bySubtask(snaps[id])])));
  }
  return out;
}

/** Each node's dead letters by input row (every row has its own ts), whichever subtask took its turn first. */
const byNode = (r: ClusterResult): Record<string, unknown[]> => {
  const out: Record<string, { row?: unknown }[]> = {};
  for (const d of r.deadLetters) (out[d.nodeId] ??= []).push(d);
  const ts = (d: { row?: unknown }) => (d.row as { ts: number }).ts;
  for (const list of Object.values(out)) list.sort((a, b) => ts(a) - ts(b));
  return out;
};

/** -0 and NaN spelled out, so sorting never merges rows that toEqual tells apart. */
const text = (v: unknown): string => (Object.is(v, -0) ? '-0' : typeof v === 'number' ? String(v) : JSON.stringify(v));
const rowText = (row: Record<string, unknown>): string => Object.keys(row).sort().map((c) => `${c}=${text(row[c])}`).join(',');
const sortedViews = (views: Record<string, Record<string, unknown>[]>) =>
  Object.fromEntries(Object.entries(views).map(([id, rows]) => [id, [...rows].sort((a, b) => (rowText(a) < rowText(b) ? -1 : rowText(a) > rowText(b) ? 1 : 0))]));

const visible = (r: ClusterResult) => ({ status: r.status, views: r.views, changelogs: r.changelogs, deadLetters: r.deadLetters, restarts: r.restarts });

describe('fused keyBy → GROUP BY → upsert view, against the unfused chain', () => {
  it('same views, changelogs, dead letters and checkpoints, with kills and restores in the middle', async () => {
    const modes: Kill['when'][] = ['any', 'aligning', 'writing'];
    let restarts = 0;
    let checkpoints = 0;
    for (let trial = 0; trial < 8; trial++) {
      const rng = seededRng(500 + trial);
      const p = 1 + (trial % 2);
      const doc = numericKeyDoc(numericKeyRows(rng, 300 + rng.int(300), rng.pick([4, 30, 400])), p);
      const plain = runPipeline(doc, { chain: false });
      const horizon = (await run(doc, { ...CHECKPOINTED, scheduleSeed: trial, chain: false })).res.steps;
      const kills: Kill[] = Array.from({ length: 1 + rng.int(3) }, () => ({ atStep: 1 + rng.int(Math.floor(horizon * 0.8)), when: modes[rng.int(3)] }));
      const opts = { ...CHECKPOINTED, scheduleSeed: trial, kills };
      for (const keepChangelog of [true, false]) {
        const fused = await run(doc, { ...opts, keepChangelog });
        const unfused = await run(doc, { ...opts, keepChangelog, chain: false });
        const what = `trial ${trial}, p=${p}, changelog ${keepChangelog ? 'published' : 'unread'}`;
        expect(fused.cluster.chains().chains.map((c) => c.view).sort(), what).toEqual([...FUSED].sort());
        expect(unfused.cluster.chains().chains, what).toEqual([]);
        expect(fused.res.status, `${what}: ${fused.res.reason}`).toBe('finished');
        if (keepChangelog) expect(visible(fused.res), what).toEqual(visible(unfused.res));
        else {
          // Aggregates that emit nothing leave the scheduler other work, so nodes and subtasks
          // take turns in another order: the same dead letters, listed per node.
          // Their checkpoints then cut elsewhere, and a view lists the keys a restore put back in
          // key-group order before the later ones: the same rows, in an order that follows the cut.
          const seen = (r: ClusterResult) => ({ ...visible(r), views: sortedViews(r.views), deadLetters: byNode(r) });
          expect(seen(fused.res), what).toEqual(seen(unfused.res));
        }
        // Against a run without checkpoints or kills: the same rows. Only at p=1: at p=2 a GROUP BY
        // over a changelog takes its two inputs' changes in the schedule's order, and float sums
        // (with ±Infinity and NaN) depend on the order of additions.
        if (p === 1) expect(sortedViews(fused.res.views), what).toEqual(sortedViews(plain.views));
        // Published, both runs take the same turns: every snapshot of an aggregate is the same. Unread,
        // checkpoints fall elsewhere (other ids, epochs and counters, and a key group lists its keys
        // in the order its last restore and later inserts left): each group's numbers and row at a
        // shared cut are the same. (Not the event time of a group's last write: after a kill, the
        // unfused run can hold an earlier one at the same cut; only TTL reads it, which no GROUP BY has.)
        const groupsOf = (list: SubtaskSnapshot[]) =>
          list.map((x) => (x.keyed.type === 'inline' ? Object.fromEntries(Object.entries(x.keyed.snapshot.keyGroups).map(([kg, cells]) => [kg, cells.map(({ eventTime: _, ...c }) => c).sort((a, b) => (text(a.key) < text(b.key) ? -1 : 1))])) : x.keyed));
        const part = (snaps: Record<string, SubtaskSnapshot[]>) => (keepChangelog ? snaps : Object.fromEntries(Object.entries(snaps).map(([id, list]) => [id, groupsOf(list)])));
        const cuts = await checkpointsByCut(fused.store);
        for (const [cut, groups] of await checkpointsByCut(unfused.store)) {
          if (!cuts.has(cut)) continue;
          const [mine, theirs] = [part(cuts.get(cut)!), part(groups)];
          for (const id of Object.keys(theirs)) expect(mine[id], `${what}, "${id}" checkpointed at ${cut}`).toEqual(theirs[id]);
          expect(Object.keys(mine)).toEqual(Object.keys(theirs));
          checkpoints++;
        }
        if (keepChangelog) expect(cuts.size, what).toBe((await fused.store.list('j')).length);
        restarts += fused.res.restarts;
        // With no reader of the changelog, the fused aggregates emit nothing at all.
        if (!keepChangelog) for (const id of AGGREGATES) if (id !== 'counts') expect(fused.cluster.task(id)?.recordsOut ?? 0, `${what}: ${id}`).toBe(0);
      }
    }
    // The kills fell and the checkpoints were taken.
    expect(restarts).toBeGreaterThan(8);
    expect(checkpoints).toBeGreaterThan(16);
  }, 240_000);

  it('keeps the group-by values a key was last emitted with, -0 against 0 included, without a changelog reader', () => {
    const rows = [
      { k: 0, g: 0, amount: 1, ts: 0 },
      { k: -0, g: -0, amount: 2, ts: 10 },
      { k: -0, g: 0, amount: null, ts: 20 },
      { k: 0, g: -0, amount: 3, ts: 30 },
      { k: Number.NaN, g: 1, amount: 4, ts: 40 },
      { k: Number.NaN, g: 1, amount: 5, ts: 50 },
    ];
    const doc = numericKeyDoc(rows, 1);
    const unfused = runPipeline(doc, { chain: false, keepChangelog: false });
    const fused = runPipeline(doc, { keepChangelog: false });
    expect(fused.job.chains().chains.length).toBe(3);
    expect(fused.views).toEqual(unfused.views);
    // The last change of key 0 came from k = 0: the view shows it as 0, not -0.
    expect(Object.is(fused.views.view.find((r) => r.k === 0)!.k, 0)).toBe(true);
    expect(Object.is(unfused.views.view.find((r) => r.k === 0)!.k, 0)).toBe(true);
  });
});

describe('where fusion cannot apply, the unfused chain runs', () => {
  type Node = { id: string; kind: string; params: Record<string, unknown>; parallelism?: number };
  type Editable = { nodes: Node[]; edges: { from: { node: string; port: string }; to: { node: string; port: string } }[] };
  const rows = numericKeyRows(seededRng(9), 400, 25);
  const edit = (change: (d: Editable) => void): Doc => {
    const d = numericKeyDoc(rows, 1) as unknown as Editable;
    change(d);
    return d as unknown as Doc;
  };
  const link = (from: string, to: string) => ({ from: { node: from, port: 'out' }, to: { node: to, port: 'in' } });
  const cases: [string, Doc, RegExp | null][] = [
    [
      'a filter between the GROUP BY and the view',
      edit((d) => {
        d.nodes.push({ id: 'positive', kind: 'filter', params: { where: 'n > 1' } });
        d.edges = d.edges.filter((e) => !(e.from.node === 'totals' && e.to.node === 'view'));
        d.edges.push(link('totals', 'positive'), link('positive', 'view'));
      }),
      null,
    ],
    ['a view keyed by the same fields in another order', edit((d) => void (d.nodes.find((n) => n.id === 'pair_view')!.params.primaryKey = ['g', 'k'])), /primary key \(g, k\) is not the GROUP BY key \(k, g\)/],
    ['a view at another parallelism', edit((d) => void (d.nodes.find((n) => n.id === 'view')!.parallelism = 2)), /different parallelism \(1 and 2\)/],
    [
      'another consumer of the changelog',
      edit((d) => {
        d.nodes.push({ id: 'log', kind: 'logSink', params: {} });
        d.edges.push(link('totals', 'log'));
      }),
      /"totals" also feeds "log"/,
    ],
    ['calls the columns cannot hold (MIN)', edit((d) => void (d.nodes.find((n) => n.id === 'totals')!.params.aggregates = [{ fn: 'min', field: 'amount', as: 'low' }])), /per-key cells/],
  ];
  for (const [what, doc, reason] of cases) {
    it(`${what}: same results as with fusion off`, () => {
      const run = (opts: ClusterOptions) => {
        const cluster = new LocalCluster(planOrThrow(doc), { checkpointIntervalMs: null, ...opts });
        return { res: cluster.runSync(), cluster };
      };
      const on = run({});
      const off = run({ chain: false });
      const silentOn = run({ keepChangelog: false });
      const silentOff = run({ chain: false, keepChangelog: false });
      const view = what.includes('another order') ? 'pair_view' : 'view';
      expect(on.cluster.chains().chains.map((c) => c.view)).not.toContain(view);
      if (reason) expect(on.cluster.chains().unchained.find((c) => c.view === view)?.reason).toMatch(reason);
      // The view keeps its own rows, and the rest of the job still fuses.
      const held = on.cluster.subtasksOf(view).reduce((n, r) => n + r.task!.state.keys('row').length, 0);
      expect(held).toBe(on.res.views[view].length);
      expect(on.res.views[view].length).toBeGreaterThan(0);
      expect(on.cluster.chains().chains.length).toBeGreaterThan(0);
      expect(visible(on.res)).toEqual(visible(off.res));
      expect(silentOn.res.views).toEqual(silentOff.res.views);
      expect(silentOn.res.views).toEqual(off.res.views);
    });
  }
});
