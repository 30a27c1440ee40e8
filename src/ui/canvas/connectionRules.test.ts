import { describe, expect, it } from 'vitest';
import { checkConnection } from './connectionRules.ts';
import { compile } from '../../pipeline/compile.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const doc: PipelineDocument = {
  format: 'weir/pipeline',
  version: 1,
  name: 't',
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a' }] } },
    { id: 'f', kind: 'filter', params: { where: 'true' } },
    { id: 'g', kind: 'filter', params: { where: 'true' } },
    { id: 'kb', kind: 'keyBy', params: { key: ['k'] } },
    { id: 'p', kind: 'process', params: { code: '({ processElement() {} })' } },
  ],
  edges: [
    { from: { node: 'src', port: 'out' }, to: { node: 'f', port: 'in' } },
    { from: { node: 'f', port: 'out' }, to: { node: 'g', port: 'in' } },
    { from: { node: 'src', port: 'out' }, to: { node: 'kb', port: 'in' } },
  ],
};
const streams = compile(doc).streams;
const check = (source: string, sh: string, target: string, th: string) => checkConnection(doc, streams, { source, sourceHandle: sh, target, targetHandle: th });
const reason = (r: ReturnType<typeof check>) => (r.ok ? 'ok' : r.reason);

describe('connection rules', () => {
  it('accepts output → input and orders an input-first drag', () => {
    expect(check('kb', 'out:out', 'p', 'in:in')).toEqual({ ok: true, from: { node: 'kb', port: 'out' }, to: { node: 'p', port: 'in' } });
    expect(check('p', 'in:in', 'kb', 'out:out')).toMatchObject({ ok: true, from: { node: 'kb', port: 'out' } });
  });
  it('refuses two outputs or two inputs', () => expect(reason(check('src', 'out:out', 'f', 'out:out'))).toMatch(/Both ends are outputs/));
  it('refuses a second stream into a one-input port', () => expect(reason(check('kb', 'out:out', 'f', 'in:in'))).toMatch(/takes one stream and already has one/));
  it('refuses a cycle', () => expect(reason(check('g', 'out:out', 'f', 'in:in'))).toMatch(/cycle|already has one/));
  it('refuses a keyed input fed by an unkeyed stream', () => expect(reason(check('g', 'out:out', 'p', 'in:in'))).toMatch(/needs a keyed stream/));
  it('refuses a node feeding itself', () => expect(reason(check('g', 'out:out', 'g', 'in:in'))).toMatch(/cannot feed itself/));
});

describe('connection rules: what the target needs of the stream', () => {
  const timed: PipelineDocument = {
    format: 'weir/pipeline',
    version: 1,
    name: 'group then window',
    nodes: [
      { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a', ts: 1 }], eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 } } },
      { id: 'plain', kind: 'inlineSource', params: { rows: [{ k: 'a', ts: 1 }] } },
      { id: 'g', kind: 'aggregate', params: { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] } },
      { id: 'w', kind: 'window', params: { type: 'tumble', sizeMs: 1000, groupBy: ['k'], aggregates: [{ fn: 'count', as: 'n' }] } },
      { id: 'd', kind: 'dedup', params: { key: ['k'] } },
    ],
    edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'g', port: 'in' } }],
  };
  const s = compile(timed).streams;
  const c = (source: string, target: string) => checkConnection(timed, s, { source, sourceHandle: 'out:out', target, targetHandle: 'in:in' });
  it('refuses Group by → Window aggregate naming the updating output and what to do', () => {
    expect(reason(c('g', 'w'))).toMatch(/g sends an updating changelog.*Put Window aggregate before g/);
  });
  it('refuses a stream without event time, pointing at the source', () => expect(reason(c('plain', 'w'))).toMatch(/needs event time, and plain has none/));
  it('accepts the timed source', () => expect(c('src', 'w').ok).toBe(true));
  it('refuses updates into an insert-only input', () => expect(reason(c('g', 'd'))).toMatch(/takes inserts only, and g sends updates/));
});
