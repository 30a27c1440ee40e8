/**
 * CREATE TABLE → a catalog entry: physical, computed and metadata columns, the watermark, the
 * primary key and the connector options. A table read by a query becomes a source node; one
 * written by INSERT becomes a sink node; a table both written and read is its writer's output.
 */
import { compileExpr } from '../../../expr/index.ts';
import type { FieldType } from '../../../core/streamInfo.ts';
import { CHANGELOG_FORMATS } from '../../../core/changelogDecoder.ts';
import type { Tree } from '../../../export/flinkSql/verify/parseTree.ts';
import { childOf, childrenOf, find, findAll, firstToken, keywordsOf, ruleOf, spanOf, textOf, unquote } from '../../../export/flinkSql/verify/parseTree.ts';
import type { Col, Graph, Rel } from './model.ts';
import { fail, quoteName } from './model.ts';
import type { Scope } from './expr.ts';
import { callName, intervalMs, render } from './expr.ts';
import type { Annotation } from './prepass.ts';
import { withBackslashes } from './prepass.ts';
import { timeExpression } from './computedTime.ts';
import { datagenColumns, datagenParams, isClockColumn } from './datagenTable.ts';
import { collectionOf, fieldTypeOfText } from './collectionType.ts';
import type { Collection } from './collectionType.ts';
import { pathName } from './tableNames.ts';

export interface TableColumn {
  name: string;
  type: FieldType | null;
  /** A computed column's expression subtree. */
  computed: Tree | null;
  proctime: boolean;
  metadata: boolean;
  at: Tree;
  /** An ARRAY or MAP column's elements (for UNNEST). */
  collection?: Collection | null;
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
  /** `LIKE base (…)`, merged by mergeLike once base is known. */
  like: Tree | null;
}

export function fieldType(sql: string, t: Tree): FieldType {
  const text = textOf(sql, t);
  return fieldTypeOfText(text) ?? fail(t, `${text.toUpperCase()} column`, 'Weir has no such type; use STRING, BIGINT/INT, DOUBLE/DECIMAL, BOOLEAN, DATE or TIMESTAMP(3)');
}

const unquoteOption = (s: string): string => (/^'.*'$/s.test(s) ? withBackslashes(s.slice(1, -1).replace(/''/g, "'")) : unquote(s));

export function readOptions(t: Tree | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of t ? findAll(t, 'tableProperty') : []) {
    const k = childOf(p, 'tablePropertyKey');
    const v = childOf(p, 'tablePropertyValue');
    if (k && v) out[unquoteOption(k.getText())] = unquoteOption(v.getText());
  }
  return out;
}

/** `liftedKey`: a PRIMARY KEY the prepass took out of the element list (it was not written last). */
export function readTable(sql: string, t: Tree, liftedKey: string[] | null = null, liftedWatermarks: ReadonlySet<number> = new Set()): TableDef {
  const name = pathName(find(t, 'tablePathCreate')!);
  const columns: TableColumn[] = [];
  let liftedWatermark: TableDef['watermark'] = null;
  for (const def of childrenOf(t, 'columnOptionDefinition')) {
    const c = def.children![0];
    const colName = unquote(find(c, 'columnNameCreate')!.getText());
    const rule = ruleOf(c);
    if (rule === 'physicalColumnDefinition') {
      const typeAt = childOf(c, 'columnType')!;
      columns.push({ name: colName, type: fieldType(sql, typeAt), computed: null, proctime: false, metadata: false, at: c, collection: collectionOf(textOf(sql, typeAt)) });
    }
    else if (rule === 'metadataColumnDefinition') columns.push({ name: colName, type: fieldType(sql, childOf(c, 'columnType')!), computed: null, proctime: false, metadata: true, at: c });
    else if (liftedWatermarks.has(firstToken(c)?.start ?? -1)) {
      // `WATERMARK FOR ts AS …` first in the list, read as the computed column `ts AS …` (see prepass.ts).
      liftedWatermark = { column: colName, expr: find(c, 'expression')! };
    } else {
      const expr = find(c, 'expression')!;
      const proctime = callName(find(expr, 'primaryExpression') ?? expr) === 'PROCTIME';
      columns.push({ name: colName, type: null, computed: proctime ? null : expr, proctime, metadata: false, at: c });
    }
  }
  const wm = find(t, 'watermarkDefinition');
  const pk = find(t, 'tableConstraint');
  if (pk && liftedKey) fail(pk, 'PRIMARY KEY', `\`${name}\` declares a primary key twice; keep one PRIMARY KEY (…) NOT ENFORCED`);
  const withOption = childOf(t, 'withOption');
  const asQuery = ruleOf(t) === 'createTableAsSelect' ? childOf(t, 'queryStatement') : null;
  return {
    name,
    columns,
    watermark: wm ? { column: unquote(childOf(wm, 'columnName')!.getText()), expr: childOf(wm, 'expression')! } : liftedWatermark,
    primaryKey: pk ? findAll(pk, 'columnName').map((c) => unquote(c.getText())) : liftedKey,
    options: readOptions(withOption),
    at: t,
    asQuery,
    like: childOf(t, 'likeDefinition'),
  };
}

type LikeFeature = 'CONSTRAINTS' | 'GENERATED' | 'METADATA' | 'OPTIONS' | 'PARTITIONS' | 'WATERMARKS';
type LikeStrategy = 'INCLUDING' | 'EXCLUDING' | 'OVERWRITING';

/**
 * `CREATE TABLE t (…) WITH (…) LIKE base [(options)]`, as Flink merges them: base's physical columns
 * first, then the new ones; computed columns, metadata columns, the watermark, the primary key and
 * the options per their strategy. The default is INCLUDING ALL OVERWRITING OPTIONS; INCLUDING fails
 * on an entry both tables have, OVERWRITING lets the new table's win, EXCLUDING drops base's.
 */
export function mergeLike(def: TableDef, base: TableDef | undefined): TableDef {
  const like = def.like!;
  if (!base) fail(like, 'LIKE', `\`${pathName(childOf(like, 'tablePath')!)}\` is not a table created before this statement`);
  const how: Record<LikeFeature, LikeStrategy> = { CONSTRAINTS: 'INCLUDING', GENERATED: 'INCLUDING', METADATA: 'INCLUDING', OPTIONS: 'OVERWRITING', PARTITIONS: 'INCLUDING', WATERMARKS: 'INCLUDING' };
  for (const opt of childrenOf(like, 'likeOption')) {
    const [strategy, feature] = keywordsOf(opt) as [LikeStrategy, LikeFeature | 'ALL'];
    if (feature === 'ALL') for (const f of Object.keys(how) as LikeFeature[]) how[f] = strategy;
    else how[feature] = strategy;
  }
  const kindOf = (c: TableColumn): LikeFeature | null => (c.metadata ? 'METADATA' : c.computed || c.proctime ? 'GENERATED' : null);
  const columns = base.columns.filter((c) => {
    const k = kindOf(c);
    return !k || how[k] !== 'EXCLUDING';
  });
  for (const c of def.columns) {
    const at = columns.findIndex((x) => x.name === c.name);
    if (at < 0) {
      columns.push(c);
      continue;
    }
    const k = kindOf(columns[at]);
    if (k && kindOf(c) === k && how[k] === 'OVERWRITING') columns[at] = c;
    else fail(c.at, 'LIKE', `\`${def.name}\` declares \`${c.name}\`, which \`${base.name}\` has too; rename it${k ? `, or write OVERWRITING ${k}` : ''}`);
  }
  let watermark = how.WATERMARKS === 'EXCLUDING' ? def.watermark : (def.watermark ?? base.watermark);
  if (def.watermark && base.watermark && how.WATERMARKS === 'INCLUDING') fail(def.watermark.expr, 'LIKE', `\`${base.name}\` has a watermark already; write OVERWRITING WATERMARKS to replace it, or EXCLUDING WATERMARKS`);
  if (watermark && !columns.some((c) => c.name === watermark!.column)) watermark = null;
  if (def.primaryKey && base.primaryKey && how.CONSTRAINTS === 'INCLUDING') fail(like, 'LIKE', `\`${base.name}\` has a primary key already; write EXCLUDING CONSTRAINTS to declare another`);
  const primaryKey = def.primaryKey ?? (how.CONSTRAINTS === 'EXCLUDING' ? null : base.primaryKey);
  if (how.OPTIONS === 'INCLUDING') {
    const both = Object.keys(def.options).filter((k) => k in base.options);
    if (both.length) fail(like, 'LIKE', `both tables set '${both[0]}'; write OVERWRITING OPTIONS to let \`${def.name}\`'s win`);
  }
  const options = how.OPTIONS === 'EXCLUDING' ? def.options : { ...base.options, ...def.options };
  return { ...def, columns, watermark, primaryKey, options, like: null };
}

/**
 * `WATERMARK FOR ts AS <expr>`: any expression that stays a fixed distance below ts. Weir's
 * watermark is max − bound − 1 ms (as DataStream's bounded out-of-orderness), Flink's SQL one is
 * max − delay; bound = delay − 1 makes windows fire on the same record.
 */
const isSourceWatermark = (sql: string, expr: Tree): boolean => /^SOURCE_WATERMARK\s*\(\s*\)$/i.test(textOf(sql, expr).trim());

function watermarkBound(sql: string, t: TableDef, physical: Col[]): number {
  const wm = t.watermark!;
  // SOURCE_WATERMARK(): the connector's own watermarks; Weir's sources have none, so the column's own order (no delay).
  if (isSourceWatermark(sql, wm.expr)) return 0;
  // `ts - INTERVAL …`, in any of the interval's spellings.
  const plain = new RegExp(`^\`?${wm.column.replace(/[^\w]/g, '\\$&')}\`?\\s*-\\s*(INTERVAL\\s.*)$`, 'is').exec(textOf(sql, wm.expr).trim());
  if (plain) return Math.max(0, intervalMs(plain[1], wm.expr, 'WATERMARK') - 1);
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

/**
 * Weir's own export carries a timestamp `f` as `f_ms BIGINT` + `f AS TO_TIMESTAMP_LTZ(f_ms, 3)`:
 * in the pipeline that is one timestamp field `f` (epoch milliseconds), so the carrier goes.
 */
function exportedTimestamps(sql: string, t: TableDef): TableColumn[] {
  const carriers = new Map<string, string>();
  for (const c of t.columns) {
    const m = c.computed ? /^TO_TIMESTAMP_LTZ\(\s*`?([^`,\s]+)`?\s*,\s*3\s*\)$/i.exec(textOf(sql, c.computed)) : null;
    if (m && t.columns.some((p) => p.name === m[1] && !p.computed && p.type === 'integer')) carriers.set(m[1], c.name);
  }
  if (!carriers.size) return t.columns;
  const times = new Set(carriers.values());
  return t.columns.filter((c) => !carriers.has(c.name)).map((c) => (times.has(c.name) ? { ...c, computed: null, type: 'timestamp' as const } : c));
}

/** What a `-- @weir` annotation of Weir's export says about a source: its kind and the data SQL cannot carry. */
function annotatedSource(ann: Annotation | null): { kind: string; data: Record<string, unknown>; idleTimeoutMs?: number } | null {
  if (!ann || typeof ann.kind !== 'string' || !/Source$/.test(ann.kind)) return null;
  const { idleTimeoutMs, ...data } = (ann.params ?? {}) as Record<string, unknown> & { idleTimeoutMs?: number };
  return { kind: ann.kind, data, ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) };
}

/** The source node of a table that queries read, plus a map for its computed columns. */
export function sourceRel(sql: string, g: Graph, t: TableDef, warn: (at: Tree, msg: string) => void, ann: Annotation | null = null): Rel {
  const exported = annotatedSource(ann);
  const datagen = !exported && t.options.connector === 'datagen' && !changelogOf(t);
  const clock = new Set(datagen ? t.columns.filter(isClockColumn).map((c) => c.name) : []);
  const columns = exported ? exportedTimestamps(sql, t) : datagen ? datagenColumns(t.columns) : t.columns;
  const physical: Col[] = [];
  const computed: TableColumn[] = [];
  const procTime: string[] = [];
  for (const c of columns) {
    if (c.proctime) procTime.push(c.name);
    else if (c.computed) computed.push(c);
    else {
      if (c.metadata) warn(c.at, `metadata column \`${c.name}\` is read from the record's field of that name`);
      physical.push({ field: c.name, name: c.name, quals: [t.name], type: c.type, ...(c.collection ? { collection: c.collection } : {}) });
    }
  }
  const connector = t.options.connector;
  if (!connector) fail(t.at, 'CREATE TABLE', `\`${t.name}\` has no 'connector' option`);
  const changelog = exported ? null : changelogOf(t);
  if (!exported) {
    if (!['filesystem', 'kafka', 'upsert-kafka', 'datagen'].includes(connector)) warn(t.at, `\`${t.name}\` ('${connector}') becomes a JSON Lines file source: give it an input when you run it`);
    const format = t.options.format ?? t.options['value.format'];
    if (format && !['json', 'csv', ...CHANGELOG_SQL_FORMATS].includes(format)) warn(t.at, `format '${format}' is read as JSON Lines`);
  }
  // A computed watermark column is computed before the source's clock reads it only when it is a plain rename.
  const wmCol = t.watermark ? columns.find((c) => c.name === t.watermark!.column) : null;
  if (t.watermark && !wmCol) fail(t.watermark.expr, 'WATERMARK', `\`${t.watermark.column}\` is not a column of \`${t.name}\``);
  const carrier = wmCol?.computed ? timeCarrier(sql, wmCol, physical) : null;
  // Not a copy of one column: the source computes it per record.
  const timeExpr = wmCol?.computed && !carrier ? timeExpression(sql, wmCol, physical) : null;
  const timeCol: Col | null = timeExpr ? { field: wmCol!.name, name: wmCol!.name, quals: [t.name], type: 'timestamp' } : null;
  if (wmCol && !carrier && !timeExpr && wmCol.type !== 'timestamp') fail(wmCol.at, 'WATERMARK', `the time attribute \`${wmCol.name}\` must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)`);
  const kind = exported?.kind ?? (datagen ? 'generatorSource' : 'fileSource');
  const params: Record<string, unknown> = { ...(exported?.data ?? (datagen ? datagenParams(t, physical, clock, warn) : {})) };
  if (kind !== 'generatorSource' && params.schema === undefined) params.schema = Object.fromEntries(physical.map((c) => [c.field, c.type]));
  if (!exported && connector === 'filesystem' && t.options.path && !t.options.path.includes('<')) params.path = t.options.path.replace(/^file:\/\//, '');
  if (!exported && t.options.format === 'csv') params.format = 'csv';
  if (changelog) params.changelog = changelog;
  const timeCols = carrier ? [...physical, { ...carrier, name: wmCol!.name }] : timeCol ? [...physical, timeCol] : physical;
  if (t.watermark && isSourceWatermark(sql, t.watermark.expr)) {
    warn(t.watermark.expr, `\`${t.name}\`: SOURCE_WATERMARK() takes the connector's own watermarks, and Weir's sources emit none: the watermark follows \`${t.watermark.column}\` with no delay, so a record older than the newest is late; write ${t.watermark.column} - INTERVAL '…' SECOND to allow disorder`);
  }
  if (t.watermark) params.eventTime = { field: carrier?.field ?? t.watermark.column, ...(timeExpr ? { expr: timeExpr } : {}), maxOutOfOrdernessMs: watermarkBound(sql, { ...t, columns }, timeCols), ...(exported?.idleTimeoutMs !== undefined ? { idleTimeoutMs: exported.idleTimeoutMs } : {}) };
  const id = t.name;
  g.claim(id);
  g.add({ id, kind, params, inputs: [], at: t.at });
  const pk = t.primaryKey ?? ((params.changelog as { primaryKey?: string[] } | undefined)?.primaryKey ?? null);
  if (timeCol) computed.splice(computed.indexOf(wmCol!), 1);
  const sourceCols = timeCol ? [...physical, timeCol] : physical;
  let rel: Rel = { node: id, cols: sourceCols, eventTime: t.watermark?.column ?? null, procTime, updating: !!params.changelog, primaryKey: pk };
  if (computed.length) {
    const scope: Scope = { cols: physical, sql };
    const set = computed.map((c) => ({ name: c.name, expr: c === wmCol ? quoteName(carrier!.field) : render(c.computed!, scope) }));
    const mid = g.id(`${t.name}_computed`);
    // A computed time attribute is a copy of its carrier: a projection that lists it first keeps
    // the stream's event time on it (a map would leave it on the carrier).
    const params = carrier
      ? { fields: [set.find((a) => a.name === wmCol!.name)!, ...physical.map((c) => ({ name: c.field, expr: quoteName(c.field) })), ...set.filter((a) => a.name !== wmCol!.name)] }
      : { set };
    g.add({ id: mid, kind: carrier ? 'project' : 'map', params, inputs: [['in', id]], at: spanOf(computed[0].at) });
    rel = { ...rel, node: mid, cols: [...sourceCols, ...computed.map((c) => ({ field: c.name, name: c.name, quals: [t.name], type: null }))] };
  }
  return rel;
}

/**
 * A computed time attribute (`ts AS TO_TIMESTAMP_LTZ(ts_ms, 3)`, `ts AS CAST(event_time AS
 * TIMESTAMP(3))`, a rename): Weir's source reads event time from a field of the record, so the
 * expression must be one physical column's value, in epoch milliseconds. That column carries it;
 * otherwise (null) the source computes it (computedTime.ts).
 */
function timeCarrier(sql: string, c: TableColumn, physical: Col[]): Col | null {
  const text = render(c.computed!, { cols: physical, sql });
  let hit: Col | null = null;
  try {
    const e = compileExpr(text);
    const col = e.fields.length === 1 ? physical.find((p) => p.field === e.fields[0]) : undefined;
    const same = (ms: number) => e.evaluate({ [e.fields[0]]: ms }) === ms;
    if (col && (col.type === 'integer' || col.type === 'timestamp') && same(1_700_000_000_123) && same(5)) hit = col;
  } catch {
    /* not a copy: refused below */
  }
  return hit;
}

/** Flink's changelog formats, as a filesystem or Kafka table names them. */
const CHANGELOG_SQL_FORMATS = ['debezium-json', 'changelog-json', 'canal-json', 'maxwell-json', 'ogg-json'];

/**
 * A table whose records are changes: `'format' = 'debezium-json' | 'canal-json' | 'maxwell-json' |
 * 'changelog-json'` or the upsert-kafka connector (which needs a PRIMARY KEY), as Weir's changelog source params.
 */
function changelogOf(t: TableDef): Record<string, unknown> | null {
  const format = t.options.format ?? t.options['value.format'];
  const pk = t.primaryKey ? { primaryKey: t.primaryKey } : {};
  if (t.options.connector === 'upsert-kafka') {
    if (!t.primaryKey) fail(t.at, 'upsert-kafka', `\`${t.name}\` needs PRIMARY KEY (…) NOT ENFORCED: the key a null value deletes`);
    return { format: 'upsert', ...pk };
  }
  if (format && (CHANGELOG_FORMATS as readonly string[]).includes(format)) return { format, ...pk };
  if (format && CHANGELOG_SQL_FORMATS.includes(format)) fail(t.at, `'format' = '${format}'`, "Weir reads the changelog formats 'debezium-json', 'canal-json', 'maxwell-json' and 'changelog-json', and upsert-kafka; convert the records to one of them");
  return null;
}

/** The sink node kind for a table's connector. */
export function sinkKind(t: TableDef, ann: Annotation | null = null): { kind: string; params: Record<string, unknown> } {
  if (ann && typeof ann.kind === 'string' && /Sink$/.test(ann.kind)) return { kind: ann.kind, params: (ann.params as Record<string, unknown> | undefined) ?? {} };
  const connector = t.options.connector;
  if (connector === 'print') return { kind: 'logSink', params: {} };
  if (connector === 'blackhole') return { kind: 'collectSink', params: {} };
  return { kind: 'viewSink', params: t.primaryKey ? { primaryKey: t.primaryKey } : {} };
}
