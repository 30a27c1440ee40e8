/**
 * Flink SQL export: a pipeline document → one runnable Flink SQL script (Flink 1.19+) and a
 * warning for everything SQL cannot express. Pure: no file system, no clock.
 */
import { compile } from '../../pipeline/compile.ts';
import type { Problem } from '../../pipeline/kindSpec.ts';
import type { JobPlan } from '../../pipeline/plan.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import type { ExportWarning } from './context.ts';
import type { Annotation } from './context.ts';
import { ExportContext, nodeAnnotation, relationOf } from './context.ts';
import type { PlanNode } from '../../pipeline/plan.ts';
import type { FlinkSqlExportOptions } from './options.ts';
import { effectiveSourceParams, sourceTable } from './sources.ts';
import type { TableDdl } from './sources.ts';
import { sinkSql } from './sinks.ts';
import { settingStatements } from './settings.ts';
import { operatorExports } from './operators/index.ts';
import { renderScript } from './script.ts';

export type { ExportWarning, FlinkSqlExportOptions };

export interface FlinkSqlExport {
  sql: string;
  warnings: ExportWarning[];
}

/** The document does not compile; `problems` says why, as `weir validate` would. */
export class FlinkSqlExportError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`the pipeline is not valid: ${problems.map((p) => `${p.target ?? '(document)'} ${p.field}: ${p.message}`).join('; ')}`);
  }
}

export function exportFlinkSql(doc: unknown, options: FlinkSqlExportOptions = {}): FlinkSqlExport {
  const { plan, problems } = compile(doc);
  if (!plan) throw new FlinkSqlExportError(problems);
  return exportPlan(plan, options);
}

/**
 * Flink needs the event-time column to be a TIMESTAMP; a source whose schema types it as a number
 * (inline rows without a schema, say) is re-inferred with that field typed `timestamp`, so every
 * downstream column derived from it gets the same SQL type.
 */
function withTimestampEventTime(plan: JobPlan): JobPlan {
  const patches = new Map<string, Record<string, string>>();
  for (const n of plan.nodes) {
    const fields = n.isSource ? n.outputs.out?.fields : null;
    const et = n.isSource ? effectiveSourceParams(n).eventTime?.field : undefined;
    if (fields && et && fields[et] && fields[et] !== 'timestamp') patches.set(n.id, { ...fields, [et]: 'timestamp' });
  }
  if (!patches.size) return plan;
  const doc: PipelineDocument = { ...plan.doc, nodes: plan.doc.nodes.map((n) => (patches.has(n.id) ? { ...n, params: { ...n.params, schema: patches.get(n.id) } } : n)) };
  return compile(doc).plan ?? plan;
}

/** Params an operator's SQL does not carry: keyBy keys, user code (with its declared schema), a lookup join's loadFirst. */
function annotationExtra(node: PlanNode, plan: JobPlan): Annotation {
  const p = node.params as Record<string, unknown>;
  if (node.kind === 'broadcastProcess') {
    // The SQL stub never reads the rules stream, so only the annotation remembers where it comes from.
    return { params: p, rules: plan.edges.find((e) => e.to.node === node.id && e.to.port === 'rules')?.from.node ?? null };
  }
  // SQL has no word for when a lookup join starts looking up; only the default goes unsaid.
  if (node.kind === 'lookupJoin' && p.loadFirst === false) return { loadFirst: false };
  if (node.kind === 'keyBy' || (node.spec.codeParams ?? []).some((c) => p[c] !== undefined)) return { params: p };
  // Element types and a row element's fields: Flink reads them off the column's ARRAY type, which a json field is not in the export.
  if (node.kind === 'unnest' && (p.types || p.elementFields)) return { params: { types: p.types, elementFields: p.elementFields } };
  const udafs = ((p.aggregates ?? []) as { fn: string; as: string; code?: string }[]).filter((c) => c.fn === 'udaf');
  return udafs.length ? { udafs: Object.fromEntries(udafs.map((c) => [c.as, c.code ?? ''])) } : {};
}

export function exportPlan(original: JobPlan, options: FlinkSqlExportOptions = {}): FlinkSqlExport {
  const plan = withTimestampEventTime(original);
  const cx = new ExportContext(plan, options);
  const settings = settingStatements(cx);
  const sources: TableDdl[] = [];
  for (const n of plan.nodes.filter((x) => x.isSource)) {
    const t = sourceTable(n, cx);
    if (t) sources.push(t);
  }
  for (const node of plan.nodes) {
    if (node.isSource || node.isSink) continue;
    const mapping = operatorExports[node.kind];
    const out = relationOf(node.id, node.outputs.out ?? { fields: null, eventTime: null, keyedBy: null, changelog: 'append', uniqueKey: null }, node);
    if (!mapping) {
      cx.warn(node.id, `operator kind "${node.kind}" has no Flink SQL mapping; it and everything after it are left out`);
      continue;
    }
    if (!out) {
      cx.warn(node.id, 'its output fields are unknown (a source without a schema, or code without a declared outputSchema upstream), so no SQL view can be written for it or after it');
      continue;
    }
    const views = mapping({ node, cx, out });
    if (!views) continue;
    views[views.length - 1].annotation = nodeAnnotation(node, plan.doc, annotationExtra(node, plan));
    cx.views.push(...views);
    cx.setRelation(node.id, 'out', out);
  }
  const sinks: TableDdl[] = [];
  const inserts: string[] = [];
  for (const n of plan.nodes.filter((x) => x.isSink)) {
    const s = sinkSql(n, cx);
    if (!s) continue;
    sinks.push(s.ddl);
    inserts.push(s.insert);
  }
  if (!inserts.length) cx.warn(null, 'no sink can be written, so the statement set is empty');
  return { sql: renderScript(cx, { settings, sources, sinks, inserts }), warnings: cx.warnings };
}
