import type { PipelineDocument, PipelineSettings } from '../../pipeline/document.ts';
import { edgeId } from '../../pipeline/document.ts';
import { register } from './registry.ts';
import type { Selection } from '../store/editorStore.ts';

/** The JSON tab and file import replace the whole document in one undoable step. */
export const replaceDocument = register<PipelineDocument>({
  name: 'replaceDocument',
  label: 'Edit pipeline JSON',
  perform(state, doc) {
    const ids = new Set(doc.nodes.map((n) => n.id));
    return { doc, selection: { nodes: state.selection.nodes.filter((id) => ids.has(id)), edges: [] }, commitToHistory: true, coalesceKey: 'json' };
  },
});

export const renamePipeline = register<string>({
  name: 'renamePipeline',
  label: 'Rename pipeline',
  perform: (state, name) => ({ doc: { ...state.doc, name }, commitToHistory: true, coalesceKey: 'name' }),
});

export const updateSettings = register<Partial<PipelineSettings>>({
  name: 'updateSettings',
  label: 'Change settings',
  perform(state, patch) {
    const settings: PipelineSettings = { ...state.doc.settings, ...patch };
    for (const k of Object.keys(settings) as (keyof PipelineSettings)[]) if (settings[k] === undefined) delete settings[k];
    return { doc: { ...state.doc, settings }, commitToHistory: true };
  },
});

export const applyPositions = register<Record<string, { x: number; y: number }>>({
  name: 'applyPositions',
  label: 'Auto-layout',
  perform(state, positions) {
    return { doc: { ...state.doc, nodes: state.doc.nodes.map((n) => (positions[n.id] ? { ...n, position: positions[n.id] } : n)) }, commitToHistory: true };
  },
});

export const setSelection = register<Selection>({
  name: 'setSelection',
  label: 'Select',
  perform: (_s, selection) => ({ selection, commitToHistory: false }),
});

export const selectAll = register<void>({
  name: 'selectAll',
  label: 'Select all',
  perform: (s) => ({ selection: { nodes: s.doc.nodes.map((n) => n.id), edges: s.doc.edges.map(edgeId) }, commitToHistory: false }),
});

export const describePipeline = register<string>({
  name: 'describePipeline',
  label: 'Describe pipeline',
  perform(state, text) {
    const { description: _old, ...rest } = state.doc;
    return { doc: text ? { ...rest, description: text } : rest, commitToHistory: true, coalesceKey: 'description' };
  },
});
