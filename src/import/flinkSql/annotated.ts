/**
 * Scripts that `weir export --to flink-sql` wrote (they open with its document annotation) → a
 * pipeline document. SQL gives
 * the structure (tables, views, joins, windows, expressions); `-- @weir` annotations give what SQL
 * cannot (source data, user code, keyBy keys, labels, canvas positions). Anything outside the
 * subset is an error with its line, column and construct. Pure: no file system.
 */
import { compile } from '../../pipeline/compile.ts';
import type { PipelineDocument, PipelineEdge, PipelineNode, PipelineSettings } from '../../pipeline/document.ts';
import { PIPELINE_FORMAT, PIPELINE_VERSION } from '../../pipeline/document.ts';
import { ImportError, toProblem } from './errors.ts';
import type { ImportProblem } from './errors.ts';
import type { FlinkSqlImport } from './index.ts';
import type { Annotation, ImportedNode } from './context.ts';
import { fail, ImportContext } from './context.ts';
import { parseScript } from './statements.ts';
import type { Statement } from './statements.ts';
import { sinkNode, sourceNode, tableColumns, applySetting } from './tables.ts';
import { viewColumns, viewNode } from './views.ts';
import { expectColumnsOf } from './sinkQuery.ts';
import { depthLayout } from './plan/layout.ts';



type CreateTable = Extract<Statement, { kind: 'createTable' }>;

export function importAnnotatedScript(sql: string, fallbackName = 'imported from Flink SQL'): FlinkSqlImport {
  const script = parseScript(sql);
  const cx = new ImportContext(sql);
  const errors: ImportError[] = [...script.errors];
  const header = script.annotations.get(0) ?? null;
  cx.annotated = header !== null;
  const settings: PipelineSettings = { checkpoint: { intervalMs: null }, ...((header?.settings as PipelineSettings | undefined) ?? {}) };
  const docInfo: { name?: string } = {};
  const targets = new Set(script.statements.filter((s) => s.kind === 'insert').map((s) => (s as { target: string }).target));
  const sinkTables = new Map<string, CreateTable>();
  const helpers = new Map<string, string>();
  const nodes: ImportedNode[] = [];
  const lines = new Map<string, number>();
  for (const s of script.statements) {
    const ann: Annotation | null = script.annotations.get(s.tok.line) ?? null;
    try {
      if (s.kind === 'set') applySetting(cx, s, settings, docInfo);
      else if (s.kind === 'createFunction') cx.functions.set(s.name, s.className);
      else if (s.kind === 'createTable') {
        if (cx.relations.has(s.name) || sinkTables.has(s.name)) fail(s.tok, 'CREATE TABLE', `\`${s.name}\` is defined twice`);
        if (targets.has(s.name)) sinkTables.set(s.name, s);
        else {
          nodes.push(sourceNode(cx, s, ann));
          cx.relations.set(s.name, { name: s.name, columns: tableColumns(s).map((c) => c.name), node: s.name });
        }
      } else if (s.kind === 'createView') {
        if (cx.relations.has(s.name)) fail(s.tok, 'CREATE VIEW', `\`${s.name}\` is defined twice`);
        const node = viewNode(cx, s.name, s.query, ann, helpers);
        const columns = viewColumns(s.query);
        // The export's versions view for a temporal join has no annotation and is named `<join>_versions`.
        if (!ann && node.kind === 'dedup' && s.name.endsWith('_versions') && node.params.keep === 'last' && node.params.order === 'eventTime') {
          const input = cx.relations.get(node.inputs[0][1])!;
          helpers.set(s.name, input.name);
          cx.relations.set(s.name, { name: s.name, columns, node: input.node });
        } else {
          nodes.push(node);
          cx.relations.set(s.name, { name: s.name, columns, node: s.name });
        }
      } else {
        const table = sinkTables.get(s.target) ?? fail(s.tok, 'INSERT INTO', `\`${s.target}\` is not a table created above`);
        if (nodes.some((n) => n.id === s.target)) fail(s.tok, 'INSERT INTO', `a second INSERT INTO \`${s.target}\`: put a UNION ALL view in front of the sink instead`);
        const from = expectColumnsOf(cx, s.query, tableColumns(table).map((c) => c.name));
        nodes.push(sinkNode(table, script.annotations.get(table.tok.line) ?? null, from));
      }
      for (const n of nodes) if (!lines.has(n.id)) lines.set(n.id, s.tok.line);
    } catch (e) {
      if (!(e instanceof ImportError)) throw e;
      errors.push(e);
    }
  }
  if (errors.length) return { ok: false, errors: errors.map(toProblem).sort((a, b) => a.line - b.line || a.column - b.column), warnings: cx.warnings };

  const edges: PipelineEdge[] = nodes.flatMap((n) => n.inputs.map(([port, rel]) => ({ from: { node: cx.relations.get(rel)!.node, port: 'out' }, to: { node: n.id, port } })));
  const auto = depthLayout(nodes, edges);
  const docNodes: PipelineNode[] = nodes.map((n) => ({
    id: n.id,
    kind: n.kind,
    ...(typeof n.annotation?.label === 'string' ? { label: n.annotation.label } : {}),
    params: n.params,
    position: (n.annotation?.position as { x: number; y: number } | undefined) ?? auto.get(n.id)!,
  }));
  const doc: PipelineDocument = {
    format: PIPELINE_FORMAT,
    version: PIPELINE_VERSION,
    name: (header?.pipeline as string | undefined) ?? docInfo.name ?? fallbackName,
    ...(typeof header?.description === 'string' ? { description: header.description } : {}),
    settings,
    nodes: docNodes,
    edges,
  };
  const { problems } = compile(doc);
  if (problems.length) {
    return {
      ok: false,
      errors: problems.map((p) => ({ line: (p.target && lines.get(p.target)) || 1, column: 1, construct: p.target ? `\`${p.target}\`` : 'pipeline', message: `${p.field ? `${p.field}: ` : ''}${p.message}` })),
      warnings: cx.warnings,
    };
  }
  return { ok: true, doc, warnings: cx.warnings };
}
