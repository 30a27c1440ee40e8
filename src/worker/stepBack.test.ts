import { describe, expect, it } from 'vitest';
import { ClusterSession } from './clusterSession.ts';
import type { RunSnapshot, StepKind } from './protocol.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import { examplePipeline, stepBackFixtures } from '../testing/stepBackPipelines.ts';

/**
 * Everything the designer shows at a point, with every stateful node's panels (state table, join
 * buffers, window panes), every edge (queued messages, barriers, watermarks, samples), the traces,
 * node counters and every sink's table. Only wall-clock figures are left out: how long a snapshot
 * took, and when a checkpoint's manifest was written, are measured, not replayed.
 */
function observable(s: ClusterSession, snaps: RunSnapshot[], doc: PipelineDocument) {
  const panels: Record<string, unknown> = {};
  for (const n of doc.nodes) {
    s.observe({ node: n.id, stateLimit: 1000 });
    const f = snaps.at(-1)!.frame!;
    panels[n.id] = { state: f.state, join: f.join, window: f.window };
  }
  for (const n of doc.nodes) s.setSinkWindow(n.id, 0, 1000);
  const last = snaps.at(-1)!;
  const f = last.frame!;
  return withoutWallClock({
    status: last.status,
    records: last.records,
    clockMs: last.clockMs,
    metrics: last.metrics,
    deadLetters: last.deadLetters,
    sinks: last.sinks,
    checkpoints: last.checkpoints,
    restarts: last.restarts,
    at: last.history?.at,
    frame: { ...f, checkpoints: f.checkpoints.map((c) => ({ id: c.checkpointId, status: c.status, triggeredAt: c.triggeredAt, completedAt: c.completedAt, bytes: c.fullBytes })) },
    panels,
  });
}

// Wall-clock figures (an edge's rate counts records over the last second of wall time), and the sink
// sample's redraw counter (it counts re-reads, which a replay makes anew).
const WALL_CLOCK = new Set(['syncMs', 'asyncMs', 'alignMs', 'durationMs', 'lastSnapshot', 'version', 'rate']);
function withoutWallClock(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutWallClock);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !WALL_CLOCK.has(k)).map(([k, x]) => [k, withoutWallClock(x)]));
  return v;
}

function session() {
  const s = new ClusterSession();
  const snaps: RunSnapshot[] = [];
  s.onSnapshot((x) => snaps.push(x));
  return { s, snaps, at: () => snaps.at(-1)!.history!.at };
}

/** Waits until the queued controls (kill, checkpoint by hand) ran: a step back goes through the same queue. */
const settled = (s: ClusterSession) => s.seek(Number.MAX_SAFE_INTEGER);

type Action = StepKind | 'checkpoint' | 'kill' | 'inject';

/** Records, watermarks and barriers, a checkpoint by hand, a kill that restarts from it, an injected record. */
const SCRIPT: Action[] = [
  ...Array<Action>(6).fill('record'),
  'watermark',
  'checkpoint',
  'barrier',
  'barrier',
  'record',
  ...Array<Action>(12).fill('barrier'),
  'record',
  'record',
  'kill',
  'record',
  'inject',
  'record',
  'watermark',
  'record',
  'record',
];

describe('stepping back', () => {
  for (const { name, doc } of stepBackFixtures()) {
    it(`shows exactly what the run showed at every earlier point: ${name}`, async () => {
      const { s, snaps, at } = session();
      expect(await s.load(doc, { speed: 10, checkpointIntervalMs: null })).toMatchObject({ ok: true });
      const seen = new Map<number, unknown>([[0, observable(s, snaps, doc)]]);
      const source = doc.nodes.find((n) => n.kind === 'generatorSource')!.id;
      for (const a of SCRIPT) {
        if (a === 'checkpoint') s.triggerCheckpoint();
        else if (a === 'kill') s.killSubtask(doc.nodes.find((n) => !n.kind.endsWith('Source'))!.id);
        else if (a === 'inject') {
          const wm = snaps.at(-1)!.frame!.nodes.find((n) => n.node === source)?.watermark ?? 0;
          const values: Record<string, string> = { ts: String(Math.max(0, wm) + 1) };
          if (doc.nodes.some((n) => n.kind === 'keyBy')) values.customer_id = 'c-injected';
          const parsed = await s.inject(source, values);
          expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
        } else await s.step(a);
        await settled(s);
        // A control that takes no step (an injection) shows the same point again: the first look counts.
        if (!seen.has(at())) seen.set(at(), observable(s, snaps, doc));
      }
      const end = at();
      expect(snaps.at(-1)!.restarts).toBe(1);

      // Back record by record, watermark by watermark, barrier by barrier: every point landed on
      // that the run came to rest at shows what it showed then; each step back goes strictly back.
      let matched = 0;
      for (const kind of ['record', 'barrier', 'watermark'] as StepKind[]) {
        await s.seek(end);
        let prev = end;
        for (;;) {
          await s.stepBack(kind);
          const now = at();
          if (now === prev) break;
          expect(now).toBeLessThan(prev);
          prev = now;
          if (seen.has(now)) {
            expect(observable(s, snaps, doc), `${kind} back to step ${now}`).toEqual(seen.get(now));
            matched++;
          }
        }
        expect(prev).toBe(0);
      }
      expect(matched).toBeGreaterThan(SCRIPT.length);

      // The scrubber reaches every point, forward (without starting over) and back, in any order.
      const points = [...seen.keys()];
      const order = [...points.filter((_, i) => i % 2 === 0), ...points.filter((_, i) => i % 2 === 1).reverse()];
      for (const p of order) {
        await s.seek(p);
        expect(at()).toBe(p);
        expect(observable(s, snaps, doc), `seek to step ${p}`).toEqual(seen.get(p));
      }
    }, 120_000);
  }
});

describe('stepping back and forward again', () => {
  // Edge rates count records over the last second of wall time in the designer: measured, not replayed.
  const bytes = (v: unknown) => JSON.stringify(v, (k, x: unknown) => (k === 'rate' ? undefined : x));

  it('shows, byte for byte, what the run showed without stepping back (a checkpoint and a restore in the history)', async () => {
    const doc = examplePipeline('orders-payments.json', 2);
    for (const n of doc.nodes) if (n.kind === 'generatorSource') n.params = { ...n.params, count: 1000 };
    const { s, snaps, at } = session();
    expect(await s.load(doc, { speed: null, checkpointIntervalMs: null })).toMatchObject({ ok: true });
    while (snaps.at(-1)!.records < 500) await s.step('record');
    s.triggerCheckpoint();
    while (snaps.at(-1)!.checkpoints < 1) await s.step('barrier');
    s.killSubtask('paid#1');
    // The last points are looked at as the person would, every panel once.
    const seen = new Map<number, string>();
    for (let i = 0; i < 20; i++) {
      await s.step('record');
      await settled(s);
      if (i >= 15) seen.set(at(), bytes(observable(s, snaps, doc)));
    }
    expect(snaps.at(-1)!.restarts).toBe(1);
    const point = at();
    const back3 = async () => {
      for (let i = 0; i < 3; i++) await s.stepBack('record');
      expect(seen.has(at()) && at() < point).toBe(true);
    };

    // Forward by the scrubber: the recorded history replayed on.
    await back3();
    await s.seek(point);
    expect(bytes(observable(s, snaps, doc))).toBe(seen.get(point));

    // Forward by stepping: new steps that repeat the history, looked at the same way.
    await back3();
    expect(bytes(observable(s, snaps, doc))).toBe(seen.get(at()));
    while (at() < point) {
      await s.step('record');
      expect(bytes(observable(s, snaps, doc)), `step ${at()}`).toBe(seen.get(at()));
    }
    expect(at()).toBe(point);
  }, 60_000);
});

describe('stepping back and the state table', () => {
  it("marks as changed only what the run marked: another node's rows count from when that node was last looked at", async () => {
    const doc = examplePipeline('orders-payments.json', 2);
    for (const n of doc.nodes) if (n.kind === 'generatorSource') n.params = { ...n.params, count: 2000 };
    const changedRows = (snaps: RunSnapshot[]) => snaps.at(-1)!.frame!.state!.rows.filter((r) => r.changed).map((r) => r.keyText);
    // The run as it went: stepping with the join in view, then a look at the sink's state at the last point.
    const run = session();
    const ref = session();
    for (const x of [run, ref]) {
      expect(await x.s.load(doc, { speed: null, checkpointIntervalMs: null })).toMatchObject({ ok: true });
      x.s.observe({ node: 'paid', stateLimit: 1000 });
    }
    // The sink is looked at once early on, so its marks count from there in the run.
    for (let i = 0; i < 10; i++) for (const x of [run, ref]) await x.s.step('record');
    for (const x of [run, ref]) {
      x.s.observe({ node: 'order_status' });
      x.s.observe({ node: 'paid' });
    }
    for (let i = 0; i < 10; i++) for (const x of [run, ref]) await x.s.step('record');
    const point = ref.at();
    ref.s.observe({ node: 'order_status' });
    const shown = ref.snaps.at(-1)!.frame!.state;
    expect(changedRows(ref.snaps).length).toBeGreaterThan(0);

    // The same run two records further, then back to that point, and the sink looked at there.
    for (let i = 0; i < 2; i++) await run.s.step('record');
    for (let i = 0; i < 2; i++) await run.s.stepBack('record');
    expect(run.at()).toBe(point);
    run.s.observe({ node: 'order_status' });
    expect(run.snaps.at(-1)!.frame!.state).toEqual(shown);
  }, 60_000);
});
