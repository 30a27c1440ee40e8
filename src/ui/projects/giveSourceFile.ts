import type { FileSample } from '../../engine/formats/fileSample.ts';
import { SAMPLE_BYTES, sampleFile } from '../../engine/formats/fileSample.ts';
import { dispatch, register } from '../actions/registry.ts';
import { setNodeParams } from '../actions/nodeActions.ts';
import { createStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { putSourceFile } from './sourceFiles.ts';

/** Files whose inferred types wait for the person's confirmation in the source's form, by node id. */
export const pendingSamples = createStore<Record<string, FileSample & { name: string }>>({});

/** Names that are data files rather than pipeline documents. */
const DATA_FILE = /\.(csv|tsv|jsonl|ndjson|txt)$/i;

/** Whether a dropped file is data (CSV, JSON Lines, a JSON array) rather than a pipeline document. */
export async function isDataFile(file: File): Promise<boolean> {
  if (DATA_FILE.test(file.name)) return true;
  if (!/\.json$/i.test(file.name)) return false;
  return (await file.slice(0, 4096).text()).trimStart().startsWith('[');
}

/**
 * Gives `file` to file source `nodeId`: keeps it (IndexedDB), reads its first 256 KB to infer the
 * format and types, sets them on the node and leaves them for confirmation in its form.
 * Only the sample is read here; the run reads the file in blocks.
 */
export async function giveSourceFile(nodeId: string, file: File): Promise<FileSample> {
  await putSourceFile(editorStore.get().projectId, nodeId, file, file.name, file.lastModified);
  const sample = sampleFile(file.name, await file.slice(0, SAMPLE_BYTES).text(), file.size <= SAMPLE_BYTES);
  const node = editorStore.get().doc.nodes.find((n) => n.id === nodeId);
  if (!node) return sample;
  const { path: _p, format: _f, delimiter: _d, schema: _s, eventTime: prev, ...rest } = node.params as Record<string, unknown>;
  const delay = (prev as { maxOutOfOrdernessMs?: number } | undefined)?.maxOutOfOrdernessMs ?? 0;
  const params = {
    ...rest,
    path: file.name,
    format: sample.format,
    ...(sample.delimiter ? { delimiter: sample.delimiter } : {}),
    schema: sample.schema,
    ...(sample.timeField ? { eventTime: { field: sample.timeField, maxOutOfOrdernessMs: delay } } : {}),
  };
  dispatch(setNodeParams, { id: nodeId, params });
  pendingSamples.set((m) => ({ ...m, [nodeId]: { ...sample, name: file.name } }));
  return sample;
}

/** A source dropped onto becomes a file source in place: same id, position and edges. */
export const becomeFileSource = register<{ id: string }>({
  name: 'becomeFileSource',
  label: 'Read a file',
  perform(state, { id }) {
    const node = state.doc.nodes.find((n) => n.id === id);
    if (!node || node.kind === 'fileSource') return null;
    const keep = (node.params as { eventTime?: unknown }).eventTime;
    return {
      doc: { ...state.doc, nodes: state.doc.nodes.map((n) => (n.id === id ? { ...n, kind: 'fileSource', params: keep ? { eventTime: keep } : {} } : n)) },
      selection: { nodes: [id], edges: [] },
      commitToHistory: true,
    };
  },
});
