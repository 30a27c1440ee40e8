/**
 * Semantic check of an exported script: every table, view, function and column a statement
 * references must resolve — against what earlier statements defined — and the tables and views
 * named after pipeline nodes must have exactly the columns the pipeline infers for them.
 */
import type { JobPlan } from '../../../pipeline/plan.ts';
import type { ExportWarning } from '../context.ts';
import type { NameRef, StatementFacts } from './sqlFacts.ts';
import { readScript } from './sqlFacts.ts';

const WINDOW_COLUMNS = ['window_start', 'window_end', 'window_time'];

interface Catalog {
  tables: Map<string, { columns: string[]; kind: 'table' | 'view' }>;
  functions: Set<string>;
}

const where = (r: NameRef): string => `line ${r.line}, column ${r.column}`;

/** Problems with the names of one statement, after which its definitions join the catalog. */
function resolveStatement(s: StatementFacts, cat: Catalog): string[] {
  const problems: string[] = [];
  if (s.kind === 'createFunction') {
    if (s.defines) cat.functions.add(s.defines);
    return problems;
  }
  if (s.kind === 'createTable') {
    const own = new Set(s.columns.filter((c): c is string => c !== null));
    for (const r of s.columnRefs) if (!own.has(r.name)) problems.push(`${where(r)}: column \`${r.name}\` is not a column of table \`${s.defines}\``);
    if (s.defines) cat.tables.set(s.defines, { columns: s.columns as string[], kind: 'table' });
    return problems;
  }
  const visible = new Set<string>(s.columnAliases);
  if (s.usesWindowTvf) WINDOW_COLUMNS.forEach((c) => visible.add(c));
  for (const r of s.tableRefs) {
    const t = cat.tables.get(r.name);
    if (!t) problems.push(`${where(r)}: table or view \`${r.name}\` is not defined before this statement`);
    else t.columns.forEach((c) => visible.add(c));
  }
  for (const a of s.tableAliases.values()) a.columns?.forEach((c) => visible.add(c));
  for (const r of s.functionRefs) if (!cat.functions.has(r.name)) problems.push(`${where(r)}: function \`${r.name}\` is not created before this statement`);
  for (const r of s.columnRefs) {
    if (r.qualifier) {
      const alias = s.tableAliases.get(r.qualifier);
      const cols = alias?.columns ?? (alias?.table ? cat.tables.get(alias.table)?.columns : undefined);
      if (!alias) problems.push(`${where(r)}: \`${r.qualifier}\` is not a table alias of this statement`);
      else if (!cols?.includes(r.name)) problems.push(`${where(r)}: \`${r.qualifier}\`.\`${r.name}\` — \`${alias.table ?? r.qualifier}\` has no such column`);
    } else if (!visible.has(r.name)) {
      problems.push(`${where(r)}: column \`${r.name}\` is in none of the statement's tables (${s.tableRefs.map((t) => t.name).join(', ') || 'none'})`);
    }
  }
  if (s.columns.some((c) => c === null)) problems.push(`line ${s.line}: a selected expression has no name; give it AS <name>`);
  if (s.kind === 'createView' && s.defines) cat.tables.set(s.defines, { columns: s.columns as string[], kind: 'view' });
  if (s.kind === 'insert') {
    const target = s.target ? cat.tables.get(s.target) : undefined;
    if (!target || target.kind !== 'table') problems.push(`line ${s.line}: INSERT INTO \`${s.target}\`, which is not a table defined before`);
    else if (target.columns.length !== s.columns.length) problems.push(`line ${s.line}: INSERT INTO \`${s.target}\` selects ${s.columns.length} columns for its ${target.columns.length}`);
  }
  return problems;
}

const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Tables and views named after nodes hold the pipeline's inferred columns; a node without one must have a warning. */
function compareWithPipeline(plan: JobPlan, cat: Catalog, warnings: readonly ExportWarning[], inserted: Set<string>): string[] {
  const problems: string[] = [];
  const warned = new Set(warnings.map((w) => w.nodeId));
  for (const n of plan.nodes) {
    const info = n.isSink ? n.inputs.in : n.outputs.out;
    const expected = info?.fields ? Object.keys(info.fields) : null;
    const got = cat.tables.get(n.id);
    if (!got) {
      if (!warned.has(n.id)) problems.push(`node \`${n.id}\` (${n.kind}) has no table or view and no warning says why`);
      continue;
    }
    if (!expected) {
      problems.push(`node \`${n.id}\` has SQL columns but the pipeline does not know its fields`);
      continue;
    }
    // A source table may hold a BIGINT `<f>_ms` column that carries timestamp `f`.
    const cols = n.isSource ? got.columns.filter((c) => !(c.endsWith('_ms') && !expected.includes(c) && expected.includes(c.slice(0, -3)))) : got.columns;
    if (!same(cols, expected)) problems.push(`\`${n.id}\` has columns (${cols.join(', ')}) but the pipeline infers (${expected.join(', ')})`);
    if (n.isSink && !inserted.has(n.id) && !warned.has(n.id)) problems.push(`sink \`${n.id}\` has a table but no INSERT`);
  }
  return problems;
}

export interface SemanticResult {
  /** Syntax errors from dt-sql-parser's FlinkSQL validator. */
  syntaxErrors: string[];
  /** Unresolved names and columns that differ from the pipeline. */
  problems: string[];
}

export function checkExportedSql(sql: string, plan: JobPlan, warnings: readonly ExportWarning[] = []): SemanticResult {
  const script = readScript(sql);
  if (script.errors.length) return { syntaxErrors: script.errors.map((e) => `line ${e.line}, column ${e.column}: ${e.message}`), problems: [] };
  const cat: Catalog = { tables: new Map(), functions: new Set() };
  const problems = script.statements.flatMap((s) => resolveStatement(s, cat));
  const inserted = new Set(script.statements.filter((s) => s.kind === 'insert' && s.target).map((s) => s.target!));
  problems.push(...compareWithPipeline(plan, cat, warnings, inserted));
  return { syntaxErrors: [], problems };
}
