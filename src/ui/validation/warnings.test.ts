import { describe, expect, it } from 'vitest';
import { pipelineWarnings } from './warnings.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const doc = (withSink: boolean): PipelineDocument => ({
  format: 'weir/pipeline',
  version: 1,
  name: 'w',
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: [] } },
    { id: 'f', kind: 'filter', params: { where: 'true' } },
    ...(withSink ? [{ id: 'out', kind: 'logSink', params: {} }] : []),
  ],
  edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'f', port: 'in' } }, ...(withSink ? [{ from: { node: 'f', port: 'out' }, to: { node: 'out', port: 'in' } }] : [])],
});

describe('pipeline warnings', () => {
  it('flags an operator whose output goes nowhere once its sink is deleted', () => {
    expect(pipelineWarnings(doc(true))).toEqual([]);
    expect(pipelineWarnings(doc(false))).toEqual([{ target: 'f', code: 'dangling-output' }]);
  });
});
