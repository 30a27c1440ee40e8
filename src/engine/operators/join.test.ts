import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { compile } from '../../pipeline/compile.ts';
import type { JoinBufferView } from './join.ts';

const inputs = { left: { fields: { id: 'integer', a: 'string' } }, right: { fields: { id: 'integer', b: 'string' } } } as const;
const harness = (type: string, extra: Record<string, unknown> = {}) => new OperatorHarness('join', { type, leftKey: ['id'], rightKey: ['id'], ...extra }, { inputs });
const L = (h: OperatorHarness, a: string, kind: '+I' | '-D' | '-U' | '+U' = '+I', id = 1) => h.processElement({ id, a }, { port: 'left', ts: 10, kind });
const R = (h: OperatorHarness, b: string, kind: '+I' | '-D' | '-U' | '+U' = '+I', id = 1) => h.processElement({ id, b }, { port: 'right', ts: 20, kind });

describe('join (regular)', () => {
  it('inner: +I per match on arrival, -D per match on retraction; right fields that clash are renamed', () => {
    const h = harness('inner');
    L(h, 'x');
    R(h, 'p');
    R(h, 'q');
    L(h, 'y');
    L(h, 'x', '-D');
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":"x","id_right":1,"b":"p"}',
      '+I {"id":1,"a":"x","id_right":1,"b":"q"}',
      '+I {"id":1,"a":"y","id_right":1,"b":"p"}',
      '+I {"id":1,"a":"y","id_right":1,"b":"q"}',
      '-D {"id":1,"a":"x","id_right":1,"b":"p"}',
      '-D {"id":1,"a":"x","id_right":1,"b":"q"}',
    ]);
    expect(h.output().map((e) => e.ts)).toEqual([20, 20, 20, 20, 20, 20]);
    expect(h.task.counters.joinMatches).toBe(4);
  });

  it('left: padded row, then -D padded/+I joined, then -D joined/+I padded when the last match goes', () => {
    const h = harness('left');
    L(h, 'x');
    R(h, 'p');
    R(h, 'q');
    R(h, 'p', '-D');
    R(h, 'q', '-U');
    L(h, 'x', '-D');
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":"x","id_right":null,"b":null}',
      '-D {"id":1,"a":"x","id_right":null,"b":null}',
      '+I {"id":1,"a":"x","id_right":1,"b":"p"}',
      '+I {"id":1,"a":"x","id_right":1,"b":"q"}',
      '-D {"id":1,"a":"x","id_right":1,"b":"p"}',
      '-D {"id":1,"a":"x","id_right":1,"b":"q"}',
      '+I {"id":1,"a":"x","id_right":null,"b":null}',
      '-D {"id":1,"a":"x","id_right":null,"b":null}',
    ]);
    expect(h.output()[0].ts).toBe(10);
  });

  it('left: an unmatched right row emits nothing', () => {
    const h = harness('left');
    R(h, 'p');
    expect(h.lines()).toEqual([]);
    L(h, 'x');
    expect(h.lines()).toEqual(['+I {"id":1,"a":"x","id_right":1,"b":"p"}']);
  });

  it('right: mirror image of left, left columns padded with NULL', () => {
    const h = harness('right');
    R(h, 'p');
    L(h, 'x');
    L(h, 'x', '-D');
    expect(h.lines()).toEqual([
      '+I {"id":null,"a":null,"id_right":1,"b":"p"}',
      '-D {"id":null,"a":null,"id_right":1,"b":"p"}',
      '+I {"id":1,"a":"x","id_right":1,"b":"p"}',
      '-D {"id":1,"a":"x","id_right":1,"b":"p"}',
      '+I {"id":null,"a":null,"id_right":1,"b":"p"}',
    ]);
  });

  it('full: both sides padded and swapped exactly as Flink does', () => {
    const h = harness('full');
    L(h, 'x');
    R(h, 'p');
    L(h, 'x', '-D');
    R(h, 'q', '+I', 2);
    R(h, 'p', '-D');
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":"x","id_right":null,"b":null}',
      '-D {"id":1,"a":"x","id_right":null,"b":null}',
      '+I {"id":1,"a":"x","id_right":1,"b":"p"}',
      '-D {"id":1,"a":"x","id_right":1,"b":"p"}',
      '+I {"id":null,"a":null,"id_right":1,"b":"p"}',
      '+I {"id":null,"a":null,"id_right":2,"b":"q"}',
      '-D {"id":null,"a":null,"id_right":1,"b":"p"}',
    ]);
  });

  it('takes updating inputs: -U/+U on one side become -D/+I of the joined rows', () => {
    const h = harness('inner');
    R(h, 'p');
    L(h, 'x');
    L(h, 'x', '-U');
    L(h, 'y', '+U');
    expect(h.lines()).toEqual([
      '+I {"id":1,"a":"x","id_right":1,"b":"p"}',
      '-D {"id":1,"a":"x","id_right":1,"b":"p"}',
      '+I {"id":1,"a":"y","id_right":1,"b":"p"}',
    ]);
  });

  it('keeps duplicates as copies and dead-letters a retraction of a row it does not hold', () => {
    const h = harness('inner');
    L(h, 'x');
    L(h, 'x');
    R(h, 'p');
    expect(h.lines()).toHaveLength(2);
    L(h, 'zzz', '-D');
    expect(h.deadLetters).toHaveLength(1);
    expect(h.deadLetters[0].reason).toMatch(/does not hold/);
  });

  it('a NULL key matches nothing, but an outer row is still padded', () => {
    const h = new OperatorHarness('join', { type: 'left', leftKey: ['id'], rightKey: ['id'] }, { inputs });
    h.processElement({ id: null, b: 'p' }, { port: 'right', ts: 1 });
    h.processElement({ id: null, a: 'x' }, { port: 'left', ts: 1 });
    expect(h.lines()).toEqual(['+I {"id":null,"a":"x","id_right":null,"b":null}']);
  });

  it('joins on several key fields in order', () => {
    const h = new OperatorHarness('join', { type: 'inner', leftKey: ['k1', 'k2'], rightKey: ['x1', 'x2'] });
    h.processElement({ k1: 'a', k2: 1, v: 1 }, { port: 'left', ts: 1 });
    h.processElement({ x1: 'a', x2: 2, w: 2 }, { port: 'right', ts: 1 });
    h.processElement({ x1: 'a', x2: 1, w: 3 }, { port: 'right', ts: 1 });
    expect(h.lines()).toEqual(['+I {"k1":"a","k2":1,"v":1,"x1":"a","x2":1,"w":3}']);
  });

  it('with ttlMs, a row not written for ttlMs of processing time is forgotten', () => {
    const h = harness('inner', { ttlMs: 1000 });
    L(h, 'x');
    h.setProcessingTime(999);
    R(h, 'p');
    expect(h.lines()).toHaveLength(1);
    h.setProcessingTime(2100);
    R(h, 'q');
    expect(h.lines()).toHaveLength(1);
    expect(h.task.stateMetrics().ttlCleanups).toBeGreaterThan(0);
  });

  it('inspect shows both buffers with their matches', () => {
    const h = harness('left');
    L(h, 'x');
    R(h, 'p');
    R(h, 'p');
    L(h, 'y', '+I', 2);
    const view = h.task.operator.inspect!() as JoinBufferView[];
    expect(view).toEqual([
      { side: 'left', key: 1, row: { id: 1, a: 'x' }, ts: 10, count: 1, matches: 2 },
      { side: 'left', key: 2, row: { id: 2, a: 'y' }, ts: 10, count: 1, matches: 0 },
      { side: 'right', key: 1, row: { id: 1, b: 'p' }, ts: 20, count: 2, matches: 1 },
    ]);
  });

  it('restores from a snapshot into a fresh operator and continues identically', () => {
    const steps = Array.from({ length: 60 }, (_, i) => ({
      port: i % 3 === 0 ? 'right' : 'left',
      row: i % 3 === 0 ? { id: i % 5, b: `b${i % 4}` } : { id: i % 5, a: `a${i % 6}` },
      kind: (i > 30 && i % 7 === 0 ? '-D' : '+I') as '+I' | '-D',
    }));
    const a = harness('full');
    const b = harness('full');
    const feed = (h: OperatorHarness, s: (typeof steps)[number]) => h.processElement(s.row, { port: s.port, ts: 1, kind: s.kind });
    steps.slice(0, 30).forEach((s) => feed(a, s));
    const restored = a.restored(a.snapshot());
    steps.forEach((s) => feed(b, s));
    steps.slice(30).forEach((s) => feed(restored, s));
    expect(restored.lines()).toEqual(b.lines().slice(a.output().length));
    expect(restored.deadLetters.length).toBe(b.deadLetters.length);
  });

  it('infers fields, renaming and changelog, and reports bad keys', () => {
    const doc = (params: Record<string, unknown>) => ({
      format: 'weir/pipeline',
      version: 1,
      name: 'j',
      nodes: [
        { id: 'l', kind: 'inlineSource', params: { rows: [{ id: 1, a: 'x' }] } },
        { id: 'r', kind: 'inlineSource', params: { rows: [{ id: 1, b: 'y' }] } },
        { id: 'j', kind: 'join', params },
        { id: 'v', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'l', port: 'out' }, to: { node: 'j', port: 'left' } },
        { from: { node: 'r', port: 'out' }, to: { node: 'j', port: 'right' } },
        { from: { node: 'j', port: 'out' }, to: { node: 'v', port: 'in' } },
      ],
    });
    const ok = compile(doc({ type: 'inner', leftKey: ['id'], rightKey: ['id'] }));
    expect(ok.plan?.nodes.find((n) => n.id === 'j')?.outputs.out).toEqual({ fields: { id: 'integer', a: 'string', id_right: 'integer', b: 'string' }, eventTime: null, keyedBy: null, changelog: 'append', uniqueKey: null });
    const outer = compile(doc({ type: 'full', leftKey: ['id'], rightKey: ['id'] }));
    expect(outer.plan?.nodes.find((n) => n.id === 'j')?.outputs.out.changelog).toBe('update');
    const bad = compile(doc({ type: 'inner', leftKey: ['id', 'a'], rightKey: ['nope'] }));
    expect(bad.problems.map((p) => [p.field, p.code])).toEqual([
      ['params.rightKey[0]', 'unknown-field'],
      ['params.rightKey', 'bad-param-value'],
    ]);
  });

  it('left-joins orders with customers in a pipeline', () => {
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'orders',
      nodes: [
        { id: 'orders', kind: 'inlineSource', params: { rows: [{ oid: 1, cid: 'a', ts: 1 }, { oid: 2, cid: 'b', ts: 2 }, { oid: 3, cid: 'z', ts: 3 }], eventTime: { field: 'ts' } } },
        { id: 'customers', kind: 'inlineSource', params: { rows: [{ cid: 'a', name: 'Ann', ts: 0 }, { cid: 'b', name: 'Bob', ts: 5 }], eventTime: { field: 'ts' } } },
        { id: 'j', kind: 'join', params: { type: 'left', leftKey: ['cid'], rightKey: ['cid'] } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
        { from: { node: 'customers', port: 'out' }, to: { node: 'j', port: 'right' } },
        { from: { node: 'j', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    });
    const byOrder = [...run.views.view].sort((x, y) => (x.oid as number) - (y.oid as number));
    expect(byOrder).toEqual([
      { oid: 1, cid: 'a', ts: 1, cid_right: 'a', name: 'Ann', ts_right: 0 },
      { oid: 2, cid: 'b', ts: 2, cid_right: 'b', name: 'Bob', ts_right: 5 },
      { oid: 3, cid: 'z', ts: 3, cid_right: null, name: null, ts_right: null },
    ]);
    expect(run.deadLetters).toEqual([]);
  });
});
