import { describe, expect, it } from 'vitest';
import type { PipelineDocument } from './document.ts';
import { originAfterEdit, originSpans, withoutOrigin } from './origin.ts';
import { compile } from './compile.ts';

const span = (line: number) => ({ line, column: 1, endLine: line, endColumn: 20 });
const planned = (): PipelineDocument => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'p',
  origin: { sql: 'CREATE TABLE src …;\nINSERT INTO out SELECT * FROM src WHERE a > 1;' },
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: [{ a: 1 }] }, position: { x: 0, y: 0 }, origin: { sql: span(1) } },
    { id: 'f', kind: 'filter', params: { where: 'a > 1' }, position: { x: 200, y: 0 }, origin: { sql: span(2) } },
    { id: 'out', kind: 'viewSink', params: {}, origin: { sql: span(2) } },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'f', port: 'in' } },
    { from: { node: 'f', port: 'out' }, to: { node: 'out', port: 'in' } },
  ],
});

describe('node origins', () => {
  it('are valid document fields', () => {
    expect(compile(planned()).problems).toEqual([]);
  });

  it('name the bad field when a span is not a span', () => {
    const doc = planned() as unknown as { nodes: { origin: unknown }[]; origin: unknown };
    doc.nodes[1].origin = { sql: { line: 0, column: 1 } };
    doc.origin = { sql: 3 };
    const problems = compile(doc).problems.map((p) => `${p.target ?? ''}:${p.field}`);
    expect(problems).toEqual([':origin', 'f:origin']);
  });

  it('survive moving and relabelling nodes', () => {
    const before = planned();
    const after = { ...before, nodes: before.nodes.map((n) => ({ ...n, position: { x: 5, y: 5 }, label: 'moved' })) };
    expect(originAfterEdit(before, after)).toBe(after);
  });

  it('are dropped by an edit that changes the pipeline', () => {
    const before = planned();
    const after = { ...before, nodes: before.nodes.map((n) => (n.id === 'f' ? { ...n, params: { where: 'a > 2' } } : n)) };
    const kept = originAfterEdit(before, after);
    expect(kept.origin).toBeUndefined();
    expect(kept.nodes.map((n) => n.origin)).toEqual([undefined, undefined, undefined]);
    expect(kept.nodes[1].params).toEqual({ where: 'a > 2' });
  });

  it('of a new script are kept, whatever the document was before', () => {
    const before = withoutOrigin(planned());
    const after = planned();
    expect(originAfterEdit(before, after)).toBe(after);
  });

  it('are listed by node id', () => {
    expect(originSpans(planned())).toEqual({ src: span(1), f: span(2), out: span(2) });
    expect(originSpans(withoutOrigin(planned()))).toEqual({});
  });
});
