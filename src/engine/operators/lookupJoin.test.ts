import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { planOrThrow, runPipeline } from '../../testing/runPipeline.ts';
import { lookupJoinSpec } from '../../pipeline/kinds/lookupJoin.ts';
import { unknownStream } from '../../core/streamInfo.ts';
import type { RowKind } from '../../core/types.ts';
import type { LookupBufferView } from './lookupJoin.ts';

const inputs = { left: { fields: { id: 'integer', product: 'string', ts: 'timestamp' } }, right: { fields: { product: 'string', category: 'string' } } } as const;
const harness = (type = 'inner', extra: Record<string, unknown> = {}, endlessInputs?: string[]) =>
  new OperatorHarness('lookupJoin', { type, leftKey: ['product'], rightKey: ['product'], ...extra }, { inputs, endlessInputs });
let nextId = 0;
const order = (h: OperatorHarness, product: string | null, ts = 100 + nextId) => h.processElement({ id: nextId++, product, ts }, { port: 'left' });
const dim = (h: OperatorHarness, product: string | null, category: string, kind: RowKind = '+I') => h.processElement({ product, category }, { port: 'right', kind, ts: null });
const joined = (h: OperatorHarness) => h.output().map((e) => `${e.row.product}:${e.row.category}`);

describe('lookupJoin', () => {
  it('holds left rows until the dimension table has ended, then joins them in arrival order with the loaded table', () => {
    const h = harness('left');
    order(h, 'pen');
    dim(h, 'pen', 'office');
    order(h, 'mug');
    order(h, 'pen');
    dim(h, 'mug', 'kitchen');
    dim(h, 'pen', 'stationery', '-U');
    dim(h, 'pen', 'stationery', '+U');
    order(h, 'hat');
    expect(h.lines()).toEqual([]);
    expect((h.task.operator.inspect!() as LookupBufferView[]).filter((v) => v.side === 'left')).toHaveLength(4);
    h.endPort('right');
    expect(joined(h)).toEqual(['pen:stationery', 'mug:kitchen', 'pen:stationery', 'hat:null']);
    // Once loaded, each row is looked up on arrival.
    order(h, 'mug');
    expect(joined(h).at(-1)).toBe('mug:kitchen');
    expect(h.task.counters.joinMatches).toBe(4);
  });

  it('keeps the left row, its time and its fields, then the right fields (renamed on a clash)', () => {
    const h = harness('inner', { loadFirst: false });
    dim(h, 'pen', 'office');
    h.processElement({ id: 7, product: 'pen', ts: 555 }, { port: 'left' });
    expect(h.lines()).toEqual(['+I {"id":7,"product":"pen","ts":555,"product_right":"pen","category":"office"}']);
    expect(h.output()[0].ts).toBe(555);
  });

  it('without loadFirst joins on arrival with the row the key has then; later changes never retract', () => {
    for (const type of ['inner', 'left']) {
      const h = harness(type, { loadFirst: false });
      order(h, 'pen');
      dim(h, 'pen', 'office');
      order(h, 'pen');
      dim(h, 'pen', 'stationery');
      order(h, 'pen');
      dim(h, 'pen', 'stationery', '-D');
      order(h, 'pen');
      order(h, null);
      dim(h, null, 'none');
      order(h, null);
      h.endPort('right');
      h.endInput();
      expect(h.output().every((e) => e.kind === '+I')).toBe(true);
      expect(joined(h)).toEqual(type === 'inner' ? ['pen:office', 'pen:stationery'] : ['pen:null', 'pen:office', 'pen:stationery', 'pen:null', 'null:null', 'null:null']);
    }
  });

  it('joins on arrival when the right input never ends, even with loadFirst', () => {
    const h = harness('left', {}, ['right']);
    order(h, 'pen');
    dim(h, 'pen', 'office');
    order(h, 'pen');
    expect(joined(h)).toEqual(['pen:null', 'pen:office']);
  });

  it('a row with a NULL key does not wait: it can never match', () => {
    const h = harness('left');
    order(h, null);
    order(h, 'pen');
    expect(joined(h)).toEqual(['null:null']);
    h.endPort('right');
    expect(joined(h)).toEqual(['null:null', 'pen:null']);
  });

  it('dead-letters left updates and counts them', () => {
    const h = harness();
    h.processElement({ id: 1, product: 'pen', ts: 1 }, { port: 'left', kind: '-D' });
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['lookup join takes only inserts on its left (probe) input, got -D']);
    expect(h.task.counters.deadLetters).toBe(1);
  });

  it('reports an updating probe stream and a key that misses the table\'s primary key; needs no event time', () => {
    const infer = (left: object, right: object) =>
      lookupJoinSpec.infer({ nodeId: 'l', params: { type: 'left', leftKey: ['id'], rightKey: ['id'] }, inputs: { left: { ...unknownStream(), ...left }, right: { ...unknownStream(), ...right } }, inputLists: {} }).problems?.map((p) => p.code);
    expect(infer({}, { changelog: 'update', uniqueKey: ['id'] })).toEqual([]);
    expect(infer({ changelog: 'update' }, {})).toEqual(['needs-append-only']);
    expect(infer({}, { uniqueKey: ['id', 'region'] })).toEqual(['key-mismatch']);
  });

  const products = ['pen', 'mug', 'hat', 'cap', 'ink'];
  /** Orders and table changes interleaved; the table ends after step `tableEnd`. */
  const feed = (h: OperatorHarness, from: number, to: number, tableEnd: number) => {
    for (let i = from; i < to; i++) {
      const p = products[i % 5];
      if (i % 3 === 0 && i < tableEnd) dim(h, p, `c${i}`, i % 9 === 6 ? '-D' : '+I');
      else h.processElement({ id: i, product: p, ts: i * 10 }, { port: 'left' });
      if (i === tableEnd - 1) h.endPort('right');
    }
  };

  it('restores waiting left rows and the table from a snapshot taken before the table ended', () => {
    const a = harness('left');
    const b = harness('left');
    feed(a, 0, 30, 45);
    expect(a.output()).toEqual([]);
    const restored = a.restored(a.snapshot());
    feed(b, 0, 80, 45);
    feed(restored, 30, 80, 45);
    expect(restored.lines()).toEqual(b.lines());
    expect(b.lines().length).toBeGreaterThan(40);
    expect(b.lines()).toContain('+I {"id":1,"product":"mug","ts":10,"product_right":"mug","category":"c36"}');
  });

  it('restores the table mid-stream, after it ended, so later rows are looked up at once', () => {
    const a = harness('inner');
    const b = harness('inner');
    feed(a, 0, 50, 45);
    const restored = a.restored(a.snapshot());
    feed(b, 0, 80, 45);
    feed(restored, 50, 80, 45);
    expect(restored.lines()).toEqual(b.lines().slice(a.output().length));
    expect(restored.lines().length).toBeGreaterThan(10);
  });

  it('enriches orders with the loaded dimension table in a pipeline, whichever input ends first', () => {
    const doc = (dims: number) => ({
      format: 'weir/pipeline',
      version: 1,
      name: 'lookup',
      nodes: [
        { id: 'orders', kind: 'inlineSource', params: { rows: [{ id: 1, product: 'pen', ts: 1000 }, { id: 2, product: 'hat', ts: 2000 }, { id: 3, product: 'mug', ts: 3000 }], eventTime: { field: 'ts' } } },
        { id: 'dim', kind: 'inlineSource', params: { rows: Array.from({ length: dims }, (_, i) => ({ product: i % 2 ? 'pen' : 'mug', category: `c${i}` })) } },
        { id: 'j', kind: 'lookupJoin', params: { type: 'left', leftKey: ['product'], rightKey: ['product'] } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
        { from: { node: 'dim', port: 'out' }, to: { node: 'j', port: 'right' } },
        { from: { node: 'j', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    });
    for (const dims of [2, 2000]) {
      const run = runPipeline(doc(dims));
      expect(run.changelogs.out.map((e) => `${e.kind} ${e.row.id} ${e.row.category} @${e.ts}`)).toEqual([`+I 1 c${dims - 1} @1000`, '+I 2 null @2000', `+I 3 c${dims - 2} @3000`]);
      expect(run.plan.nodes.find((n) => n.id === 'j')?.outputs.out).toMatchObject({ changelog: 'append', eventTime: 'ts' });
      expect(run.deadLetters).toEqual([]);
    }
  });

  it('marks the input ports a live feed feeds as never ending', () => {
    const plan = planOrThrow({
      format: 'weir/pipeline',
      version: 1,
      name: 'live',
      nodes: [
        { id: 'orders', kind: 'inlineSource', params: { rows: [{ id: 1, product: 'pen' }] } },
        { id: 'feed', kind: 'feedSource', params: { url: 'ws://localhost:1/x', schema: { product: 'string', category: 'string' } } },
        { id: 'keep', kind: 'filter', params: { where: 'category IS NOT NULL' } },
        { id: 'j', kind: 'lookupJoin', params: { type: 'left', leftKey: ['product'], rightKey: ['product'] } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
        { from: { node: 'feed', port: 'out' }, to: { node: 'keep', port: 'in' } },
        { from: { node: 'keep', port: 'out' }, to: { node: 'j', port: 'right' } },
        { from: { node: 'j', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    });
    expect(Object.fromEntries(plan.nodes.map((n) => [n.id, n.endlessInputs ?? []]))).toEqual({ orders: [], feed: [], keep: ['in'], j: ['right'], out: ['in'] });
  });
});
