import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { ClusterSession } from './clusterSession.ts';
import type { RunSnapshot } from './protocol.ts';
import { STARTER_EXAMPLE } from '../ui/projects/starterExample.ts';
import { runPipeline } from '../testing/runPipeline.ts';
import type { PipelineDocument } from '../pipeline/document.ts';

function session() {
  const s = new ClusterSession();
  const snaps: RunSnapshot[] = [];
  s.onSnapshot((x) => snaps.push(x));
  const log = () => snaps.flatMap((x) => x.log.map((l) => l.message));
  const until = (pred: (x: RunSnapshot) => boolean, ms = 20_000) =>
    new Promise<RunSnapshot>((resolve, reject) => {
      const t0 = Date.now();
      const poll = () => {
        const hit = snaps.find(pred);
        if (hit) return resolve(hit);
        if (Date.now() - t0 > ms) return reject(new Error(`no snapshot matched; last status ${snaps.at(-1)?.status}; log: ${log().slice(-8).join(' | ')}`));
        setTimeout(poll, 5);
      };
      poll();
    });
  return { s, snaps, until, log };
}

/** Keyed counts over a sequence, parallel: enough records that checkpoints land mid-run. */
const counts = (name: string, count = 3000, parallelism = 3, stateBackend: 'memory' | 'indexeddb' = 'memory'): PipelineDocument => ({
  format: 'weir/pipeline',
  version: 1,
  name,
  settings: { parallelism, stateBackend },
  nodes: [
    { id: 'src', kind: 'generatorSource', params: { scenario: 'sequence', count, keys: 30, seed: 5 }, parallelism: 1 },
    { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'seq', as: 'maxSeq' }] } },
    { id: 'view', kind: 'viewSink', params: {}, parallelism: 2 },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'agg', port: 'in' } },
    { from: { node: 'agg', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
});

const allRows = async (s: ClusterSession, snaps: RunSnapshot[], total: number) => {
  s.setSinkWindow('view', 0, 500);
  return snaps.at(-1)!.sinks.view.rows.slice(0, total);
};

describe('ClusterSession', () => {
  it('runs a pipeline to the end on the cluster and samples the committed sink table', async () => {
    const { s, until, log } = session();
    expect(await s.load(STARTER_EXAMPLE, { speed: null, checkpointIntervalMs: null })).toEqual({ ok: true, sinks: ['view'] });
    s.run();
    const done = await until((x) => x.status === 'finished');
    expect(done.records).toBe(5);
    expect(done.sinks.view.total).toBe(3);
    expect(done.sinks.view.columns).toEqual(['customer', 'orders', 'total']);
    expect(done.sinks.view.rows).toEqual(runPipeline(STARTER_EXAMPLE).views.view);
    expect(log().some((l) => /job finished: 5 records read/.test(l))).toBe(true);
  });

  it('steps one source record at a time and paces by records per second', async () => {
    const { s, snaps, until } = session();
    await s.load(STARTER_EXAMPLE, { speed: 40, checkpointIntervalMs: null });
    await s.step('record');
    expect(snaps.at(-1)!.records).toBe(1);
    expect(snaps.at(-1)!.status).toBe('paused');
    expect(snaps.at(-1)!.metrics.big.recordsIn).toBe(1); // the record reached the filter before the step returned
    const t0 = Date.now();
    s.run();
    await until((x) => x.status === 'finished');
    expect(Date.now() - t0).toBeGreaterThan(50); // 4 more records at 40/s take about 100 ms
  });

  it('paces records read, not records sent: a source feeding two edges still reads at the chosen speed', async () => {
    const doc = counts('two-edges', 100_000, 1);
    doc.nodes.push({ id: 'view2', kind: 'viewSink', params: {} });
    doc.edges.push({ from: { node: 'src', port: 'out' }, to: { node: 'view2', port: 'in' } });
    const { s, snaps } = session();
    await s.load(doc, { speed: 200, checkpointIntervalMs: null });
    s.run();
    await new Promise((r) => setTimeout(r, 1500));
    s.pause();
    // 300 at 200/s; charging each record once per edge read half of that.
    expect(snaps.at(-1)!.records).toBeGreaterThan(220);
    expect(snaps.at(-1)!.records).toBeLessThanOrEqual(320);
  });

  it('honours per-node parallelism and the default, and refuses a bad one naming the node and field', async () => {
    const { s, log } = session();
    await s.load(counts('par', 100, 4), { speed: null, checkpointIntervalMs: null });
    expect(log().some((l) => /3 operators in 7 subtasks/.test(l))).toBe(true); // src 1 + agg 4 + view 2
    const bad = counts('par', 100);
    bad.nodes[1].parallelism = 12;
    const r = await s.load(bad, { speed: null, checkpointIntervalMs: null });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problems.some((p) => p.target === 'agg' && p.field === 'parallelism')).toBe(true);
  });

  it('sends only the requested window of a sink table', async () => {
    const { s, until } = session();
    await s.load(STARTER_EXAMPLE, { speed: null, checkpointIntervalMs: null });
    s.setSinkWindow('view', 1, 1);
    s.run();
    const done = await until((x) => x.status === 'finished');
    expect(done.sinks.view).toMatchObject({ total: 3, offset: 1 });
    expect(done.sinks.view.rows).toEqual([{ customer: 'bob', orders: 1, total: 12.5 }]);
  });

  it('takes wall-clock checkpoints, survives a killed subtask and ends with the failure-free view', async () => {
    const doc = counts('kill');
    const reference = runPipeline(doc).views.view;
    const { s, snaps, until, log } = session();
    // 3,000 records at 5,000/s take 600 ms, and the pause lands long before the end even on a busy machine;
    // at 20,000/s a loaded CI machine saw the run finish before the kill, and nothing restarted.
    await s.load(doc, { speed: 5_000, checkpointIntervalMs: 20 });
    s.run();
    await until((x) => x.checkpoints >= 2);
    s.pause();
    await until((x) => x.status === 'paused');
    s.killSubtask('agg#1');
    s.run();
    const done = await until((x) => x.status === 'finished' || x.status === 'failed');
    expect(done.status, log().join('\n')).toBe('finished');
    expect(done.restarts).toBe(1);
    expect(log().some((l) => /job restarted from checkpoint \d+ \(attempt 2\)/.test(l))).toBe(true);
    expect(await allRows(s, snaps, 500)).toEqual(reference);
  });

  it('after a kill, every node counts as of the restored checkpoint and then goes on, consistent with the restored state', async () => {
    const doc = counts('kill-counters', 3000, 1);
    // A filter that drops some records, so its in and out differ (the aggregate after it sees only its out).
    doc.nodes.splice(1, 0, { id: 'odd', kind: 'filter', params: { where: 'id % 3 <> 0' } });
    doc.edges[0] = { from: { node: 'src', port: 'out' }, to: { node: 'odd', port: 'in' } };
    doc.edges.splice(1, 0, { from: { node: 'odd', port: 'out' }, to: { node: 'agg', port: 'in' } });
    const { s, snaps, until } = session();
    await s.load(doc, { speed: 20, checkpointIntervalMs: null });
    for (let i = 0; i < 6; i++) await s.step('record');
    for (let i = 0; i < 30 && snaps.at(-1)!.checkpoints === 0; i++) await s.step('barrier');
    for (let i = 0; i < 5; i++) await s.step('record');
    const beforeKill = snaps.at(-1)!;
    s.killSubtask('agg#0');
    const restored = await until((x) => x.restarts === 1);
    expect(restored.restoredFrom).toBe(beforeKill.checkpoints);
    // The source rewound to the checkpoint, and every operator's counts are the ones it had there.
    const r = restored.metrics;
    const atCheckpoint = restored.records;
    expect(atCheckpoint).toBeGreaterThan(0);
    expect(r.src.recordsOut).toBe(atCheckpoint);
    expect(r.odd.recordsIn).toBe(atCheckpoint);
    expect(r.odd.recordsOut).toBeGreaterThan(0);
    expect(r.odd.recordsOut).toBeLessThan(r.odd.recordsIn);
    expect(r.agg.recordsIn).toBe(r.odd.recordsOut);
    for (let i = 0; i < 3; i++) await s.step('record');
    const m = snaps.at(-1)!.metrics;
    expect(snaps.at(-1)!.records).toBe(atCheckpoint + 3);
    expect(m.src.recordsOut).toBe(atCheckpoint + 3);
    expect(m.odd.recordsIn).toBe(m.src.recordsOut);
    expect(m.agg.recordsIn).toBe(m.odd.recordsOut);
    expect(m.view.recordsIn).toBe(m.agg.recordsOut);
  });

  it('refuses to kill a subtask that does not exist and lists the live ones', async () => {
    const { s, log } = session();
    await s.load(counts('nokill', 10), { speed: null, checkpointIntervalMs: null });
    s.killSubtask('agg#9');
    expect(log().at(-1)).toMatch(/cannot kill "agg#9".*agg#0, agg#1, agg#2/);
  });

  it('with IndexedDB, a new session resumes from the latest checkpoint of the job and ends with the same view', async () => {
    const doc = counts('resume', 3000, 2, 'indexeddb');
    const reference = runPipeline(doc).views.view;
    const first = session();
    await first.s.load(doc, { speed: 20_000, checkpointIntervalMs: 20, jobId: 'project-1' });
    first.s.run();
    await first.until((x) => x.checkpoints >= 2);
    first.s.pause();
    await first.s.stop().catch(() => undefined); // the page went away: its locks are released
    const offer = await first.s.resumable('project-1');
    expect(offer).toMatchObject({ jobId: 'project-1' });
    expect(offer!.records).toBeGreaterThan(0);
    expect(offer!.completedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(await first.s.resumable('other-project')).toBeNull();

    const second = session();
    expect((await second.s.load(doc, { speed: null, checkpointIntervalMs: null, jobId: 'project-1', resume: true })).ok).toBe(true);
    expect(second.log().some((l) => new RegExp(`resumed from checkpoint ${offer!.checkpointId}`).test(l))).toBe(true);
    expect(second.snaps.at(-1)!.records).toBe(offer!.records);
    second.s.run();
    const done = await second.until((x) => x.status === 'finished');
    expect(done.status).toBe('finished');
    expect(await allRows(second.s, second.snaps, 500)).toEqual(reference);
    await new Promise((r) => setTimeout(r, 50));
    expect(await second.s.resumable('project-1')).toBeNull(); // a finished job offers no resume

    // Start over: a load without resume forgets the job's checkpoints.
    await second.s.load(doc, { speed: null, checkpointIntervalMs: null, jobId: 'project-1' });
    expect(await second.s.resumable('project-1')).toBeNull();
    expect(second.snaps.at(-1)!.records).toBe(0);
  });

  it('steps by barrier: a paused job starts a checkpoint and stops with its barrier on an edge, hop by hop', async () => {
    const { s, snaps } = session();
    await s.load(counts('barrier-steps'), { speed: 20, checkpointIntervalMs: 1000 });
    for (let i = 0; i < 3; i++) await s.step('record');
    await s.step('barrier');
    const first = snaps.at(-1)!;
    expect(first.status).toBe('paused');
    expect(first.frame?.inFlightCheckpoint).toBe(1);
    expect(first.frame?.edges.some((e) => e.barriers.length > 0)).toBe(true);
    expect(first.log.at(-1)?.message).toMatch(/step \(barrier\): checkpoint 1's barrier is on edge/);
    for (let i = 0; i < 30 && snaps.at(-1)!.checkpoints === 0; i++) await s.step('barrier');
    expect(snaps.at(-1)!.checkpoints).toBe(1);
    expect(snaps.at(-1)!.status).toBe('paused');
    expect(snaps.at(-1)!.records).toBeLessThan(3000);
    // Snapshot timings are in the job's clock, like the checkpoint's duration: the write waits count.
    const cp = snaps.at(-1)!.frame!.checkpoints.find((c) => c.status === 'completed')!;
    expect(Math.max(...cp.stats.map((x) => x.asyncMs))).toBeGreaterThan(0);
    expect(Math.max(...cp.stats.map((x) => x.asyncMs))).toBeLessThanOrEqual(cp.completedAt! - cp.triggeredAt);
  });

  it('after a restore while paused, no checkpoint stays pending and the count agrees with the timeline', async () => {
    const { s, snaps, until } = session();
    await s.load(counts('restore-paused'), { speed: 20_000, checkpointIntervalMs: 15 });
    s.run();
    await until((x) => x.checkpoints >= 3);
    s.pause();
    await s.step('barrier'); // a checkpoint in flight when the restore lands
    await s.restoreTo(1);
    const cps = snaps.at(-1)!.frame!.checkpoints;
    const pending = cps.filter((c) => c.status === 'pending').map((c) => c.checkpointId);
    expect(pending.filter((id) => id !== snaps.at(-1)!.frame!.inFlightCheckpoint)).toEqual([]);
    expect(cps.filter((c) => c.status === 'completed').length).toBe(snaps.at(-1)!.checkpoints);
  });

  it('travels back to a retained checkpoint and continues to the same final view', async () => {
    const doc = counts('travel');
    const reference = runPipeline(doc).views.view;
    const { s, snaps, until, log } = session();
    await s.load(doc, { speed: 20_000, checkpointIntervalMs: 15 });
    s.run();
    await until((x) => x.checkpoints >= 3);
    s.pause();
    // Not the first checkpoint: on a busy machine more than `retain` (5) may complete before the
    // pause lands, and the oldest are gone. Two behind the latest is retained and still goes back.
    const completed = log().flatMap((l) => /checkpoint (\d+) completed/.exec(l)?.[1] ?? []).map(Number);
    const first = completed[Math.max(0, completed.length - 3)];
    await s.restoreTo(first);
    expect(log().some((l) => new RegExp(`travelled back to checkpoint ${first}`).test(l))).toBe(true);
    s.run();
    const done = await until((x) => x.status === 'finished');
    expect(done.restarts).toBe(0);
    expect(await allRows(s, snaps, 500)).toEqual(reference);
  });

  it('exports a checkpoint as a savepoint and starts another session from it, ending with the same view', async () => {
    // count + sum only: MAX keeps a Map of values for retraction, which savepoint JSON does not carry yet.
    const doc = counts('savepoint', 3000, 2, 'indexeddb');
    doc.nodes[1].params.aggregates = [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'seq', as: 'seqSum' }];
    const reference = runPipeline(doc).views.view;
    const a = session();
    await a.s.load(doc, { speed: 20_000, checkpointIntervalMs: 20, jobId: 'sp-source' });
    a.s.run();
    await a.until((x) => x.checkpoints >= 1);
    a.s.pause();
    const id = Number(/checkpoint (\d+) completed/.exec(a.log().find((l) => /checkpoint \d+ completed/.test(l))!)![1]);
    const bytes = await a.s.exportSavepoint(id);
    expect(JSON.parse(new TextDecoder().decode(bytes))).toMatchObject({ format: 'weir/savepoint', checkpointId: id });
    await a.s.stop();

    const b = session();
    const target = counts('savepoint', 3000, 3);
    target.nodes[1].params = doc.nodes[1].params;
    expect((await b.s.load(target, { speed: null, checkpointIntervalMs: null, jobId: 'sp-target', savepoint: bytes })).ok).toBe(true);
    expect(b.log().some((l) => /savepoint imported as checkpoint \d+/.test(l))).toBe(true);
    expect(b.snaps.at(-1)!.records).toBeGreaterThan(0);
    b.s.run();
    await b.until((x) => x.status === 'finished');
    expect(await allRows(b.s, b.snaps, 500)).toEqual(reference);

    const c = session();
    const bad = await c.s.load(doc, { speed: null, checkpointIntervalMs: null, jobId: 'sp-bad', savepoint: new TextEncoder().encode('{"format":"nope"}') });
    expect(bad.ok).toBe(false);
    expect(c.log().at(-1)).toMatch(/could not start: .*savepoint/);
  });

  it('logs a throwing UDF as a dead letter naming the node and the record, and the run goes on', async () => {
    const doc: PipelineDocument = {
      ...STARTER_EXAMPLE,
      nodes: STARTER_EXAMPLE.nodes.map((n) => (n.id === 'big' ? { id: 'big', kind: 'map', params: { code: "(row) => { if (row.customer === 'cy') throw new Error('no cy here'); return row; }" } } : n)),
    };
    const { s, until } = session();
    await s.load(doc, { speed: null, checkpointIntervalMs: null });
    s.run();
    const done = await until((x) => x.status === 'finished');
    expect(done.deadLetters.big).toBe(1);
    const lines = await until((x) => x.log.some((l) => l.node === 'big' && /no cy here/.test(l.message)));
    const line = lines.log.find((l) => l.node === 'big')!;
    expect(line.record).toContain('"customer":"cy"');
    expect(done.sinks.view.total).toBe(2);
  });

  it('counts and logs each dead letter once across a recovery that replays its record', async () => {
    const base = counts('dead', 3000);
    const doc: PipelineDocument = {
      ...base,
      nodes: [
        ...base.nodes.slice(0, 1),
        { id: 'picky', kind: 'map', params: { code: "(row) => { if (row.seq % 40 === 7) throw new Error('unlucky seq'); return row; }" } },
        ...base.nodes.slice(1),
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'picky', port: 'in' } },
        { from: { node: 'picky', port: 'out' }, to: { node: 'agg', port: 'in' } },
        ...base.edges.slice(1),
      ],
    };
    const expected = runPipeline(doc).deadLetters.length;
    expect(expected).toBeGreaterThan(20);
    const { s, until, log } = session();
    await s.load(doc, { speed: 20_000, checkpointIntervalMs: 20 });
    s.run();
    // Kill once some dead letters were committed and more are still to come: the replay repeats some of them.
    await until((x) => x.checkpoints >= 2 && (x.deadLetters.picky ?? 0) > 0);
    // Paused first: on a busy machine the run could otherwise end before the kill lands.
    s.pause();
    await until((x) => x.status === 'paused');
    s.killSubtask('agg#0');
    s.run();
    const done = await until((x) => x.status === 'finished' || x.status === 'failed');
    expect(done.status, log().join('\n')).toBe('finished');
    expect(done.restarts).toBe(1);
    expect(done.deadLetters.picky).toBe(expected);
    const lines = log().filter((l) => /^dead letter: /.test(l));
    const more = log().map((l) => /^… and (\d+) more dead letters/.exec(l)).reduce((n, m) => n + (m ? Number(m[1]) : 0), 0);
    expect(lines.length + more).toBe(expected);
  });

  it('posts observation frames and pauses at a breakpoint, logging the node and record', async () => {
    const { s, snaps, until, log } = session();
    await s.load(counts('bp', 200, 2), { speed: null, checkpointIntervalMs: null });
    expect(await s.setBreakpoints([{ node: 'nope' }])).toEqual([expect.objectContaining({ node: 'nope' })]);
    expect(await s.setBreakpoints([{ node: 'agg' }])).toEqual([]);
    s.run();
    const hit = await until((x) => x.status === 'paused');
    expect(log().some((l) => /breakpoint hit at "agg"/.test(l))).toBe(true);
    expect(hit.records).toBeLessThan(200);
    expect(hit.frame?.nodes.map((n) => n.node)).toEqual(['src', 'agg', 'view']);
    s.observe({ node: 'agg' });
    expect(snaps.at(-1)!.frame?.state?.node).toBe('agg');
    await s.setBreakpoints([]);
    s.run();
    await until((x) => x.status === 'finished');
  });
});
