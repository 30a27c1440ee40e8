import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { LESSONS, lessonById } from './catalog.ts';
import { noteDialog, noteSnapshot } from './events.ts';
import { docWith, frame, input, nodeObs, sink, snapshot, type InputOverrides } from './checkFixtures.ts';
import { NO_EVENTS } from './types.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const lessonDoc = (file: string): PipelineDocument => JSON.parse(readFileSync(new URL(`../../../public/lessons/${file}`, import.meta.url), 'utf8'));
const check = (lessonId: string, step: number) => {
  const c = lessonById(lessonId)?.steps[step].check;
  if (!c) throw new Error(`${lessonId} step ${step} has no check`);
  return c;
};
const withDoc = (lessonId: string, o: InputOverrides = {}) => input({ doc: lessonDoc(lessonById(lessonId)!.pipeline), ...o });
const setParam = (doc: PipelineDocument, node: string, patch: Record<string, unknown>, extra: Partial<PipelineDocument['nodes'][number]> = {}): PipelineDocument => ({
  ...doc, nodes: doc.nodes.map((n) => (n.id === node ? { ...n, ...extra, params: { ...n.params, ...patch } } : n)),
});

describe('lesson catalog', () => {
  it('has ten lessons of 3–6 steps, each with at least one automatic check', () => {
    expect(LESSONS).toHaveLength(10);
    for (const l of LESSONS) {
      expect(l.steps.length, l.id).toBeGreaterThanOrEqual(3);
      expect(l.steps.length, l.id).toBeLessThanOrEqual(6);
      expect(l.steps.some((s) => s.check), l.id).toBe(true);
    }
  });

  it('every step check fails before the learner did anything', () => {
    for (const l of LESSONS) {
      const doc = lessonDoc(l.pipeline);
      l.steps.forEach((s, n) => expect(s.check?.(input({ doc })) ?? false, `${l.id} step ${n + 1}`).toBe(false));
    }
  });
});

describe('lesson checks against hand-made snapshots', () => {
  it('1: the visits view has rows; the top visitor answer is compared with the view', () => {
    const snap = snapshot({ sinks: { visits_view: sink([{ customer_id: 'c1', name: 'Amy', visits: 3 }, { customer_id: 'c2', name: 'Bo', visits: 5 }]) } });
    expect(check('stateless-stateful', 0)(withDoc('stateless-stateful', { snapshot: snap }))).toBe(true);
    expect(check('stateless-stateful', 2)(withDoc('stateless-stateful', { snapshot: snap, answer: 'Amy' }))).toBe(false);
    expect(check('stateless-stateful', 2)(withDoc('stateless-stateful', { snapshot: snap, answer: ' bo ' }))).toBe(true);
    expect(check('stateless-stateful', 2)(withDoc('stateless-stateful', { snapshot: snap, answer: 'c2' }))).toBe(true);
  });

  it('1: the filter edit counts only with a $4 threshold and a finished run', () => {
    const doc = lessonDoc('lesson-1.json');
    const done = snapshot({ status: 'finished', sinks: { visits_view: sink([{ customer_id: 'c1', visits: 1 }]) } });
    expect(check('stateless-stateful', 3)(input({ doc, snapshot: done }))).toBe(false);
    const edited = setParam(doc, 'big_orders', { where: "visit_type = 'order' AND amount >= 4" });
    expect(check('stateless-stateful', 3)(input({ doc: edited, snapshot: { ...done, status: 'running' } }))).toBe(false);
    expect(check('stateless-stateful', 3)(input({ doc: edited, snapshot: done }))).toBe(true);
  });

  it('1: the state table grows to 10 keys', () => {
    expect(check('stateless-stateful', 1)(withDoc('stateless-stateful', { frame: frame({ nodes: [nodeObs('visits', 9)] }) }))).toBe(false);
    expect(check('stateless-stateful', 1)(withDoc('stateless-stateful', { frame: frame({ nodes: [nodeObs('visits', 12)] }) }))).toBe(true);
  });

  it('2: an updated view and a pull query on it', () => {
    const rows = [{ store_id: 's1', revenue: 10 }, { store_id: 's2', revenue: 30 }];
    expect(check('streams-tables', 1)(withDoc('streams-tables', { snapshot: snapshot({ sinks: { sales_by_store: sink(rows) } }) }))).toBe(false);
    expect(check('streams-tables', 1)(withDoc('streams-tables', { snapshot: snapshot({ sinks: { sales_by_store: sink(rows, [], 7) } }) }))).toBe(true);
    const done = snapshot({ status: 'finished', sinks: { sales_by_store: sink(rows) } });
    expect(check('streams-tables', 2)(withDoc('streams-tables', { snapshot: done, answer: 's2' }))).toBe(true);
    expect(check('streams-tables', 2)(withDoc('streams-tables', { snapshot: { ...done, status: 'running' }, answer: 's2' }))).toBe(false);
    const q = frame({ query: { sink: 'sales_by_store', rows: [rows[0]], changes: [] } });
    expect(check('streams-tables', 3)(withDoc('streams-tables', { frame: q }))).toBe(true);
  });

  it('3: buffers, a retraction, then an inner join without retractions', () => {
    const buffered = frame({ join: { node: 'paid', joinType: 'left', left: [{ side: 'left', key: 'o1', row: {}, ts: 0, matches: 0, range: null, evictAfter: null }], right: [], evicted: { watermark: 0, ttl: 0 }, recentMatches: [] } });
    expect(check('joins', 1)(withDoc('joins', { frame: buffered }))).toBe(true);
    const retracted = snapshot({ sinks: { order_status: sink([{ order_id: 'o1' }], [{ kind: '+I', row: {} }, { kind: '-D', row: {} }]) } });
    expect(check('joins', 2)(withDoc('joins', { snapshot: retracted }))).toBe(true);
    const doc = lessonDoc('lesson-3.json');
    const inner = setParam(doc, 'paid', { type: 'inner' });
    expect(check('joins', 3)(input({ doc, snapshot: snapshot({ sinks: { order_status: sink([{ order_id: 'o1' }]) } }) }))).toBe(false);
    expect(check('joins', 3)(input({ doc: inner, snapshot: snapshot({ sinks: { order_status: sink([{ order_id: 'o1' }]) } }) }))).toBe(true);
    expect(check('joins', 3)(input({ doc: inner, snapshot: retracted }))).toBe(false);
    expect(check('joins', 4)(input({ doc: setParam(doc, 'paid', { ttlMs: 10000 }) }))).toBe(true);
  });

  it('4: each window type must produce rows with that type set; late records come from metrics or the frame', () => {
    const doc = lessonDoc('lesson-4.json');
    const rows = snapshot({ sinks: { revenue_per_minute: sink([{ city: 'Paris', revenue: 1 }]) } });
    expect(check('windows', 0)(input({ doc, snapshot: rows }))).toBe(true);
    expect(check('windows', 1)(input({ doc, snapshot: rows }))).toBe(false);
    expect(check('windows', 1)(input({ doc: setParam(doc, 'per_minute', { type: 'hop', slideMs: 10000 }), snapshot: rows }))).toBe(true);
    expect(check('windows', 2)(input({ doc: setParam(doc, 'per_minute', { type: 'session', gapMs: 5000 }), snapshot: rows }))).toBe(true);
    expect(check('windows', 3)(input({ doc, snapshot: snapshot({ metrics: { per_minute: { recordsIn: 1, recordsOut: 0, watermark: 0, counters: { lateRecords: 2 }, deadLetters: 0, timers: 0 } } }) }))).toBe(true);
    expect(check('windows', 3)(input({ doc, frame: frame({ nodes: [nodeObs('per_minute', 3, [3], { lateRecords: 1 })] }) }))).toBe(true);
  });

  it('5: runs finished on each backend, the view size answer, an incremental checkpoint', () => {
    expect(check('state-backends', 0)(withDoc('state-backends', { events: { finished: [{ backend: 'indexeddb', records: 5 }] } }))).toBe(false);
    expect(check('state-backends', 1)(withDoc('state-backends', { events: { finished: [{ backend: 'indexeddb', records: 5 }] } }))).toBe(true);
    const done = snapshot({ status: 'finished', sinks: { sales_by_store: sink([{ store_id: 'a' }, { store_id: 'b' }]) } });
    expect(check('state-backends', 2)(withDoc('state-backends', { snapshot: done, answer: '3' }))).toBe(false);
    expect(check('state-backends', 2)(withDoc('state-backends', { snapshot: done, answer: '2' }))).toBe(true);
    const cp = (full: number, inc: number) => ({ checkpointId: 2, status: 'completed' as const, triggeredAt: 0, completedAt: 1, stats: [], fullBytes: full, incrementalBytes: inc });
    expect(check('state-backends', 3)(withDoc('state-backends', { frame: frame({ checkpoints: [cp(100, 100)] }) }))).toBe(false);
    expect(check('state-backends', 3)(withDoc('state-backends', { frame: frame({ checkpoints: [cp(100, 20)] }) }))).toBe(true);
  });

  it('6: exactly once needs a restart, a finished run, and counts equal to sequence numbers', () => {
    const rows = Array.from({ length: 10 }, (_, k) => ({ key: `k${k}`, counted: 60, max_seq: 60 }));
    const done = snapshot({ status: 'finished', sinks: { seq_counts: sink(rows) } });
    expect(check('checkpoints', 3)(withDoc('checkpoints', { snapshot: done }))).toBe(false);
    expect(check('checkpoints', 3)(withDoc('checkpoints', { snapshot: done, events: { restarts: 1 } }))).toBe(true);
    const doubled = rows.map((r, k) => (k === 3 ? { ...r, counted: 61 } : r));
    expect(check('checkpoints', 3)(withDoc('checkpoints', { snapshot: snapshot({ status: 'finished', sinks: { seq_counts: sink(doubled) } }), events: { restarts: 1 } }))).toBe(false);
    expect(check('checkpoints', 1)(withDoc('checkpoints', { events: { barrierSeen: true } }))).toBe(false);
    expect(check('checkpoints', 1)(withDoc('checkpoints', { events: { barrierSeen: true, alignmentSeen: true } }))).toBe(true);
  });

  it('7: four subtasks that all hold keys', () => {
    const doc = lessonDoc('lesson-7.json');
    const four = { ...doc, nodes: doc.nodes.map((n) => (n.id === 'sales' ? { ...n, parallelism: 4 } : n)) };
    expect(check('scaling', 1)(input({ doc: four }))).toBe(true);
    expect(check('scaling', 2)(input({ doc: four, events: { spread: { sales: { 4: [10, 0, 12, 9] } } } }))).toBe(false);
    expect(check('scaling', 2)(input({ doc: four, events: { spread: { sales: { 4: [10, 8, 12, 9] } } } }))).toBe(true);
  });

  it('8: TTL must make the peak key count smaller than without it', () => {
    expect(check('state-ttl', 2)(withDoc('state-ttl', { events: { peakKeys: { 'paid|none': 300, 'paid|5000': 320 } } }))).toBe(false);
    expect(check('state-ttl', 2)(withDoc('state-ttl', { events: { peakKeys: { 'paid|none': 300, 'paid|5000': 80 } } }))).toBe(true);
  });

  it('9: the bug shows in gold, the fix normalizes it, and the TAIPEI answer matches the view', () => {
    const buggy = snapshot({ status: 'finished', sinks: { gold: sink([{ city: 'Taipei', revenue_twd: 120.5 }, { city: 'taipei', revenue_twd: 80 }]) } });
    const fixed = snapshot({ status: 'finished', sinks: { gold: sink([{ city: 'TAIPEI', revenue_twd: 200.5 }, { city: 'TAINAN', revenue_twd: 1344 }]) } });
    expect(check('medallion', 0)(withDoc('medallion', { snapshot: buggy }))).toBe(true);
    expect(check('medallion', 2)(withDoc('medallion', { snapshot: buggy }))).toBe(false);
    expect(check('medallion', 2)(withDoc('medallion', { snapshot: fixed }))).toBe(true);
    expect(check('medallion', 3)(withDoc('medallion', { snapshot: fixed, answer: '200.5' }))).toBe(true);
    expect(check('medallion', 3)(withDoc('medallion', { snapshot: fixed, answer: '120.5' }))).toBe(false);
  });

  it('10: the dialog was opened; the INSERT count comes from the real export', () => {
    expect(check('export', 0)(withDoc('export', { events: noteDialog(NO_EVENTS, 'flinkSql') }))).toBe(true);
    expect(check('export', 1)(withDoc('export', { answer: '3' }))).toBe(true);
    expect(check('export', 1)(withDoc('export', { answer: '2' }))).toBe(false);
  });
});

describe('lesson events', () => {
  const doc = docWith([{ id: 'paid', kind: 'join', params: {} }]);
  it('counts runs, restarts, rewinds and finished runs from successive snapshots', () => {
    let ev = NO_EVENTS;
    let prev = null;
    const seq = [snapshot({ status: 'ready', records: 0 }), snapshot({ records: 50 }), snapshot({ records: 80, restarts: 1 }), snapshot({ records: 40, restarts: 1 }), snapshot({ status: 'finished', records: 100, restarts: 1 })];
    for (const s of seq) {
      ev = noteSnapshot(ev, prev, s, doc);
      prev = s;
    }
    expect(ev).toMatchObject({ runs: 1, restarts: 1, rewinds: 1, finished: [{ backend: 'memory', records: 100 }] });
  });

  it('tracks peak keys per TTL setting, alignment, and the key spread per parallelism', () => {
    const f = frame({ nodes: [nodeObs('paid', 40, [25, 15])] });
    f.nodes[0].subtasks[1].aligning = { checkpointId: 1, blockedInputs: ['left'], buffered: 3 };
    let ev = noteSnapshot(NO_EVENTS, null, snapshot({ frame: f }), doc);
    const ttlDoc = docWith([{ id: 'paid', kind: 'join', params: { ttlMs: 5000 } }]);
    ev = noteSnapshot(ev, null, snapshot({ frame: frame({ nodes: [nodeObs('paid', 12)] }) }), ttlDoc);
    expect(ev.peakKeys).toEqual({ 'paid|none': 40, 'paid|5000': 12 });
    expect(ev.alignmentSeen).toBe(true);
    expect(ev.spread.paid).toEqual({ 2: [25, 15], 1: [12] });
  });
});
