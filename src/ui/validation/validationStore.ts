import { compile } from '../../pipeline/compile.ts';
import type { Problem } from '../../pipeline/kindSpec.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { createStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import { inferStreams } from './inferStreams.ts';
import type { NodeStreams } from './inferStreams.ts';

export interface Validation {
  doc: PipelineDocument | null;
  problems: Problem[];
  byTarget: Map<string, Problem[]>;
  streams: Record<string, NodeStreams>;
  /** UDF type errors from Monaco, by node id; they block a run like compile problems do. */
  typeProblems: Problem[];
}

const EMPTY: Problem[] = [];

export const validationStore = createStore<Validation>({ doc: null, problems: [], byTarget: new Map(), streams: {}, typeProblems: [] });

function group(problems: Problem[]): Map<string, Problem[]> {
  const m = new Map<string, Problem[]>();
  for (const p of problems) m.set(p.target ?? '', [...(m.get(p.target ?? '') ?? []), p]);
  return m;
}

export function validateNow(doc: PipelineDocument): Validation {
  const cur = validationStore.get();
  if (cur.doc === doc) return cur;
  const problems = compile(doc).problems;
  // Type problems of operators that no longer exist go with them.
  const ids = new Set(doc.nodes.map((n) => n.id));
  const typeProblems = cur.typeProblems.filter((p) => p.target && ids.has(p.target));
  const v = { doc, problems, byTarget: group([...problems, ...typeProblems]), streams: inferStreams(doc), typeProblems };
  validationStore.set(v);
  return v;
}

export function setTypeProblems(typeProblems: Problem[]): void {
  validationStore.set((v) => ({ ...v, typeProblems, byTarget: group([...v.problems, ...typeProblems]) }));
}

/** The editor of one code param reports its own diagnostics as you type. */
export function setSiteTypeProblems(nodeId: string, field: string, mine: Problem[]): void {
  const rest = validationStore.get().typeProblems.filter((p) => !(p.target === nodeId && p.field === field));
  setTypeProblems([...rest, ...mine]);
}

export const problemsFor = (v: Validation, id: string): Problem[] => v.byTarget.get(id) ?? EMPTY;

/** Validation follows the document with a short debounce, so typing stays smooth. */
export function startValidation(delayMs = 150): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  validateNow(editorStore.get().doc);
  return editorStore.subscribe(() => {
    if (validationStore.get().doc === editorStore.get().doc) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => validateNow(editorStore.get().doc), delayMs);
  });
}
