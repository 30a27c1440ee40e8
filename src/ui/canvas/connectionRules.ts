import type { PipelineDocument, PortRef } from '../../pipeline/document.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import type { StreamInfo } from '../../core/streamInfo.ts';
import { t } from '../i18n/i18n.ts';
import { kindTitle } from '../i18n/kindText.ts';

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
  if (!a || !b) return { ok: false, reason: t('canvas.refuse.noPort') };
  if (a.dir === b.dir) return { ok: false, reason: a.dir === 'out' ? t('canvas.refuse.twoOutputs') : t('canvas.refuse.twoInputs') };
  const [outEnd, inEnd] = a.dir === 'out' ? [{ node: c.source, port: a.port }, { node: c.target, port: b.port }] : [{ node: c.target, port: b.port }, { node: c.source, port: a.port }];
  if (outEnd.node === inEnd.node) return { ok: false, reason: t('canvas.refuse.self') };
  const target = doc.nodes.find((n) => n.id === inEnd.node);
  const source = doc.nodes.find((n) => n.id === outEnd.node);
  const spec = target && kindSpec(target.kind);
  const port = spec?.inputs.find((p) => p.name === inEnd.port);
  if (!source || !target || !spec || !port) return { ok: false, reason: t('canvas.refuse.unknownPort') };
  if (doc.edges.some((e) => e.from.node === outEnd.node && e.from.port === outEnd.port && e.to.node === inEnd.node && e.to.port === inEnd.port)) {
    return { ok: false, reason: t('canvas.refuse.connected') };
  }
  if (!port.multiple && doc.edges.some((e) => e.to.node === inEnd.node && e.to.port === inEnd.port)) {
    return { ok: false, reason: t('canvas.refuse.taken', { port: inEnd.port, node: target.label ?? target.id }) };
  }
  if (reaches(doc, inEnd.node, outEnd.node)) return { ok: false, reason: t('canvas.refuse.cycle', { target: target.label ?? target.id, source: source.label ?? source.id }) };
  const info = streams[outEnd.node]?.outputs[outEnd.port];
  if (port.keyed && info && !info.keyedBy) {
    return { ok: false, reason: t('canvas.refuse.notKeyed', { port: inEnd.port, kind: kindTitle(spec), source: source.label ?? source.id }) };
  }
  const needs = info && streamNeed(doc, streams, target, inEnd.port, info);
  if (needs) {
    const args = { port: inEnd.port, kind: kindTitle(spec), source: source.label ?? source.id };
    if (needs === 'needs-append-only') return { ok: false, reason: t('canvas.refuse.updating', args) };
    return { ok: false, reason: t(info.changelog === 'update' ? 'canvas.refuse.updatingNoTime' : 'canvas.refuse.noEventTime', args) };
  }
  return { ok: true, from: outEnd, to: inEnd };
}

/** Codes of input problems that no parameter of the target can fix: only a different stream can. */
const STREAM_NEEDS = new Set(['no-event-time', 'updating-input-without-event-time', 'needs-append-only']);

/**
 * Asks the target's own kind spec what it would say of this stream on this port, so the refusal
 * comes at connection time and from the same rule validation uses later.
 */
function streamNeed(doc: PipelineDocument, streams: StreamsByNode, target: PipelineDocument['nodes'][number], port: string, info: StreamInfo): string | null {
  const spec = kindSpec(target.kind);
  if (!spec) return null;
  const inputLists: Record<string, StreamInfo[]> = { [port]: [info] };
  for (const e of doc.edges) {
    const s = e.to.node === target.id && e.to.port !== port ? streams[e.from.node]?.outputs[e.from.port] : undefined;
    if (s) inputLists[e.to.port] = [...(inputLists[e.to.port] ?? []), s];
  }
  const inputs = Object.fromEntries(Object.entries(inputLists).map(([k, v]) => [k, v[0]]));
  try {
    const r = spec.infer({ nodeId: target.id, params: (target.params ?? {}) as never, inputs, inputLists });
    return r.problems?.find((p) => p.field === `inputs.${port}` && STREAM_NEEDS.has(p.code))?.code ?? null;
  } catch {
    return null; // half-set params: validation reports them once connected
  }
}
