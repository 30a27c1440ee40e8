import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { intervalJoinSpec } from '../../pipeline/kinds/intervalJoin.ts';
import { unknownStream } from '../../core/streamInfo.ts';
import type { IntervalBufferView } from './intervalJoin.ts';

const inputs = { left: { fields: { id: 'integer', ts: 'timestamp' } }, right: { fields: { id: 'integer', ts: 'timestamp', v: 'string' } } } as const;
const harness = (type = 'inner', lowerBoundMs = -5, upperBoundMs = 10) => new OperatorHarness('intervalJoin', { type, leftKey: ['id'], rightKey: ['id'], lowerBoundMs, upperBoundMs }, { inputs });
const L = (h: OperatorHarness, ts: number, id = 1) => h.processElement({ id, ts }, { port: 'left' });
const R = (h: OperatorHarness, ts: number, id = 1) => h.processElement({ id, ts, v: `r${ts}` }, { port: 'right' });

describe('intervalJoin', () => {
  it('matches right.ts BETWEEN left.ts + lower AND left.ts + upper, bounds inclusive, in either arrival order', () => {
    const h = harness();
    L(h, 100);
    [94, 95, 110, 111].forEach((t) => R(h, t));
    expect(h.lines()).toEqual(['+I {"id":1,"ts":100,"id_right":1,"ts_right":95,"v":"r95"}', '+I {"id":1,"ts":100,"id_right":1,"ts_right":110,"v":"r110"}']);
    expect(h.output().map((e) => e.ts)).toEqual([100, 110]);
    h.clearOutput();
    const g = harness();
    [94, 95, 110, 111].forEach((t) => R(g, t));
    L(g, 100);
    expect(g.lines().map((l) => JSON.parse(l.slice(3)).ts_right)).toEqual([95, 110]);
    expect(g.task.counters.joinMatches).toBe(2);
  });

  it('does not join different keys or NULL keys', () => {
    const h = harness();
    L(h, 100, 1);
    R(h, 100, 2);
    h.processElement({ id: null, ts: 100 }, { port: 'left' });
    h.processElement({ id: null, ts: 100, v: 'n' }, { port: 'right' });
    expect(h.lines()).toEqual([]);
  });

  it('evicts a left row once watermark > left.ts + upper and a right row once watermark > right.ts − lower', () => {
    const h = harness();
    L(h, 100);
    R(h, 100);
    const sides = () => (h.task.operator.inspect!() as IntervalBufferView[]).map((v) => v.side);
    h.processWatermark(105);
    expect(sides()).toEqual(['left', 'right']);
    h.processWatermark(106);
    expect(sides()).toEqual(['left']);
    h.processWatermark(110);
    expect(sides()).toEqual(['left']);
    h.processWatermark(111);
    expect(sides()).toEqual([]);
    expect(h.task.counters.evictedRows).toBe(2);
    expect(h.task.timers.count()).toBe(0);
  });

  it('inspect shows the time range each buffered row can still match', () => {
    const h = harness();
    L(h, 100);
    R(h, 50);
    expect(h.task.operator.inspect!()).toEqual([
      { side: 'left', key: 1, row: { id: 1, ts: 100 }, ts: 100, matched: false, matchesOtherFrom: 95, matchesOtherTo: 110, evictAfter: 110 },
      { side: 'right', key: 1, row: { id: 1, ts: 50, v: 'r50' }, ts: 50, matched: false, matchesOtherFrom: 40, matchesOtherTo: 55, evictAfter: 55 },
    ]);
  });

  it('drops and dead-letters rows whose eviction time the watermark has already passed', () => {
    const h = harness('full');
    h.processWatermark(200);
    L(h, 189);
    L(h, 190);
    R(h, 194);
    L(h, 195);
    R(h, 196);
    expect(h.task.counters.lateRecords).toBe(2);
    expect(h.deadLetters.map((d) => d.reason)).toEqual([expect.stringMatching(/^late left row/), expect.stringMatching(/^late right row/)]);
    expect(h.lines()).toEqual(['+I {"id":1,"ts":190,"id_right":1,"ts_right":196,"v":"r196"}', '+I {"id":1,"ts":195,"id_right":1,"ts_right":196,"v":"r196"}']);
  });

  it('outer joins pad a row that is evicted without ever matching; matched rows are not padded', () => {
    const h = harness('full');
    L(h, 100);
    L(h, 300);
    R(h, 305);
    R(h, 500);
    h.processWatermark(Infinity);
    expect(h.lines()).toEqual([
      '+I {"id":1,"ts":300,"id_right":1,"ts_right":305,"v":"r305"}',
      '+I {"id":1,"ts":100,"id_right":null,"ts_right":null,"v":null}',
      '+I {"id":null,"ts":null,"id_right":1,"ts_right":500,"v":"r500"}',
    ]);
    expect(h.output().map((e) => e.ts)).toEqual([305, 100, 500]);
    const left = harness('left');
    L(left, 100);
    R(left, 500);
    left.processWatermark(Infinity);
    expect(left.lines()).toEqual(['+I {"id":1,"ts":100,"id_right":null,"ts_right":null,"v":null}']);
    const right = harness('right');
    L(right, 100);
    R(right, 500);
    right.processWatermark(Infinity);
    expect(right.lines()).toEqual(['+I {"id":null,"ts":null,"id_right":1,"ts_right":500,"v":"r500"}']);
  });

  it('dead-letters updates and rows without event time', () => {
    const h = harness();
    h.processElement({ id: 1, ts: 5 }, { port: 'left', kind: '-D' });
    h.processElement({ id: 1 }, { port: 'right', ts: null });
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['interval join takes only inserts, got -D on left', 'interval join needs event time; the right row has none']);
  });

  it('reports missing event time, updating inputs and inverted bounds', () => {
    const infer = (left: object, params = { type: 'inner' as const, leftKey: ['id'], rightKey: ['id'], lowerBoundMs: 0, upperBoundMs: 10 }) =>
      intervalJoinSpec.infer({ nodeId: 'j', params, inputs: { left: { ...unknownStream(), ...left }, right: { ...unknownStream(), eventTime: 'ts' } }, inputLists: {} }).problems?.map((p) => p.code);
    expect(infer({ eventTime: 'ts' })).toEqual([]);
    expect(infer({})).toEqual(['no-event-time']);
    expect(infer({ eventTime: 'ts', changelog: 'update' })).toEqual(['needs-append-only']);
    expect(infer({ eventTime: 'ts' }, { type: 'inner', leftKey: ['id'], rightKey: ['id'], lowerBoundMs: 5, upperBoundMs: 4 })).toEqual(['bad-param-value']);
  });

  it('restores buffers and eviction timers from a snapshot into a fresh operator', () => {
    const events = Array.from({ length: 80 }, (_, i) => ({ port: i % 2 ? 'right' : 'left', id: i % 3, ts: 10 * i + ((i * 7) % 13) }));
    const feed = (h: OperatorHarness, from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const e = events[i];
        h.processElement({ id: e.id, ts: e.ts }, { port: e.port });
        if (i % 10 === 9) h.processWatermark(10 * i - 40);
      }
    };
    const a = harness('full', -20, 30);
    const b = harness('full', -20, 30);
    feed(a, 0, 40);
    const restored = a.restored(a.snapshot());
    feed(b, 0, 80);
    feed(restored, 40, 80);
    b.processWatermark(Infinity);
    restored.processWatermark(Infinity);
    expect(restored.lines()).toEqual(b.lines().slice(a.output().length));
    expect(restored.lines().length).toBeGreaterThan(10);
  });

  it('a row joining a held bucket (also one restored from a checkpoint) adds no timer, and the bucket still goes whole at its time', () => {
    const h = harness('left', -5, 10);
    L(h, 100);
    L(h, 100);
    expect(h.task.timers.count()).toBe(1);
    const r = h.restored(h.snapshot());
    L(r, 100);
    expect(r.task.timers.count()).toBe(1);
    r.processWatermark(110);
    expect(r.lines()).toEqual([]);
    r.processWatermark(111);
    expect(r.lines()).toEqual(Array(3).fill('+I {"id":1,"ts":100,"id_right":null,"ts_right":null,"v":null}'));
    expect(r.task.counters.evictedRows).toBe(3);
    expect(r.task.timers.count()).toBe(0);
  });

  it('a key with many buckets evicts each at its own timer, in time order', () => {
    const h = harness('left', -5, 10);
    const times = [130, 100, 120, 110, 101];
    for (const t of times) L(h, t);
    const lefts = () => (h.task.operator.inspect!() as IntervalBufferView[]).map((v) => v.ts);
    h.processWatermark(111);
    expect(lefts()).toEqual([130, 120, 110, 101]);
    expect(h.output().map((e) => e.ts)).toEqual([100]);
    h.processWatermark(121);
    expect(lefts()).toEqual([130, 120]);
    expect(h.output().map((e) => e.ts)).toEqual([100, 101, 110]);
    h.processWatermark(Infinity);
    expect(h.output().map((e) => e.ts)).toEqual([100, 101, 110, 120, 130]);
    expect(h.task.counters.evictedRows).toBe(5);
    expect(h.task.timers.count()).toBe(0);
  });

  it('bounds changed across a restore: a timer that names no bucket evicts whatever its time makes due', () => {
    const a = harness('left', -5, 10);
    L(a, 100);
    L(a, 200);
    const wider = new OperatorHarness('intervalJoin', { type: 'left', leftKey: ['id'], rightKey: ['id'], lowerBoundMs: -5, upperBoundMs: 3 }, { inputs });
    wider.task.restore(structuredClone(a.snapshot()));
    // The restored timers are at 111 and 211 (upper 10); with upper 3 they name buckets 107 and 207, which do not exist.
    wider.processWatermark(111);
    expect(wider.output().map((e) => e.ts)).toEqual([100]);
    wider.processWatermark(211);
    expect(wider.output().map((e) => e.ts)).toEqual([100, 200]);
    expect(wider.task.counters.evictedRows).toBe(2);
  });

  it('never changes buffers a checkpoint shares: later matches and rows at the same time leave it as taken', () => {
    // The buffers are declared immutable, so the heap backend shares them with snapshots uncopied.
    const h = harness('full', -20, 30);
    const ref = harness('full', -20, 30);
    for (const x of [h, ref]) [100, 100, 120].forEach((t) => L(x, t));
    const raw = h.task.snapshot();
    const taken = structuredClone(raw);
    for (const x of [h, ref]) {
      R(x, 110);
      L(x, 100);
      R(x, 110);
    }
    expect(raw).toEqual(taken);
    const a = h.restored(structuredClone(raw));
    const b = ref.restored(taken);
    for (const x of [a, b]) {
      R(x, 130);
      x.processWatermark(Infinity);
    }
    expect(a.lines()).toEqual(b.lines());
    expect(a.lines()).toContain('+I {"id":1,"ts":120,"id_right":1,"ts_right":130,"v":"r130"}');
    expect(a.lines().filter((l) => l.includes('"ts_right":130'))).toHaveLength(3);
  });

  it('joins clicks to impressions within ten seconds in a pipeline', () => {
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'ads',
      nodes: [
        { id: 'imp', kind: 'inlineSource', params: { rows: [{ ad: 'a', ts: 0 }, { ad: 'b', ts: 1000 }, { ad: 'c', ts: 2000 }], eventTime: { field: 'ts' } } },
        { id: 'clk', kind: 'inlineSource', params: { rows: [{ ad: 'a', at: 5000, ts: 5000 }, { ad: 'b', at: 30000, ts: 30000 }], eventTime: { field: 'ts' } } },
        { id: 'j', kind: 'intervalJoin', params: { type: 'left', leftKey: ['ad'], rightKey: ['ad'], lowerBoundMs: 0, upperBoundMs: 10000 } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'imp', port: 'out' }, to: { node: 'j', port: 'left' } },
        { from: { node: 'clk', port: 'out' }, to: { node: 'j', port: 'right' } },
        { from: { node: 'j', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    });
    const rows = run.changelogs.out.map((e) => `${e.kind} ${e.row.ad}:${e.row.at ?? '-'}`).sort();
    expect(rows).toEqual(['+I a:5000', '+I b:-', '+I c:-']);
    expect(run.plan.nodes.find((n) => n.id === 'j')?.outputs.out.eventTime).toBe('ts');
    expect(run.deadLetters).toEqual([]);
  });
});
