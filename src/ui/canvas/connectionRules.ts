import type { PipelineDocument, PortRef } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { StreamInfo } from '../../pipeline/streamInfo.ts';

/** A candidate connection as React Flow reports it: handle ids are port names. */
export interface Candidate {
  source: string;
  sourceHandle: string | null;
  target: string;
  targetHandle: string | null;
}

/** Handle ids carry the direction so that Loose connection mode can report "wrong direction". */
export const handleId = (dir: 'in' | 'out', port: string): string => `${dir}:${port}`;
export const parseHandle = (h: string | null | undefined): { dir: 'in' | 'out'; port: string } | null => {
  const m = /^(in|out):(.*)$/.exec(h ?? '');
  return m ? { dir: m[1] as 'in' | 'out', port: m[2] } : null;
};

/** Output streams per node, from the last stream inference. */
export type StreamsByNode = Record<string, { outputs: Record<string, StreamInfo> }>;

function reaches(doc: PipelineDocument, from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of doc.edges) next.set(e.from.node, [...(next.get(e.from.node) ?? []), e.to.node]);
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(next.get(id) ?? []));
  }
  return false;
}

/**
 * Orders a candidate into (output → input) and says why it is refused, or returns the edge.
 * Every refusal is a sentence a person can act on.
 */
export function checkConnection(doc: PipelineDocument, streams: StreamsByNode, c: Candidate): { ok: true; from: PortRef; to: PortRef } | { ok: false; reason: string } {
  const a = parseHandle(c.sourceHandle);
  const b = parseHandle(c.targetHandle);
  if (!a || !b) return { ok: false, reason: 'Drop the connection on a port.' };
  if (a.dir === b.dir) return { ok: false, reason: a.dir === 'out' ? 'Both ends are outputs: connect an output (right) to an input (left).' : 'Both ends are inputs: connect an output (right) to an input (left).' };
  const [outEnd, inEnd] = a.dir === 'out' ? [{ node: c.source, port: a.port }, { node: c.target, port: b.port }] : [{ node: c.target, port: b.port }, { node: c.source, port: a.port }];
  if (outEnd.node === inEnd.node) return { ok: false, reason: 'An operator cannot feed itself.' };
  const target = doc.nodes.find((n) => n.id === inEnd.node);
  const source = doc.nodes.find((n) => n.id === outEnd.node);
  const spec = target && kindSpec(target.kind);
  const port = spec?.inputs.find((p) => p.name === inEnd.port);
  if (!source || !target || !spec || !port) return { ok: false, reason: 'Unknown port.' };
  if (doc.edges.some((e) => e.from.node === outEnd.node && e.from.port === outEnd.port && e.to.node === inEnd.node && e.to.port === inEnd.port)) {
    return { ok: false, reason: 'These ports are already connected.' };
  }
  if (!port.multiple && doc.edges.some((e) => e.to.node === inEnd.node && e.to.port === inEnd.port)) {
    return { ok: false, reason: `Input "${inEnd.port}" of ${target.label ?? target.id} takes one stream and already has one. Use a Union to merge streams.` };
  }
  if (reaches(doc, inEnd.node, outEnd.node)) return { ok: false, reason: `That would make a cycle: ${target.label ?? target.id} already feeds ${source.label ?? source.id}. Streams must flow one way.` };
  const info = streams[outEnd.node]?.outputs[outEnd.port];
  if (port.keyed && info && !info.keyedBy) {
    return { ok: false, reason: `Input "${inEnd.port}" of ${spec.title} needs a keyed stream, and ${source.label ?? source.id} is not keyed. Put a Key by in between.` };
  }
  return { ok: true, from: outEnd, to: inEnd };
}
