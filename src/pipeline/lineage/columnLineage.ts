import { compile } from '../compile.ts';
import type { NodeStreams } from '../compile.ts';
import type { PipelineDocument, PipelineEdge } from '../document.ts';
import { edgeId } from '../document.ts';
import { kindSpec } from '../kinds/index.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import { unknownStream } from '../../core/streamInfo.ts';
import { defaultLineage } from './derive.ts';
import type { Derivation, PortLineage } from './types.ts';

/**
 * A column of one node: a column of one of its output ports, or, for a sink (which has no outputs),
 * a column of the table it holds, named by the sink's input port.
 */
export interface ColumnRef {
  node: string;
  port: string;
  column: string;
}

/** One column and how its node made it, with the upstream columns it reads (through which edges). */
export interface LineageStep {
  ref: ColumnRef;
  derivation: Derivation;
  inputs: { ref: ColumnRef; edge: string }[];
}

/** Every column of every node that could be analysed, linked both ways. */
export interface ColumnGraph {
  steps: Map<string, LineageStep>;
  /** For each column, the columns one step downstream that read it. */
  readers: Map<string, { ref: ColumnRef; edge: string }[]>;
}

export const refKey = (r: ColumnRef): string => `${r.node}\u0000${r.port}\u0000${r.column}`;

/**
 * Builds the column graph of a document from the streams the compiler inferred (the same inference that
 * validates it), and the lineage function of each kind. A document with problems still gets a graph for
 * every node the compiler could analyse.
 */
export function columnGraph(doc: PipelineDocument, streams: Record<string, NodeStreams> = compile(doc).streams): ColumnGraph {
  const steps = new Map<string, LineageStep>();
  const readers = new Map<string, { ref: ColumnRef; edge: string }[]>();
  const into = new Map<string, PipelineEdge[]>();
  for (const e of doc.edges) {
    if (!streams[e.from.node]?.outputs[e.from.port]) continue;
    const k = `${e.to.node}\u0000${e.to.port}`;
    into.set(k, [...(into.get(k) ?? []), e]);
  }
  for (const n of doc.nodes) {
    const spec = kindSpec(n.kind);
    const s = streams[n.id];
    if (!spec || !s) continue;
    const inputs: Record<string, StreamInfo[]> = {};
    for (const p of spec.inputs) {
      const edges = into.get(`${n.id}\u0000${p.name}`) ?? [];
      if (edges.length) inputs[p.name] = edges.map((e) => streams[e.from.node]?.outputs[e.from.port] ?? unknownStream());
    }
    const isSink = spec.group === 'sinks';
    // A sink's table is its input stream; its "columns" are the rows it holds.
    const outputs = isSink ? Object.fromEntries(Object.entries(inputs).map(([p, l]) => [p, l[0]])) : s.outputs;
    const args = { params: n.params, inputs, outputs };
    let lineage: Record<string, PortLineage>;
    try {
      lineage = spec.lineage && !isSink ? spec.lineage(args) : defaultLineage(args, spec.group === 'sources');
    } catch {
      // Params too broken to analyse are reported by validation; their columns stay unexplained rather than guessed.
      lineage = {};
    }
    for (const [port, cols] of Object.entries(lineage)) {
      for (const [column, derivation] of Object.entries(cols)) {
        const ref = { node: n.id, port, column };
        const ins = derivation.from.flatMap((c) => {
          const e = (into.get(`${n.id}\u0000${c.port}`) ?? [])[c.edge ?? 0];
          return e ? [{ ref: { node: e.from.node, port: e.from.port, column: c.column }, edge: edgeId(e) }] : [];
        });
        steps.set(refKey(ref), { ref, derivation, inputs: ins });
        for (const i of ins) readers.set(refKey(i.ref), [...(readers.get(refKey(i.ref)) ?? []), { ref, edge: i.edge }]);
      }
    }
  }
  return { steps, readers };
}

/** The columns of one node, by port, in the order the streams list them. */
export function nodeColumns(graph: ColumnGraph, node: string): ColumnRef[] {
  return [...graph.steps.values()].filter((s) => s.ref.node === node).map((s) => s.ref);
}

export interface LineageTrace {
  root: ColumnRef;
  /** The root's own step and every step upstream of it: what the column came from. */
  upstream: LineageStep[];
  /** Every step downstream that reads the root, directly or through other columns: where it goes. */
  downstream: LineageStep[];
  /** Nodes the column passed through, either way. */
  nodes: Set<string>;
  /** Edges it travelled along, either way. */
  edges: Set<string>;
}

function walk(graph: ColumnGraph, start: ColumnRef, next: (s: LineageStep) => { ref: ColumnRef; edge: string }[], edges: Set<string>): LineageStep[] {
  const seen = new Set<string>([refKey(start)]);
  const out: LineageStep[] = [];
  const queue = [start];
  while (queue.length) {
    const step = graph.steps.get(refKey(queue.shift()!));
    if (!step) continue;
    out.push(step);
    for (const n of next(step)) {
      edges.add(n.edge);
      if (seen.has(refKey(n.ref))) continue;
      seen.add(refKey(n.ref));
      queue.push(n.ref);
    }
  }
  return out;
}

/**
 * Backward: everything the column came from, step by step to the sources. Forward: every column computed
 * from it, to the sinks. The root's own step is the first upstream step.
 */
export function traceColumn(graph: ColumnGraph, root: ColumnRef): LineageTrace | null {
  if (!graph.steps.has(refKey(root))) return null;
  const edges = new Set<string>();
  const upstream = walk(graph, root, (s) => s.inputs, edges);
  const downstream = walk(graph, root, (s) => graph.readers.get(refKey(s.ref)) ?? [], edges).slice(1);
  const nodes = new Set([...upstream, ...downstream].map((s) => s.ref.node));
  return { root, upstream, downstream, nodes, edges };
}
