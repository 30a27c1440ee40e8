import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { temporalJoinSpec } from '../../pipeline/kinds/temporalJoin.ts';
import { unknownStream } from '../../core/streamInfo.ts';
import type { RowKind } from '../../core/types.ts';
import type { TemporalBufferView } from './temporalJoin.ts';

const inputs = { left: { fields: { cur: 'string', amount: 'number', ts: 'timestamp' } }, right: { fields: { cur: 'string', rate: 'number', ts: 'timestamp' } } } as const;
const harness = (type = 'inner') => new OperatorHarness('temporalJoin', { type, leftKey: ['cur'], rightKey: ['cur'] }, { inputs });
const probe = (h: OperatorHarness, ts: number, cur = 'EUR') => h.processElement({ cur, amount: ts, ts }, { port: 'left' });
const version = (h: OperatorHarness, ts: number, rate: number, kind: RowKind = '+I', cur = 'EUR') => h.processElement({ cur, rate, ts }, { port: 'right', kind });
const rates = (h: OperatorHarness) => h.output().map((e) => `${e.row.amount}:${e.row.rate}`);

describe('temporalJoin', () => {
  it('joins each probe row with the latest version at or before its time, once the watermark reaches it', () => {
    const h = harness();
    version(h, 0, 1.0);
    version(h, 10, 1.1);
    version(h, 20, 1.2);
    [5, 10, 15, 25].forEach((t) => probe(h, t));
    h.processWatermark(12, 'left');
    expect(h.lines()).toEqual([]);
    h.processWatermark(12, 'right');
    expect(rates(h)).toEqual(['5:1', '10:1.1']);
    h.processWatermark(Infinity);
    expect(rates(h)).toEqual(['5:1', '10:1.1', '15:1.1', '25:1.2']);
    expect(h.lines()[0]).toBe('+I {"cur":"EUR","amount":5,"ts":5,"cur_right":"EUR","rate":1,"ts_right":0}');
    expect(h.output().map((e) => e.ts)).toEqual([5, 10, 15, 25]);
  });

  it('handles versions that arrive out of order', () => {
    const h = harness();
    version(h, 20, 1.2);
    probe(h, 15);
    version(h, 10, 1.1);
    version(h, 0, 1.0);
    probe(h, 5);
    h.processWatermark(Infinity);
    expect(rates(h)).toEqual(['5:1', '15:1.1']);
  });

  it('a delete ends the version: inner drops, left pads, until a new version starts', () => {
    for (const type of ['inner', 'left']) {
      const h = harness(type);
      version(h, 0, 1.0);
      version(h, 10, 1.0, '-D');
      version(h, 20, 1.3);
      [-5, 5, 12, 25].forEach((t) => probe(h, t));
      probe(h, 7, 'USD');
      h.processWatermark(Infinity);
      expect(rates(h)).toEqual(type === 'inner' ? ['5:1', '25:1.3'] : ['-5:null', '5:1', '7:null', '12:null', '25:1.3']);
    }
  });

  it('an update (-U then +U at one time) replaces the version', () => {
    const h = harness();
    version(h, 0, 1.0);
    version(h, 10, 1.0, '-U');
    version(h, 10, 1.5, '+U');
    probe(h, 11);
    h.processWatermark(Infinity);
    expect(rates(h)).toEqual(['11:1.5']);
  });

  it('reads the versioned side as upserts: a -U at the retracted row\'s own time does not end that version', () => {
    for (const type of ['inner', 'left']) {
      const h = harness(type);
      version(h, 0, 1.0);
      version(h, 0, 1.0, '-U');
      version(h, 20, 1.5, '+U');
      [5, 25].forEach((t) => probe(h, t));
      h.processWatermark(Infinity);
      expect(rates(h)).toEqual(['5:1', '25:1.5']);
    }
  });

  it('cleans up versions older than the newest one at or before the watermark', () => {
    const h = harness();
    [0, 10, 20, 30].forEach((t, i) => version(h, t, i));
    version(h, 5, 9, '+I', 'USD');
    version(h, 8, 9, '-D', 'USD');
    h.processWatermark(25);
    const view = h.task.operator.inspect!() as TemporalBufferView[];
    expect(view.map((v) => (v.side === 'right' ? `${v.key}@${v.validFrom}-${v.validUntil}${v.deleted ? ' deleted' : ''}` : ''))).toEqual(['EUR@20-30', 'EUR@30-null', 'USD@8-null deleted']);
    expect(h.task.counters.expiredVersions).toBe(3);
  });

  it('dead-letters late probe rows, probe updates and rows without time', () => {
    const h = harness();
    h.processWatermark(100);
    probe(h, 100);
    h.processElement({ cur: 'EUR', amount: 1, ts: 200 }, { port: 'left', kind: '-D' });
    h.processElement({ cur: 'EUR', rate: 1 }, { port: 'right', ts: null });
    expect(h.task.counters.lateRecords).toBe(1);
    expect(h.deadLetters.map((d) => d.reason.split(':')[0].split(',')[0])).toEqual(['late left row', 'temporal join takes only inserts on its left (probe) input', 'temporal join needs event time; the right row has none']);
  });

  it('reports a probe stream that updates, missing event time and a key that misses the table\'s primary key', () => {
    const infer = (left: object, right: object) =>
      temporalJoinSpec.infer({ nodeId: 't', params: { type: 'left', leftKey: ['id'], rightKey: ['id'] }, inputs: { left: { ...unknownStream(), eventTime: 'ts', ...left }, right: { ...unknownStream(), eventTime: 'ts', ...right } }, inputLists: {} }).problems?.map((p) => p.code);
    expect(infer({}, { changelog: 'update', uniqueKey: ['id'] })).toEqual([]);
    expect(infer({ changelog: 'update' }, {})).toEqual(['needs-append-only']);
    expect(infer({}, { eventTime: null })).toEqual(['no-event-time']);
    expect(infer({}, { uniqueKey: ['id', 'region'] })).toEqual(['key-mismatch']);
  });

  it('restores buffered probes and versions from a snapshot into a fresh operator', () => {
    const feed = (h: OperatorHarness, from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const cur = ['EUR', 'USD', 'GBP'][i % 3];
        if (i % 4 === 0) version(h, i * 10, i, i % 12 === 8 ? '-D' : '+I', cur);
        else probe(h, i * 10 + 3, cur);
        if (i % 10 === 9) h.processWatermark(i * 10 - 30);
      }
    };
    const a = harness('left');
    const b = harness('left');
    feed(a, 0, 40);
    const restored = a.restored(a.snapshot());
    feed(b, 0, 80);
    feed(restored, 40, 80);
    b.processWatermark(Infinity);
    restored.processWatermark(Infinity);
    expect(restored.lines()).toEqual(b.lines().slice(a.output().length));
    expect(restored.lines().length).toBeGreaterThan(20);
  });

  it('converts orders with the exchange rate of their time in a pipeline', () => {
    const run = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'fx',
      nodes: [
        { id: 'orders', kind: 'inlineSource', params: { rows: [{ cur: 'EUR', amount: 10, ts: 1000 }, { cur: 'EUR', amount: 20, ts: 3000 }, { cur: 'JPY', amount: 5, ts: 3500 }], eventTime: { field: 'ts' } } },
        { id: 'rates', kind: 'inlineSource', params: { rows: [{ cur: 'EUR', rate: 1.1, ts: 0 }, { cur: 'EUR', rate: 1.2, ts: 2000 }, { cur: 'EUR', rate: 1.3, ts: 4000 }], eventTime: { field: 'ts' } } },
        { id: 'j', kind: 'temporalJoin', params: { type: 'left', leftKey: ['cur'], rightKey: ['cur'] } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [
        { from: { node: 'orders', port: 'out' }, to: { node: 'j', port: 'left' } },
        { from: { node: 'rates', port: 'out' }, to: { node: 'j', port: 'right' } },
        { from: { node: 'j', port: 'out' }, to: { node: 'out', port: 'in' } },
      ],
    });
    expect(run.changelogs.out.map((e) => `${e.kind} ${e.row.amount}×${e.row.rate}`)).toEqual(['+I 10×1.1', '+I 20×1.2', '+I 5×null']);
    expect(run.plan.nodes.find((n) => n.id === 'j')?.outputs.out).toMatchObject({ changelog: 'append', eventTime: 'ts' });
    expect(run.deadLetters).toEqual([]);
  });
});
