import { beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from './registry.ts';
import { addNode, deleteSelection, moveNodes, setNodeParams } from './nodeActions.ts';
import { connect } from './edgeActions.ts';
import { duplicateSelection } from './clipboardActions.ts';
import { editorStore, emptyDocument } from '../store/editorStore.ts';
import { redo, resetDocument, undo } from '../store/history.ts';

const doc = () => editorStore.get().doc;

describe('editor actions and history', () => {
  beforeEach(() => resetDocument(emptyDocument()));

  it('adds nodes with fresh ids and the kind defaults, selecting the new one', () => {
    dispatch(addNode, { kind: 'filter', position: { x: 10.4, y: 20.6 } });
    dispatch(addNode, { kind: 'filter', position: { x: 0, y: 0 } });
    expect(doc().nodes.map((n) => n.id)).toEqual(['filter_1', 'filter_2']);
    expect(doc().nodes[0].position).toEqual({ x: 10, y: 21 });
    expect(editorStore.get().selection.nodes).toEqual(['filter_2']);
  });

  it('undoes and redoes add, connect, param edit and delete one step each', () => {
    dispatch(addNode, { kind: 'inlineSource', position: { x: 0, y: 0 } });
    dispatch(addNode, { kind: 'keyBy', position: { x: 300, y: 0 } });
    dispatch(connect, { from: { node: 'inlineSource_1', port: 'out' }, to: { node: 'keyBy_1', port: 'in' } });
    dispatch(setNodeParams, { id: 'keyBy_1', params: { key: ['user'] } });
    editorStore.set((s) => ({ ...s, selection: { nodes: ['inlineSource_1'], edges: [] } }));
    dispatch(deleteSelection, undefined);
    expect(doc().nodes).toHaveLength(1);
    expect(doc().edges).toHaveLength(0);
    undo();
    expect(doc().edges).toHaveLength(1);
    undo();
    expect(doc().nodes[1].params).toEqual({ key: ['id'] });
    undo();
    expect(doc().edges).toHaveLength(0);
    redo();
    redo();
    expect(doc().nodes[1].params).toEqual({ key: ['user'] });
  });

  it('folds a whole drag into one undo step', () => {
    dispatch(addNode, { kind: 'filter', position: { x: 0, y: 0 } });
    for (let x = 1; x <= 5; x++) dispatch(moveNodes, { positions: { filter_1: { x, y: 0 } }, done: false });
    dispatch(moveNodes, { positions: { filter_1: { x: 6, y: 0 } }, done: true });
    expect(doc().nodes[0].position).toEqual({ x: 6, y: 0 });
    undo();
    expect(doc().nodes[0].position).toEqual({ x: 0, y: 0 });
    redo();
    expect(doc().nodes[0].position).toEqual({ x: 6, y: 0 });
  });

  it('duplicates the selection with the edges among it, under new ids', () => {
    dispatch(addNode, { kind: 'inlineSource', position: { x: 0, y: 0 } });
    dispatch(addNode, { kind: 'filter', position: { x: 300, y: 0 } });
    dispatch(connect, { from: { node: 'inlineSource_1', port: 'out' }, to: { node: 'filter_1', port: 'in' } });
    editorStore.set((s) => ({ ...s, selection: { nodes: ['inlineSource_1', 'filter_1'], edges: [] } }));
    dispatch(duplicateSelection, undefined);
    expect(doc().nodes.map((n) => n.id)).toEqual(['inlineSource_1', 'filter_1', 'inlineSource_2', 'filter_2']);
    expect(doc().edges[1]).toEqual({ from: { node: 'inlineSource_2', port: 'out' }, to: { node: 'filter_2', port: 'in' } });
    expect(doc().nodes[3].position).toEqual({ x: 340, y: 40 });
  });
});
