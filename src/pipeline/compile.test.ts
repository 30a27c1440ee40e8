import { describe, expect, it } from 'vitest';
import { compile } from './compile.ts';
import type { PipelineDocument } from './document.ts';

const base = (nodes: PipelineDocument['nodes'], edges: PipelineDocument['edges']): PipelineDocument => ({ format: 'weir/pipeline', version: 1, name: 't', nodes, edges });
const edge = (from: string, to: string, toPort = 'in', fromPort = 'out') => ({ from: { node: from, port: fromPort }, to: { node: to, port: toPort } });

describe('compile: stream inference despite problems', () => {
  it('infers every analysable node of a document that has problems', () => {
    const doc = base(
      [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a', n: 1 }] } },
        { id: 'kb', kind: 'keyBy', params: { key: ['k'] } },
        { id: 'lonely', kind: 'filter', params: { where: 'n > 0' } },
        { id: 'typo', kind: 'filtr', params: {} },
      ],
      [edge('src', 'kb')],
    );
    const r = compile(doc);
    expect(r.plan).toBeNull();
    expect(r.problems.map((p) => p.code).sort()).toEqual(['unconnected-input', 'unknown-kind']);
    expect(r.streams.src.outputs.out.fields).toEqual({ k: 'string', n: 'integer' });
    expect(r.streams.kb.inputs.in.fields).toEqual({ k: 'string', n: 'integer' });
    expect(r.streams.kb.outputs.out.keyedBy).toEqual(['k']);
    // An unconnected node is still analysed (with no input stream); an unknown kind cannot be.
    expect(r.streams.lonely.inputs).toEqual({});
    expect(Object.keys(r.streams.lonely.outputs)).toEqual(['out']);
    expect(r.streams.typo).toBeUndefined();
  });

  it('infers the nodes before a cycle and skips the nodes on it', () => {
    const doc = base(
      [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a' }] } },
        { id: 'u', kind: 'union', params: {} },
        { id: 'f', kind: 'filter', params: { where: 'true' } },
      ],
      [edge('src', 'u'), edge('u', 'f'), edge('f', 'u')],
    );
    const r = compile(doc);
    expect(r.problems.some((p) => p.code === 'cycle')).toBe(true);
    expect(r.streams.src.outputs.out.fields).toEqual({ k: 'string' });
    expect(r.streams.u).toBeUndefined();
    expect(r.streams.f).toBeUndefined();
  });

  it('hides fields derived from invalid params, as downstream checks do', () => {
    const doc = base(
      [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a' }] } },
        { id: 'kb', kind: 'keyBy', params: { key: 'k' } },
      ],
      [edge('src', 'kb')],
    );
    const r = compile(doc);
    expect(r.problems.some((p) => p.target === 'kb' && p.field.startsWith('params'))).toBe(true);
    expect(r.streams.kb.outputs.out.fields).toBeNull();
  });

  it('returns the same streams as the plan for a clean document', () => {
    const doc = base(
      [
        { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a' }] } },
        { id: 'kb', kind: 'keyBy', params: { key: ['k'] } },
        { id: 'out', kind: 'collectSink', params: {} },
      ],
      [edge('src', 'kb'), edge('kb', 'out')],
    );
    const r = compile(doc);
    expect(r.problems).toEqual([]);
    for (const n of r.plan!.nodes) expect(r.streams[n.id]).toEqual({ inputs: n.inputs, outputs: n.outputs });
  });

  it('returns no streams for a document it cannot read', () => {
    expect(compile({ format: 'nope' }).streams).toEqual({});
  });
});
