import { describe, expect, it } from 'vitest';
import { LocalCluster } from './localCluster.ts';
import type { ClusterOptions, ClusterResult, Kill } from './localCluster.ts';
import { chainedRestore, describeChains, viewChains } from './chaining.ts';
import { readSnapshots } from './jobMaster.ts';
import { ClusterObserver } from './observe/observer.ts';
import { MemoryCheckpointStore } from '../checkpoint/memoryStore.ts';
import { planOrThrow, runPipeline } from '../testing/runPipeline.ts';
import { seededRng } from '../core/rng.ts';
import type { SnapshotCell } from '../state/backend.ts';
import type { SubtaskSnapshot } from '../checkpoint/types.ts';

import { chainingDoc as docFor, chainingRows as randomRows } from '../testing/chainingDocs.ts';

type Doc = Record<string, unknown>;
const edge = (from: string, to: string) => ({ from: { node: from, port: 'out' }, to: { node: to, port: 'in' } });

const CHECKPOINTED = { checkpointIntervalMs: 25, batchSize: 16, restart: { type: 'fixedDelay', delayMs: 2, maxAttempts: 20 } } as const;

async function run(doc: Doc, opts: ClusterOptions): Promise<{ res: ClusterResult; cluster: LocalCluster }> {
  const cluster = new LocalCluster(planOrThrow(doc), opts);
  return { res: await cluster.run(), cluster };
}

/** Everything a user or test sees of a run: views, the published changelog in order, dead letters. */
const visible = (r: ClusterResult) => ({ status: r.status, views: r.views, changelogs: r.changelogs, deadLetters: r.deadLetters, restarts: r.restarts });

describe('chaining a view behind its GROUP BY', () => {
  it('decides at the job graph and says why a pair stays apart', () => {
    const plan = planOrThrow(docFor([], 1));
    expect(describeChains(viewChains(plan))).toEqual(['chained: totals → view (the view reads totals\'s groups)', 'chained: by_count → histogram (the view reads by_count\'s groups)']);
    const doc = docFor([], 2) as { nodes: { id: string; parallelism?: number; params: Record<string, unknown> }[]; edges: unknown[] };
    doc.nodes.find((n) => n.id === 'view')!.parallelism = 1;
    doc.nodes.find((n) => n.id === 'histogram')!.params.primaryKey = ['c', 'keys'];
    doc.nodes.push({ id: 'log', kind: 'logSink', params: {} } as never);
    doc.edges.push(edge('totals', 'log'));
    expect(describeChains(viewChains(planOrThrow(doc)))).toEqual([
      'not chained: totals → view: "totals" also feeds "log"',
      "not chained: by_count → histogram: the view's primary key (c, keys) is not the GROUP BY key (c)",
    ]);
    doc.edges.pop();
    doc.nodes.pop();
    expect(viewChains(planOrThrow(doc)).unchained[0].reason).toBe('different parallelism (2 and 1)');
    expect(viewChains(plan, { enabled: false }).chains).toEqual([]);
  });

  it('falls back when the aggregate keeps per-key cells (MIN/MAX) or an observatory taps the job', () => {
    const doc = docFor(randomRows(seededRng(1), 200, 9), 1) as { nodes: { id: string; params: Record<string, unknown> }[] };
    doc.nodes.find((n) => n.id === 'totals')!.params.aggregates = [{ fn: 'max', field: 'ts', as: 'last' }];
    const { job, views } = runPipeline(doc);
    expect(job.chains().chains.map((c) => c.view)).toEqual(['histogram']);
    expect(job.chains().unchained[0].reason).toMatch(/per-key cells/);
    expect(views.view.length).toBeGreaterThan(0);
    expect(job.task('view')!.state.keys('row').length).toBe(views.view.length);
    const observed = new LocalCluster(planOrThrow(docFor([], 1)), { checkpointIntervalMs: null });
    const observer = new ClusterObserver(observed);
    observed.runSync();
    expect(observed.chains().chains).toEqual([]);
    observer.detach();
  });

  it('gives the same views, changelogs and dead letters as the unchained plan, plain and publishing nothing', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const rng = seededRng(seed);
      // Few keys (long update chains), and many (the state's columns grow several times).
      const doc = docFor(randomRows(rng, 150 + rng.int(800), rng.pick([3, 40, 2000])), 1);
      const chained = runPipeline(doc);
      const unchained = runPipeline(doc, { chain: false });
      expect(chained.job.chains().chains.length, `seed ${seed}`).toBe(2);
      expect(unchained.job.chains().chains.length).toBe(0);
      expect(chained.views, `seed ${seed}`).toEqual(unchained.views);
      expect(chained.changelogs, `seed ${seed}`).toEqual(unchained.changelogs);
      expect(chained.deadLetters, `seed ${seed}`).toEqual(unchained.deadLetters);
      expect(chained.deadLetters.length).toBeGreaterThan(0);
      // The chained view keeps no rows of its own, and a lookup reads the aggregate.
      expect(chained.job.task('view')!.state.keys('row')).toEqual([]);
      const op = chained.job.task('view')!.operator as unknown as { lookup(k: unknown): unknown };
      for (const row of unchained.views.view) expect(op.lookup(row.k ?? null)).toEqual(row);
      // Nobody reads the changelog: the aggregate builds none, the views are the same.
      const silent = runPipeline(doc, { keepChangelog: false });
      expect(silent.views).toEqual(unchained.views);
      expect(silent.deadLetters).toEqual(unchained.deadLetters);
      expect(silent.job.task('totals')!.recordsOut).toBe(0);
    }
  });

  it('keeps exactly-once results under seeded kills at parallelism 1 and 2, identical to the unchained run', async () => {
    const modes: Kill['when'][] = ['any', 'aligning', 'writing'];
    const rng = seededRng(77);
    let restarts = 0;
    for (let trial = 0; trial < 8; trial++) {
      const p = 1 + (trial % 2);
      const doc = docFor(randomRows(seededRng(100 + trial), 400, 25), p);
      const reference = runPipeline(docFor(randomRows(seededRng(100 + trial), 400, 25), 1)).views;
      const horizon = (await run(doc, { ...CHECKPOINTED, scheduleSeed: trial })).res.steps;
      const kills: Kill[] = Array.from({ length: 1 + rng.int(3) }, () => ({ atStep: 1 + rng.int(Math.floor(horizon * 0.8)), when: modes[rng.int(3)] }));
      const opts = { ...CHECKPOINTED, scheduleSeed: trial, kills };
      const chained = await run(doc, opts);
      const unchained = await run(doc, { ...opts, chain: false });
      expect(chained.cluster.chains().chains.length).toBe(2);
      expect(chained.res.status, `trial ${trial}: ${chained.res.reason}`).toBe('finished');
      restarts += chained.res.restarts;
      expect(visible(chained.res), `trial ${trial}`).toEqual(visible(unchained.res));
      expect(chained.res.views, `trial ${trial}`).toEqual(reference);
    }
    // The kills really fell.
    expect(restarts).toBeGreaterThan(8);
  }, 120_000);

  it('checkpoints a chained view as derived, and restores both ways', async () => {
    const doc = docFor(randomRows(seededRng(5), 600, 30), 2);
    const plan = planOrThrow(doc);
    const reference = runPipeline(docFor(randomRows(seededRng(5), 600, 30), 1)).views;
    const stores = { chained: new MemoryCheckpointStore(), unchained: new MemoryCheckpointStore() };
    // The same first half of a run, chained and not: same steps, same checkpoints.
    for (const side of ['chained', 'unchained'] as const) {
      const c = new LocalCluster(plan, { ...CHECKPOINTED, jobId: 'j', store: stores[side], chain: side === 'chained' });
      await c.start();
      for (let i = 0; i < 400 && (await c.step()) === 'running'; i++);
    }
    const [mc] = (await stores.chained.list('j')).slice(-1);
    const [mu] = (await stores.unchained.list('j')).slice(-1);
    expect(mc.checkpointId).toBe(mu.checkpointId);
    const sc = await readSnapshots(stores.chained, mc);
    const su = await readSnapshots(stores.unchained, mu);
    // The aggregates' snapshots are the same; the chained view's holds no rows and names its aggregate.
    for (const id of ['totals', 'by_count']) expect(sc[id]).toEqual(su[id]);
    expect(sc.view.every((s) => s.derivedFrom === 'totals' && cellsOf([s]).length === 0)).toBe(true);
    expect(su.view.some((s) => cellsOf([s]).length > 0)).toBe(true);
    // Rebuilt for an unchained view, the rows are the cells the unchained view wrote.
    const rebuilt = chainedRestore(plan, sc, new Set());
    for (const id of ['view', 'histogram']) expect(rowCells(rebuilt[id])).toEqual(rowCells(su[id]));
    // The aggregate's state left out on purpose (--allow-non-restored-state): the view derived from it starts empty too.
    const { totals: _, ...withoutTotals } = sc;
    expect(cellsOf(chainedRestore(plan, withoutTotals, new Set()).view)).toEqual([]);
    // A chained view takes none of an unchained checkpoint's rows: they are the aggregate's groups.
    expect(cellsOf(chainedRestore(plan, su, new Set(['view'])).view)).toEqual([]);
    // Each checkpoint resumes the other way round, to the plain run's views.
    for (const [side, chain] of [['chained', false], ['unchained', true]] as const) {
      const resumed = new LocalCluster(plan, { ...CHECKPOINTED, jobId: 'j', store: stores[side], chain });
      const restored: (number | null)[] = [];
      resumed.onEvent((e) => void (e.type === 'restored' && restored.push(e.checkpointId)));
      const res = await resumed.run();
      expect(restored[0]).toBe(mc.checkpointId);
      expect(resumed.chains().chains.length).toBe(chain ? 2 : 0);
      expect(res.status).toBe('finished');
      expect(res.views, `${side} checkpoint, resumed with chain ${chain}`).toEqual(reference);
    }
  }, 60_000);
});

function cellsOf(snaps: readonly SubtaskSnapshot[]): SnapshotCell[] {
  return snaps.flatMap((s) => (s.keyed.type === 'inline' ? Object.values(s.keyed.snapshot.keyGroups).flat() : []));
}

/** A view's cells by key: what a restore puts back (write times aside, which only TTL reads, and views have none). */
function rowCells(snaps: readonly SubtaskSnapshot[]): [string, unknown][] {
  return cellsOf(snaps)
    .map((c): [string, unknown] => [`${c.state}:${JSON.stringify(c.key)}`, c.value])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
