import { createStore } from '../store/createStore.ts';
import { validationStore } from '../validation/validationStore.ts';
import type { Validation } from '../validation/validationStore.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { columnGraph, refKey, traceColumn } from '../../pipeline/lineage/columnLineage.ts';
import type { ColumnGraph, ColumnRef, LineageStep, LineageTrace } from '../../pipeline/lineage/columnLineage.ts';

/** The steps of a trace that happen at one node: how it made the traced columns (upstream) or what it made of them (downstream). */
export interface NodeLineage {
  steps: LineageStep[];
  /** The selected column is one of this node's. */
  root: boolean;
}

export interface LineageState {
  selected: ColumnRef | null;
  trace: LineageTrace | null;
  byNode: Map<string, NodeLineage>;
}

const EMPTY: LineageState = { selected: null, trace: null, byNode: new Map() };

/** The column whose lineage the canvas shows, and its trace over the current document. */
export const lineageStore = createStore<LineageState>(EMPTY);

let cached: { streams: Validation['streams']; doc: PipelineDocument; graph: ColumnGraph } | null = null;
function graphOf(v: Validation): ColumnGraph | null {
  if (!v.doc) return null;
  if (cached && cached.doc === v.doc && cached.streams === v.streams) return cached.graph;
  cached = { doc: v.doc, streams: v.streams, graph: columnGraph(v.doc, v.streams) };
  return cached.graph;
}

/** The column graph of the document validation last saw, built once per document. */
export const currentGraph = (): ColumnGraph | null => graphOf(validationStore.get());

function stateFor(ref: ColumnRef): LineageState {
  const graph = graphOf(validationStore.get());
  const trace = graph ? traceColumn(graph, ref) : null;
  if (!trace) return EMPTY;
  const byNode = new Map<string, NodeLineage>();
  for (const s of [...trace.upstream, ...trace.downstream]) {
    const n = byNode.get(s.ref.node) ?? { steps: [], root: s.ref.node === ref.node };
    n.steps.push(s);
    byNode.set(s.ref.node, n);
  }
  return { selected: ref, trace, byNode };
}

let unsubscribe: (() => void) | null = null;

/** Highlights where a column comes from and where it goes. Selecting the shown column again clears it. */
export function showLineage(ref: ColumnRef): void {
  const cur = lineageStore.get().selected;
  if (cur && refKey(cur) === refKey(ref)) return clearLineage();
  lineageStore.set(stateFor(ref));
  // Edits re-trace the column; when it is gone from the document, the highlight goes with it.
  unsubscribe ??= validationStore.subscribe(() => {
    const sel = lineageStore.get().selected;
    if (sel) lineageStore.set(stateFor(sel));
  });
}

export function clearLineage(): void {
  lineageStore.set(EMPTY);
}

export const lineageActive = (): boolean => lineageStore.get().selected !== null;

/** A sink's table columns are named by the port its rows arrive on. */
export function sinkColumn(doc: PipelineDocument, sink: string, column: string): ColumnRef {
  const n = doc.nodes.find((x) => x.id === sink);
  const port = (n && kindSpec(n.kind)?.inputs[0]?.name) ?? 'in';
  return { node: sink, port, column };
}

export const isSelected = (s: LineageState, ref: ColumnRef): boolean => s.selected !== null && refKey(s.selected) === refKey(ref);
