import { edgeId, type PipelineNode } from '../../pipeline/document.ts';
import type { Row } from '../../core/types.ts';
import type { Check, CheckInput } from './types.ts';

/** Small, pure building blocks the lesson catalog combines into step checks. */

export const nodeOf = (i: CheckInput, id: string): PipelineNode | undefined => i.doc.nodes.find((n) => n.id === id);
export const param = (i: CheckInput, id: string, name: string): unknown => nodeOf(i, id)?.params[name];

export const sinkRows = (i: CheckInput, sink: string): Row[] => i.snapshot?.sinks[sink]?.rows ?? [];
export const sinkTotal = (i: CheckInput, sink: string): number => i.snapshot?.sinks[sink]?.total ?? 0;

/** The sink has at least `n` rows now. */
export const sinkHasRows = (sink: string, n = 1): Check => (i) => sinkTotal(i, sink) >= n;

/** The run read records and reached the end. */
export const finished = (i: CheckInput): boolean => i.snapshot?.status === 'finished' && i.snapshot.records > 0;

/** Rows in the sink were updated, not only inserted: the view received a changelog. */
export const viewWasUpdated = (sink: string): Check => (i) => {
  const s = i.snapshot?.sinks[sink];
  return !!s && s.total > 0 && (s.changes > s.total || s.recent.some((r) => r.kind === '-U' || r.kind === '+U' || r.kind === '-D'));
};

/** A retraction (-D or -U) reached the sink or crossed any edge into it. */
export const sawRetraction = (sink: string): Check => (i) => {
  const s = i.snapshot?.sinks[sink];
  if (s?.recent.some((r) => r.kind === '-D' || r.kind === '-U')) return true;
  const into = new Set(i.doc.edges.filter((e) => e.to.node === sink).map(edgeId));
  return !!i.frame?.edges.some((e) => into.has(e.edge) && ((e.kinds['-D'] ?? 0) > 0 || (e.kinds['-U'] ?? 0) > 0));
};

export const nodeObs = (i: CheckInput, id: string) => i.frame?.nodes.find((n) => n.node === id);

/** Keyed state of a node holds at least `n` keys. */
export const stateKeysAtLeast = (id: string, n: number): Check => (i) => (nodeObs(i, id)?.keys ?? 0) >= n || (i.frame?.state?.node === id && i.frame.state.total >= n);

/** Late records counted by a node, from the frame or the run metrics. */
export const lateRecords = (i: CheckInput, id: string): number => Math.max(nodeObs(i, id)?.lateRecords ?? 0, i.snapshot?.metrics[id]?.counters.lateRecords ?? 0);

const norm = (s: unknown): string => String(s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
const num = (s: unknown): number => Number(String(s ?? '').replace(/[,\s$]/g, ''));

/**
 * The learner's answer names the row with the largest `measure` in the sink (ties: any of them),
 * by any of the `names` fields. Nothing to compare with yet means not passed.
 */
export const answerIsTopRow = (sink: string, measure: string, names: string[]): Check => (i) => {
  const rows = sinkRows(i, sink).filter((r) => typeof r[measure] === 'number');
  if (!rows.length || !i.answer.trim()) return false;
  const best = Math.max(...rows.map((r) => r[measure] as number));
  return rows.filter((r) => r[measure] === best).some((r) => names.some((f) => norm(r[f]) === norm(i.answer)));
};

/** The answer is a number equal to `expected(i)` within `tolerance` (absolute). */
export const answerEquals = (expected: (i: CheckInput) => number | null, tolerance = 0.01): Check => (i) => {
  const want = expected(i);
  const got = num(i.answer);
  return want !== null && i.answer.trim() !== '' && Number.isFinite(got) && Math.abs(got - want) <= tolerance;
};

/** The value of `field` in the sink row whose `keyField` equals `key` (case and spaces ignored). */
export const viewValue = (i: CheckInput, sink: string, keyField: string, key: string, field: string): number | null => {
  const row = sinkRows(i, sink).find((r) => norm(r[keyField]) === norm(key));
  return typeof row?.[field] === 'number' ? (row[field] as number) : null;
};

/**
 * Exactly-once over a sequence stream: per key, `n` rows were counted and the highest sequence
 * number is `n` (a duplicate makes n exceed it, a loss makes it fall short), and all counts add
 * up to what the source produced.
 */
export const countedExactlyOnce = (sink: string, countField: string, maxSeqField: string, expectedTotal: number): Check => (i) => {
  const rows = sinkRows(i, sink);
  if (!rows.length || (i.snapshot?.sinks[sink]?.total ?? 0) !== rows.length) return false;
  const total = rows.reduce((s, r) => s + Number(r[countField] ?? 0), 0);
  return total === expectedTotal && rows.every((r) => r[countField] === r[maxSeqField]);
};

/** Keys per subtask seen for a node run with `parallelism` subtasks: every subtask got some. */
export const keysSpreadOver = (id: string, parallelism: number): Check => (i) => {
  const keys = i.events.spread[id]?.[parallelism];
  return !!keys && keys.length === parallelism && keys.every((k) => k > 0);
};

/** A run with TTL set peaked at fewer keys than a run without it. */
export const ttlKeptStateSmaller = (id: string): Check => (i) => {
  const none = i.events.peakKeys[`${id}|none`];
  const withTtl = Object.entries(i.events.peakKeys).filter(([k]) => k.startsWith(`${id}|`) && k !== `${id}|none`).map(([, v]) => v);
  return none !== undefined && withTtl.length > 0 && Math.min(...withTtl) < none;
};

export const all = (...checks: Check[]): Check => (i) => checks.every((c) => c(i));
