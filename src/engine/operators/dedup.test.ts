import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { runPipeline } from '../../testing/runPipeline.ts';
import { dedupSpec } from '../../pipeline/kinds/dedup.ts';
import { unknownStream } from '../../core/streamInfo.ts';

const row = (k: string, v: string, ts: number) => ({ k, v, ts });

function run(params: Record<string, unknown>, rows: ReturnType<typeof row>[]) {
  const h = new OperatorHarness('dedup', { key: ['k'], ...params });
  rows.forEach((x) => h.processElement(x));
  return h;
}

describe('dedup', () => {
  it('keep first by arrival: +I for the first row per key, later ones dropped and counted', () => {
    const h = run({ keep: 'first' }, [row('a', '1', 5), row('a', '2', 1), row('b', '3', 2), row('a', '4', 9)]);
    expect(h.lines()).toEqual(['+I {"k":"a","v":"1","ts":5}', '+I {"k":"b","v":"3","ts":2}']);
    expect(h.task.counters.duplicatesDropped).toBe(2);
  });

  it('keep last by arrival: +I, then -U previous / +U new for each later row', () => {
    const h = run({ keep: 'last', order: 'arrival' }, [row('a', '1', 5), row('a', '2', 1), row('b', '3', 2)]);
    expect(h.lines()).toEqual(['+I {"k":"a","v":"1","ts":5}', '-U {"k":"a","v":"1","ts":5}', '+U {"k":"a","v":"2","ts":1}', '+I {"k":"b","v":"3","ts":2}']);
    expect(h.task.counters.duplicatesDropped).toBe(1);
  });

  it('keep first by event time: a later arrival with a smaller time replaces; equal times keep the earlier arrival', () => {
    const h = run({ keep: 'first', order: 'eventTime' }, [row('a', '1', 5), row('a', '2', 3), row('a', '3', 3), row('a', '4', 9)]);
    expect(h.lines()).toEqual(['+I {"k":"a","v":"1","ts":5}', '-U {"k":"a","v":"1","ts":5}', '+U {"k":"a","v":"2","ts":3}']);
    expect(h.task.counters.duplicatesDropped).toBe(3);
  });

  it('keep last by event time: the largest time wins; equal times go to the later arrival', () => {
    const h = run({ keep: 'last', order: 'eventTime' }, [row('a', '1', 5), row('a', '2', 3), row('a', '3', 5), row('a', '4', 9), row('a', '5', 7)]);
    expect(h.lines()).toEqual([
      '+I {"k":"a","v":"1","ts":5}',
      '-U {"k":"a","v":"1","ts":5}',
      '+U {"k":"a","v":"3","ts":5}',
      '-U {"k":"a","v":"3","ts":5}',
      '+U {"k":"a","v":"4","ts":9}',
    ]);
    expect(h.task.counters.duplicatesDropped).toBe(4);
  });

  it('dead-letters updates and deletes, and rows without event time when ordering by it', () => {
    const h = new OperatorHarness('dedup', { key: ['k'], keep: 'last', order: 'eventTime' });
    h.processElement(row('a', '1', 5), { kind: '-D' });
    h.processElement({ k: 'a', v: '2' }, { ts: null });
    expect(h.output()).toEqual([]);
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['Deduplicate needs an insert-only input, got -D', 'row has no event time to order duplicates by']);
  });

  it('infers the output changelog and reports updating inputs and missing event time', () => {
    const input = { ...unknownStream(), fields: { k: 'string' as const, ts: 'timestamp' as const }, eventTime: null };
    const infer = (params: Parameters<typeof dedupSpec.infer>[0]['params'], info = input) => dedupSpec.infer({ nodeId: 'd', params, inputs: { in: info }, inputLists: { in: [info] } });
    expect(infer({ key: ['k'], keep: 'first' }).outputs.out).toMatchObject({ changelog: 'append', uniqueKey: ['k'] });
    expect(infer({ key: ['k'], keep: 'last' }).outputs.out).toMatchObject({ changelog: 'update', uniqueKey: ['k'] });
    expect(infer({ key: ['k'], keep: 'first', order: 'eventTime' }).problems?.map((p) => p.code)).toEqual(['no-event-time']);
    expect(infer({ key: ['x'], keep: 'first' }, { ...input, changelog: 'update' }).problems?.map((p) => p.code)).toEqual(['unknown-field', 'needs-append-only']);
  });

  it('restores from a snapshot into a fresh operator and continues identically, in every mode', () => {
    const rows = Array.from({ length: 40 }, (_, i) => row(`k${i % 4}`, String(i), (i * 7) % 13));
    for (const keep of ['first', 'last'])
      for (const order of ['arrival', 'eventTime']) {
        const params = { key: ['k'], keep, order };
        const a = new OperatorHarness('dedup', params);
        const b = new OperatorHarness('dedup', params);
        rows.slice(0, 20).forEach((x) => a.processElement(x));
        const restored = a.restored(a.snapshot());
        rows.forEach((x) => b.processElement(x));
        rows.slice(20).forEach((x) => restored.processElement(x));
        expect(restored.lines(), `${keep}/${order}`).toEqual(b.lines().slice(a.output().length));
        expect(restored.task.counters.duplicatesDropped).toBe(b.task.counters.duplicatesDropped);
      }
  });

  it('keeps the latest order status per order in a view', () => {
    const rows = [
      { order: 1, status: 'NEW', ts: 1000 },
      { order: 2, status: 'NEW', ts: 1100 },
      { order: 1, status: 'PAID', ts: 3000 },
      { order: 1, status: 'LATE-ECHO', ts: 2000 },
    ];
    const result = runPipeline({
      format: 'weir/pipeline',
      version: 1,
      name: 'latest-status',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows, eventTime: { field: 'ts', maxOutOfOrdernessMs: 5000 } } },
        { id: 'dd', kind: 'dedup', params: { key: ['order'], keep: 'last', order: 'eventTime' } },
        { id: 'view', kind: 'viewSink', params: {} },
      ],
      edges: [
        { from: { node: 'src', port: 'out' }, to: { node: 'dd', port: 'in' } },
        { from: { node: 'dd', port: 'out' }, to: { node: 'view', port: 'in' } },
      ],
    });
    expect(result.views.view).toEqual([
      { order: 1, status: 'PAID', ts: 3000 },
      { order: 2, status: 'NEW', ts: 1100 },
    ]);
    expect(result.job.metrics().dd.counters.duplicatesDropped).toBe(2);
  });
});
