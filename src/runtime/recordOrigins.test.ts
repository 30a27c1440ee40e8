import { describe, expect, it } from 'vitest';
import { runPipeline, planOrThrow } from '../testing/runPipeline.ts';
import { jobOrigins } from '../engine/origins.ts';
import { SourceTask } from '../engine/sourceTask.ts';
import { jsonLinesReader } from '../core/source.ts';
import { packOrigin } from '../core/origin.ts';
import { decodeBatch, encodeBatch } from './threaded/codec.ts';
import type { Element } from '../core/types.ts';

// Records remember the source line they were read from (Element.at) when the pipeline runs user
// code, so a bad record deep in the pipeline is found where it came from: the dead letters of
// user code and the watchdog's message (see src/testing/badInput/userCode) name file and line.

const edge = (from: string, to: string) => ({ from: { node: from, port: 'out' }, to: { node: to, port: 'in' } });
/** Line 2 is blank and line 5 is not JSON, so a record's line is not its index among the records. */
const LINES = ['{"id":1,"amount":5}', '', '{"id":2,"amount":-1}', '{"id":3,"amount":7}', 'not json', '{"id":4,"amount":-2}'];
const inputs = { orders: { name: 'orders.jsonl', lines: LINES } };
const orders = { id: 'orders', kind: 'fileSource', params: { schema: { id: 'integer', amount: 'number' } } };

function doc(nodes: object[], edges: object[]) {
  return { format: 'weir/pipeline', version: 1, name: 'origins', nodes: [orders, ...nodes, { id: 'view', kind: 'viewSink', params: {} }], edges };
}

describe('the source line of a record', () => {
  it('is named by the dead letters of user code after map, filter, flatMap, project and keyBy, at parallelism 1 and 3', () => {
    for (const parallelism of [1, 3]) {
      const p = (n: object) => ({ ...n, parallelism });
      const run = runPipeline(
        doc(
          [
            p({ id: 'twice', kind: 'flatMap', params: { code: '(row) => [row, { ...row, copy: true }]' } }),
            p({ id: 'kept', kind: 'filter', params: { where: 'copy IS NULL' } }),
            p({ id: 'cents', kind: 'map', params: { set: [{ name: 'cents', expr: 'amount * 100' }] } }),
            p({ id: 'slim', kind: 'project', params: { fields: [{ name: 'id', expr: 'id' }, { name: 'cents', expr: 'cents' }] } }),
            p({ id: 'by', kind: 'keyBy', params: { key: ['id'] } }),
            p({ id: 'picky', kind: 'map', params: { code: '(row) => { if (row.cents < 0) throw new Error("negative"); return row; }' } }),
          ],
          [edge('orders', 'twice'), edge('twice', 'kept'), edge('kept', 'cents'), edge('cents', 'slim'), edge('slim', 'by'), edge('by', 'picky'), edge('picky', 'view')],
        ),
        { inputs, batchSize: 2 },
      );
      const picky = run.deadLetters.filter((d) => d.nodeId === 'picky').sort((a, b) => a.line! - b.line!);
      expect(picky.map((d) => [d.file, d.line, d.source, (d.row as { id: number }).id]), `parallelism ${parallelism}`).toEqual([
        ['orders.jsonl', 3, 'orders', 2],
        ['orders.jsonl', 6, 'orders', 4],
      ]);
      // The source's own dead letter keeps its line and raw text, and names no other source.
      expect(run.deadLetters.filter((d) => d.nodeId === 'orders').map((d) => [d.line, d.source])).toEqual([[5, undefined]]);
    }
  });

  it('is not invented for a record made from many: code after an aggregate says so, and its dead letters name no line', () => {
    const plan = planOrThrow(
      doc(
        [
          { id: 'total', kind: 'aggregate', params: { groupBy: ['id'], aggregates: [{ fn: 'sum', field: 'amount', as: 'sum' }] } },
          { id: 'picky', kind: 'map', params: { code: '(row) => { if (row.sum < 0) throw new Error("negative"); return row; }' } },
        ],
        [edge('orders', 'total'), edge('total', 'picky'), edge('picky', 'view')],
      ),
    );
    const origins = jobOrigins(plan, () => ({ orders: 'orders.jsonl' }))!;
    expect(origins.sentence(undefined, 'picky')).toBe('that record has no single source line: it derives from many input records (it comes out of aggregate "total")');
    expect(origins.sentence(packOrigin(origins.slotOf('orders'), 3), 'picky')).toBe('that record came from orders.jsonl:3 (source "orders")');
    const run = runPipeline(plan.doc, { inputs });
    const picky = run.deadLetters.filter((d) => d.nodeId === 'picky');
    expect(picky.length).toBeGreaterThan(0);
    for (const d of picky) expect(d).not.toHaveProperty('line');
  });

  it('costs nothing without user code: sources stamp no line and the job has no origins', () => {
    const plan = planOrThrow(doc([{ id: 'cents', kind: 'map', params: { set: [{ name: 'cents', expr: 'amount * 100' }] } }], [edge('orders', 'cents'), edge('cents', 'view')]));
    expect(jobOrigins(plan, () => ({}))).toBeNull();
    const plain = new SourceTask('orders', jsonLinesReader(LINES), { schema: orders.params.schema }).poll(10).elements;
    expect(plain.map((e) => Object.keys(e))).toEqual(Array(4).fill(['kind', 'row', 'ts']));
    const stamped = new SourceTask('orders', jsonLinesReader(LINES), { schema: orders.params.schema }, 1).poll(10).elements;
    expect(stamped.map((e) => e.at)).toEqual([1, 3, 4, 6].map((line) => packOrigin(1, line)));
  });

  it('crosses a worker boundary in a columnar batch, and only where records carry it', () => {
    const els: Element[] = Array.from({ length: 40 }, (_, i) => ({ kind: '+I', row: { id: i }, ts: null, ...(i % 3 ? { at: packOrigin(2, i + 10) } : {}) }));
    const transfer: Transferable[] = [];
    const wire = encodeBatch(els, 'columnar', transfer);
    expect(wire.enc).toBe('columnar');
    expect(decodeBatch(structuredClone(wire))).toEqual(els);
    const bare = els.map(({ kind, row, ts }) => ({ kind, row, ts }));
    const plain = encodeBatch(bare, 'columnar', []);
    expect(plain).not.toHaveProperty('at');
    expect(decodeBatch(plain).every((e) => !('at' in e))).toBe(true);
  });
});
