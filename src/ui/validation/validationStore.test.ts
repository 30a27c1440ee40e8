import { describe, expect, it } from 'vitest';
import { onlyPositionsDiffer, validateNow } from './validationStore.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';

const doc: PipelineDocument = {
  format: 'weir/pipeline',
  version: 1,
  name: 't',
  nodes: [
    { id: 'src', kind: 'inlineSource', params: { rows: [{ k: 'a' }] }, position: { x: 0, y: 0 } },
    { id: 'f', kind: 'filter', params: { where: 'true' }, position: { x: 200, y: 0 } },
  ],
  edges: [],
};
const moved = (d: PipelineDocument): PipelineDocument => ({ ...d, nodes: d.nodes.map((n) => (n.id === 'f' ? { ...n, position: { x: 300, y: 10 } } : n)) });

describe('validation during a drag', () => {
  it('tells a move from an edit', () => {
    expect(onlyPositionsDiffer(doc, moved(doc))).toBe(true);
    expect(onlyPositionsDiffer(doc, { ...doc, nodes: doc.nodes.map((n) => (n.id === 'f' ? { ...n, params: { where: 'false' } } : n)) })).toBe(false);
    expect(onlyPositionsDiffer(doc, { ...doc, nodes: doc.nodes.map((n) => (n.id === 'f' ? { ...n, label: 'x' } : n)) })).toBe(false);
    expect(onlyPositionsDiffer(doc, { ...doc, edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'f', port: 'in' } }] })).toBe(false);
    expect(onlyPositionsDiffer(doc, { ...doc, nodes: doc.nodes.slice(1) })).toBe(false);
  });

  it('keeps the problems and streams of a move, and recompiles an edit', () => {
    const first = validateNow(doc);
    expect(first.problems.map((p) => p.code)).toEqual(['unconnected-input']);
    const afterMove = validateNow(moved(doc));
    expect(afterMove.problems).toBe(first.problems);
    expect(afterMove.streams).toBe(first.streams);
    const connected = { ...doc, edges: [{ from: { node: 'src', port: 'out' }, to: { node: 'f', port: 'in' } }] };
    expect(validateNow(connected).problems).toEqual([]);
  });
});
