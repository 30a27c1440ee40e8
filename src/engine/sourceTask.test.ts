import { describe, expect, it } from 'vitest';
import { SourceTask } from './sourceTask.ts';
import { jsonLinesReader } from '../core/source.ts';
import { compile } from '../pipeline/compile.ts';
import type { PipelineDocument } from '../pipeline/document.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION } from '../pipeline/document.ts';

const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r));

describe('a computed event time (eventTime.expr)', () => {
  const schema = { id: 'string', at: 'string' };
  const eventTime = { field: 'ts', expr: 'TO_TIMESTAMP(`at`)', maxOutOfOrdernessMs: 0 };

  it('computes the time field per record from zone-less UTC text, and watermarks follow it', () => {
    const rows = [{ id: 'a', at: '2024-01-31 13:05:09' }, { id: 'b', at: '2024-01-31 13:05:11.5' }];
    const t = new SourceTask('s', jsonLinesReader(lines(rows)), { schema, eventTime });
    const p = t.poll(10);
    const b = Date.UTC(2024, 0, 31, 13, 5, 11, 500);
    expect(p.elements.map((e) => [e.row.id, e.row.ts, e.ts])).toEqual([['a', Date.UTC(2024, 0, 31, 13, 5, 9), Date.UTC(2024, 0, 31, 13, 5, 9)], ['b', b, b]]);
    expect(p.watermark).toBe(Infinity);
    expect(rows[0]).toEqual({ id: 'a', at: '2024-01-31 13:05:09' });
  });

  it('dead-letters a record whose expression gives NULL, with its line', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([{ id: 'a', at: 'yesterday' }, { id: 'b', at: null }, { id: 'c', at: '2024-01-01 00:00:00' }])), { schema, eventTime });
    const p = t.poll(10);
    expect(p.elements.map((e) => e.row.id)).toEqual(['c']);
    expect(p.deadLetters.map((d) => [d.line, d.reason])).toEqual([
      [1, 'no event time: eventTime.expr gave NULL for this record'],
      [2, 'no event time: eventTime.expr gave NULL for this record'],
    ]);
  });

  it('computes it on changelog rows too', () => {
    const t = new SourceTask('s', jsonLinesReader(lines([{ op: '+I', data: { id: 'a', at: '2024-01-01 00:00:01' } }])), { schema, eventTime, changelog: { format: 'changelog-json' } });
    expect(t.poll(10).elements.map((e) => [e.kind, e.ts])).toEqual([['+I', Date.UTC(2024, 0, 1, 0, 0, 1)]]);
  });

  it('validation: the field is a timestamp of the output, the schema must not declare it, the expression reads declared fields', () => {
    const doc = (params: Record<string, unknown>): PipelineDocument => ({
      format: PIPELINE_FORMAT,
      version: PIPELINE_VERSION,
      name: 't',
      nodes: [
        { id: 'src', kind: 'inlineSource', params: { rows: [], ...params } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'out', port: 'in' } }],
    }) as PipelineDocument;
    const ok = compile(doc({ schema, eventTime }));
    expect(ok.problems).toEqual([]);
    expect(ok.plan!.nodes.find((n) => n.id === 'src')!.outputs.out).toMatchObject({ fields: { id: 'string', at: 'string', ts: 'timestamp' }, eventTime: 'ts' });
    const codes = (params: Record<string, unknown>) => compile(doc(params)).problems.map((p) => [p.field, p.code]);
    expect(codes({ schema: { ...schema, ts: 'timestamp' }, eventTime })).toContainEqual(['params.eventTime.field', 'duplicate-field']);
    expect(codes({ schema, eventTime: { ...eventTime, expr: 'TO_TIMESTAMP(`nope`)' } })).toContainEqual(['params.eventTime.expr', 'unknown-field']);
    expect(codes({ schema, eventTime: { ...eventTime, expr: 'TO_TIMESTAMP(' } })).toContainEqual(['params.eventTime.expr', 'bad-expression']);
  });
});

describe('declared types (a compiled check of named fields, the generic loop naming what fails)', () => {
  const schema = { n: 'number', i: 'integer', s: 'string', b: 'boolean', 'odd "name"': 'string', t: 'number', free: 'anything' };
  const eventTime = { field: 't', maxOutOfOrdernessMs: 0 };
  const ok = { n: 1.5, i: -0, s: 'x', b: false, 'odd "name"': 'y', t: 5, free: [1] };

  it('passes typed rows as they are, turns absent fields into nulls (not the time field), and dead-letters the first bad field by name', () => {
    const rows = [
      ok,
      { t: 6 },
      { ...ok, n: 'no' },
      { ...ok, i: 1.5, s: 3 },
      { ...ok, b: 'true' },
      { ...ok, 'odd "name"': 1 },
      { ...ok, n: null, i: 2, t: 'late' },
      { ...ok, s: 2, n: undefined },
    ];
    const t = new SourceTask('s', { read: () => rows.map((value, k) => ({ value, line: k + 1 })), done: () => true, offset: () => 0, seek: () => {} }, { schema, eventTime });
    const p = t.poll(20);
    expect(p.elements.map((e) => e.row)).toEqual([ok, { t: 6, n: null, i: null, s: null, b: null, 'odd "name"': null, free: null }]);
    expect(p.deadLetters.map((d) => [d.line, d.reason])).toEqual([
      [3, 'field "n": expected number, got "no" (string)'],
      [4, 'field "i": expected integer, got 1.5 (number)'],
      [5, 'field "b": expected boolean, got "true" (string)'],
      [6, 'field "odd "name"": expected string, got 1 (number)'],
      [7, 'field "t": expected number, got "late" (string)'],
      [8, 'field "s": expected string, got 2 (number)'],
    ]);
    // Fields before the bad one were normalized, as the generic loop does.
    expect(rows[7]).toEqual({ ...ok, s: 2, n: null });
    expect('n' in rows[6] && rows[6].n).toBe(null);
  });

  it('checks nothing for a type named like an Object.prototype member, as the loop does', () => {
    const rows = [{ a: 1, b: 'x' }, { a: 'y' }];
    const t = new SourceTask('s', { read: () => rows.map((value) => ({ value })), done: () => true, offset: () => 0, seek: () => {} }, { schema: { a: 'toString', b: 'constructor' } });
    expect(t.poll(5).elements.map((e) => e.row)).toEqual([{ a: 1, b: 'x' }, { a: 'y', b: null }]);
  });
});
