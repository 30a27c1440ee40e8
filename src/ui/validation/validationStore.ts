import { compile } from '../../pipeline/compile.ts';
import type { Problem } from '../../pipeline/kindSpec.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { createStore } from '../store/createStore.ts';
import { editorStore } from '../store/editorStore.ts';
import type { NodeStreams } from '../../pipeline/compile.ts';

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

/** True when the two documents differ at most in node positions (the node objects keep every other field). */
export function onlyPositionsDiffer(a: PipelineDocument, b: PipelineDocument): boolean {
  if (a.edges !== b.edges || a.nodes.length !== b.nodes.length || a.settings !== b.settings || a.format !== b.format || a.version !== b.version) return false;
  return a.nodes.every((n, i) => {
    const m = b.nodes[i];
    if (n === m) return true;
    const keys = new Set([...Object.keys(n), ...Object.keys(m)]);
    keys.delete('position');
    return [...keys].every((k) => (n as unknown as Record<string, unknown>)[k] === (m as unknown as Record<string, unknown>)[k]);
  });
}

export function validateNow(doc: PipelineDocument): Validation {
  const cur = validationStore.get();
  if (cur.doc === doc) return cur;
  // A drag changes positions only; compiling 200 nodes for each step would steal frames from it.
  if (cur.doc && onlyPositionsDiffer(cur.doc, doc)) {
    const v = { ...cur, doc };
    validationStore.set(v);
    return v;
  }
  const { problems, streams } = compile(doc);
  // Type problems of operators that no longer exist go with them.
  const ids = new Set(doc.nodes.map((n) => n.id));
  const typeProblems = cur.typeProblems.filter((p) => p.target && ids.has(p.target));
  const v = { doc, problems, byTarget: group([...problems, ...typeProblems]), streams, typeProblems };
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
