/**
 * CREATE TABLE → a catalog entry: physical, computed and metadata columns, the watermark, the
 * primary key and the connector options. A table read by a query becomes a source node; one
 * written by INSERT becomes a sink node; a table both written and read is its writer's output.
 */
import { compileExpr } from '../../../engine/expr/index.ts';
import type { FieldType } from '../../../pipeline/streamInfo.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, findAll, ruleOf, spanOf, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Graph, Rel } from './model.ts';
import { fail } from './model.ts';
import type { Scope } from './expr.ts';
import { callName, render } from './expr.ts';

export interface TableColumn {
  name: string;
  type: FieldType | null;
  /** A computed column's expression subtree. */
  computed: Tree | null;
  proctime: boolean;
  metadata: boolean;
  at: Tree;
}

export interface TableDef {
  name: string;
  columns: TableColumn[];
  watermark: { column: string; expr: Tree } | null;
  primaryKey: string[] | null;
  options: Record<string, string>;
  at: Tree;
  /** A CTAS: the query whose result defines the columns. */
  asQuery: Tree | null;
}

const TYPES: [RegExp, FieldType][] = [
  [/^(STRING|VARCHAR|CHAR)\b/, 'string'],
  [/^(BIGINT|INT|INTEGER|SMALLINT|TINYINT)\b/, 'integer'],
  [/^(DOUBLE|FLOAT|REAL|DECIMAL|NUMERIC|DEC)\b/, 'number'],
  [/^BOOLEAN\b/, 'boolean'],
  [/^TIMESTAMP(_LTZ)?\b/, 'timestamp'],
  [/^(ROW|MAP|ARRAY|MULTISET)\b/, 'json'],
];

export function fieldType(sql: string, t: Tree): FieldType {
  const text = textOf(sql, t).toUpperCase();
  const hit = TYPES.find(([re]) => re.test(text));
  if (!hit) fail(t, `${text} column`, 'Weir has no such type; use STRING, BIGINT/INT, DOUBLE/DECIMAL, BOOLEAN or TIMESTAMP(3)');
  return hit[1];
}

const unquoteOption = (s: string): string => (/^'.*'$/s.test(s) ? s.slice(1, -1).replace(/''/g, "'") : unquote(s));

export function readOptions(t: Tree | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of t ? findAll(t, 'tableProperty') : []) {
    const k = childOf(p, 'tablePropertyKey');
    const v = childOf(p, 'tablePropertyValue');
    if (k && v) out[unquoteOption(k.getText())] = unquoteOption(v.getText());
  }
  return out;
}

export function readTable(sql: string, t: Tree): TableDef {
  const name = unquote(find(t, 'tablePathCreate')!.getText());
  const columns: TableColumn[] = [];
  for (const def of childrenOf(t, 'columnOptionDefinition')) {
    const c = def.children![0];
    const colName = unquote(find(c, 'columnNameCreate')!.getText());
    const rule = ruleOf(c);
    if (rule === 'physicalColumnDefinition') columns.push({ name: colName, type: fieldType(sql, childOf(c, 'columnType')!), computed: null, proctime: false, metadata: false, at: c });
    else if (rule === 'metadataColumnDefinition') columns.push({ name: colName, type: fieldType(sql, childOf(c, 'columnType')!), computed: null, proctime: false, metadata: true, at: c });
    else {
      const expr = find(c, 'expression')!;
      const proctime = callName(find(expr, 'primaryExpression') ?? expr) === 'PROCTIME';
      columns.push({ name: colName, type: null, computed: proctime ? null : expr, proctime, metadata: false, at: c });
    }
  }
  const wm = find(t, 'watermarkDefinition');
  const pk = find(t, 'tableConstraint');
  const withOption = childOf(t, 'withOption');
  const asQuery = ruleOf(t) === 'createTableAsSelect' ? childOf(t, 'queryStatement') : null;
  return {
    name,
    columns,
    watermark: wm ? { column: unquote(childOf(wm, 'columnName')!.getText()), expr: childOf(wm, 'expression')! } : null,
    primaryKey: pk ? findAll(pk, 'columnName').map((c) => unquote(c.getText())) : null,
    options: readOptions(withOption),
    at: t,
    asQuery,
  };
}

/**
 * `WATERMARK FOR ts AS <expr>`: any expression that stays a fixed distance below ts. Weir's
 * watermark is max − bound − 1 ms (as DataStream's bounded out-of-orderness), Flink's SQL one is
 * max − delay; bound = delay − 1 makes windows fire on the same record.
 */
function watermarkBound(sql: string, t: TableDef, physical: Col[]): number {
  const wm = t.watermark!;
  const scope: Scope = { cols: physical, sql };
  const text = render(wm.expr, scope);
  const at = (ms: number) => compileExpr(text).evaluate({ [physical.find((c) => c.name === wm.column)!.field]: ms }) as number;
  let d1: number;
  let d2: number;
  try {
    d1 = 1_700_000_000_000 - at(1_700_000_000_000);
    d2 = 1_000_000 - at(1_000_000);
  } catch {
    fail(wm.expr, 'WATERMARK', `expected ${wm.column} - INTERVAL '<delay>' <unit>, found ${textOf(sql, wm.expr)}`);
  }
  if (!Number.isFinite(d1) || d1 !== d2 || d1 < 0) fail(wm.expr, 'WATERMARK', `the watermark must stay a fixed delay behind ${wm.column} (${wm.column} - INTERVAL …), found ${textOf(sql, wm.expr)}`);
  return Math.max(0, d1 - 1);
}

/** The source node of a table that queries read, plus a map for its computed columns. */
export function sourceRel(sql: string, g: Graph, t: TableDef, warn: (at: Tree, msg: string) => void): Rel {
  const physical: Col[] = [];
  const computed: TableColumn[] = [];
  const procTime: string[] = [];
  for (const c of t.columns) {
    if (c.proctime) procTime.push(c.name);
    else if (c.computed) computed.push(c);
    else {
      if (c.metadata) warn(c.at, `metadata column \`${c.name}\` is read from the record's field of that name`);
      physical.push({ field: c.name, name: c.name, quals: [t.name], type: c.type });
    }
  }
  const connector = t.options.connector;
  if (!connector) fail(t.at, 'CREATE TABLE', `\`${t.name}\` has no 'connector' option`);
  if (!['filesystem', 'kafka', 'upsert-kafka', 'datagen'].includes(connector)) warn(t.at, `\`${t.name}\` ('${connector}') becomes a JSON Lines file source: give it an input when you run it`);
  if (t.options.format && !['json', 'csv'].includes(t.options.format)) warn(t.at, `format '${t.options.format}' is read as JSON Lines`);
  // A computed watermark column is computed before the source's clock reads it only when it is a plain rename.
  const wmCol = t.watermark ? t.columns.find((c) => c.name === t.watermark!.column) : null;
  if (t.watermark && !wmCol) fail(t.watermark.expr, 'WATERMARK', `\`${t.watermark.column}\` is not a column of \`${t.name}\``);
  if (wmCol?.computed) fail(wmCol.at, 'WATERMARK', `the time attribute \`${wmCol.name}\` is a computed column; declare it TIMESTAMP(3) in the table and give the file epoch milliseconds`);
  if (wmCol && wmCol.type !== 'timestamp') fail(wmCol.at, 'WATERMARK', `the time attribute \`${wmCol.name}\` must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)`);
  const params: Record<string, unknown> = { schema: Object.fromEntries(physical.map((c) => [c.field, c.type])) };
  if (connector === 'filesystem' && t.options.path) params.path = t.options.path.replace(/^file:\/\//, '');
  if (t.watermark) params.eventTime = { field: t.watermark.column, maxOutOfOrdernessMs: watermarkBound(sql, t, physical) };
  const id = t.name;
  g.claim(id);
  g.add({ id, kind: 'fileSource', params, inputs: [], at: t.at });
  let rel: Rel = { node: id, cols: physical, eventTime: t.watermark?.column ?? null, procTime, updating: false, primaryKey: t.primaryKey };
  if (computed.length) {
    const scope: Scope = { cols: physical, sql };
    const set = computed.map((c) => ({ name: c.name, expr: render(c.computed!, scope) }));
    const mid = g.id(`${t.name}_computed`);
    g.add({ id: mid, kind: 'map', params: { set }, inputs: [['in', id]], at: spanOf(computed[0].at) });
    rel = { ...rel, node: mid, cols: [...physical, ...computed.map((c) => ({ field: c.name, name: c.name, quals: [t.name], type: null }))] };
  }
  return rel;
}

/** The sink node kind for a table's connector. */
export function sinkKind(t: TableDef): { kind: string; params: Record<string, unknown> } {
  const connector = t.options.connector;
  if (connector === 'print') return { kind: 'logSink', params: {} };
  if (connector === 'blackhole') return { kind: 'collectSink', params: {} };
  return { kind: 'viewSink', params: t.primaryKey ? { primaryKey: t.primaryKey } : {} };
}
