/**
 * Flink SQL → a pipeline document, read with dt-sql-parser's FlinkSQL grammar (the one the
 * export's check uses) and planned the way Flink's planner reads a script. Pure: no file system.
 *
 * API
 *   planFlinkSql(sql, name?) → {
 *     doc: PipelineDocument | null,            // null when there are errors
 *     spans: Record<nodeId, SqlSpan>,          // {line, column, endLine, endColumn}, 1-based, per node
 *     problems: { line, column, endLine, endColumn, severity: 'error' | 'warning', construct, message }[],
 *     catalog: { name, kind: 'table' | 'view', columns: { name, type }[] }[],   // for completion
 *   }
 *   importFlinkSql(sql, name?)           → { ok, doc, warnings } | { ok: false, errors, warnings } (sync; depth layout)
 *   importFlinkSqlLaidOut(sql, name?)    → the same, placed with the canvas's elkjs auto-layout (async)
 * Scripts Weir's exporter wrote are planned the same way; their `-- @weir {…}` annotations add what
 * SQL cannot say (source data, user code, keyBy keys, labels, canvas positions) and pick, among
 * equivalent plans, the nodes the exported pipeline had.
 */
import { compile } from '../../pipeline/compile.ts';
import { autoLayout } from '../../pipeline/autoLayout.ts';
import type { PipelineDocument, PipelineEdge } from '../../pipeline/document.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION } from '../../pipeline/document.ts';
import type { SqlSpan } from '../../export/flinkSql/verify/parseTree.ts';
import { parseScript } from '../../export/flinkSql/verify/statementTrees.ts';
import type { ImportProblem, ImportWarning } from './errors.ts';
import { prepass } from './plan/prepass.ts';
import { planScript } from './plan/script.ts';
import type { ScriptPlan } from './plan/script.ts';
import { depthLayout, layoutDocument } from './plan/layout.ts';
import { syntaxProblems } from './syntaxProblems.ts';

export type { ImportProblem, ImportWarning, SqlSpan };

export type FlinkSqlImport = { ok: true; doc: PipelineDocument; warnings: ImportWarning[]; spans?: Record<string, SqlSpan> } | { ok: false; errors: ImportProblem[]; warnings: ImportWarning[] };

export interface SqlProblem extends SqlSpan {
  severity: 'error' | 'warning';
  construct: string;
  message: string;
}

export interface FlinkSqlPlan {
  doc: PipelineDocument | null;
  spans: Record<string, SqlSpan>;
  problems: SqlProblem[];
  catalog: ScriptPlan['catalog'];
}

const point = (line: number, column: number): SqlSpan => ({ line, column, endLine: line, endColumn: column + 1 });

export function planFlinkSql(sql: string, fallbackName = 'imported from Flink SQL'): FlinkSqlPlan {
  const prep = prepass(sql);
  const problems: SqlProblem[] = prep.problems.map((p) => ({ ...point(p.line, p.column), severity: p.severity, construct: p.construct, message: p.message }));
  const fatal = () => problems.some((p) => p.severity === 'error');
  if (fatal()) return { doc: null, spans: {}, problems, catalog: [] };
  const { tree, errors } = parseScript(prep.text);
  if (!tree) {
    for (const p of syntaxProblems(prep.text, errors)) problems.push({ ...p, severity: 'error' });
    return { doc: null, spans: {}, problems, catalog: [] };
  }
  const plan = planScript(prep, tree);
  for (const e of plan.errors) problems.push({ ...point(e.line, e.column), severity: 'error', construct: e.construct, message: e.detail });
  for (const w of plan.warnings) problems.push({ ...point(w.line, w.column), severity: 'warning', construct: 'warning', message: w.message });
  const spans = Object.fromEntries(plan.graph.nodes.map((n) => [n.id, n.span]));
  if (fatal()) return { doc: null, spans, problems: sorted(problems), catalog: plan.catalog };
  if (!plan.graph.nodes.some((n) => /Sink$/.test(n.kind))) {
    problems.push({ ...point(1, 1), severity: 'error', construct: 'script', message: 'nothing is written: add an INSERT INTO a table (or a SELECT) so the pipeline has a sink' });
    return { doc: null, spans, problems, catalog: plan.catalog };
  }
  const header = prep.annotations.get(0);
  const edges: PipelineEdge[] = plan.graph.nodes.flatMap((n) => n.inputs.map(([port, from]) => ({ from: { node: from, port: 'out' }, to: { node: n.id, port } })));
  const pos = depthLayout(plan.graph.nodes, edges);
  const annotated = new Map<string, Record<string, unknown>>();
  for (const [line, a] of prep.annotations) {
    const id = typeof a.node === 'string' ? a.node : plan.graph.nodes.find((n) => n.span.line === line + 0 || n.span.line === line)?.id;
    if (line > 0 && id) annotated.set(id, a);
  }
  const doc: PipelineDocument = {
    format: PIPELINE_FORMAT,
    version: PIPELINE_VERSION,
    name: (header?.pipeline as string | undefined) ?? plan.name ?? fallbackName,
    ...(typeof header?.description === 'string' ? { description: header.description } : {}),
    settings: plan.settings,
    nodes: plan.graph.nodes.map((n) => {
      const a = annotated.get(n.id);
      return {
        id: n.id,
        kind: n.kind,
        ...(typeof a?.label === 'string' ? { label: a.label } : {}),
        params: n.params,
        position: (a?.position as { x: number; y: number } | undefined) ?? pos.get(n.id)!,
        origin: { sql: n.span },
      };
    }),
    edges,
    origin: { sql },
  };
  for (const p of compile(doc).problems) {
    const at = (p.target && spans[p.target]) || point(1, 1);
    // A function still to be written is the user's next step on the canvas: the script imports, and
    // the document's validation keeps it from running until the node's code is written.
    const severity = p.code === 'unwritten-function' ? 'warning' : 'error';
    const where = severity === 'warning' && p.target ? `node \`${p.target}\` ` : '';
    problems.push({ ...at, severity, construct: p.target ? `node \`${p.target}\`` : 'pipeline', message: `${where}${p.field ? `${p.field}: ` : ''}${p.message}` });
  }
  return { doc: fatal() ? null : doc, spans, problems: sorted(problems), catalog: plan.catalog };
}

const sorted = (ps: SqlProblem[]): SqlProblem[] => [...ps].sort((a, b) => a.line - b.line || a.column - b.column);

function toImport(p: FlinkSqlPlan): FlinkSqlImport {
  const warnings = p.problems.filter((x) => x.severity === 'warning').map((w) => ({ line: w.line, message: w.message }));
  if (!p.doc) return { ok: false, errors: p.problems.filter((x) => x.severity === 'error').map((e) => ({ line: e.line, column: e.column, construct: e.construct, message: e.message })), warnings };
  return { ok: true, doc: p.doc, warnings, spans: p.spans };
}

export function importFlinkSql(sql: string, fallbackName = 'imported from Flink SQL'): FlinkSqlImport {
  return toImport(planFlinkSql(sql, fallbackName));
}

/** As importFlinkSql, with the canvas's elkjs layout for every node the script does not place itself. */
export async function importFlinkSqlLaidOut(sql: string, fallbackName?: string): Promise<FlinkSqlImport> {
  const r = importFlinkSql(sql, fallbackName);
  if (!r.ok) return r;
  const placed = new Set([...prepass(sql).annotations.values()].filter((a) => typeof a.node === 'string' && a.position).map((a) => a.node as string));
  if (r.doc.nodes.every((n) => placed.has(n.id))) return r;
  return { ...r, doc: await layoutDocument(r.doc, placed, (d) => autoLayout(d)) };
}
