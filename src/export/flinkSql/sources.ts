/**
 * CREATE TABLE for each source. Timestamp convention: connectors that read records (filesystem,
 * kafka, upsert-kafka) carry a timestamp field `f` as epoch milliseconds in a BIGINT column
 * `f_ms`, and `f` is the computed column TO_TIMESTAMP_LTZ(`f_ms`, 3); datagen generates
 * TIMESTAMP_LTZ(3) values directly (now minus up to the out-of-orderness).
 */
import { fileFormatOf } from '../../pipeline/kinds/fileSource.ts';
import type { FileSourceParams } from '../../pipeline/kinds/fileSource.ts';
import type { PlanNode } from '../../pipeline/plan.ts';
import type { CommonSourceParams } from '../../core/source.ts';
import { sourceDefinition } from '../../engine/registry.ts';
import { scenario } from '../../generators/index.ts';
import { recordCount } from '../../generators/reader.ts';
import { scenarioContext } from '../../engine/operators/generatorSource.ts';
import { derivedSeed } from '../../core/rng.ts';
import type { GeneratorSourceParams } from '../../pipeline/kinds/generatorSource.ts';
import { DEFAULT_GENERATOR_RATE } from '../../pipeline/kinds/generatorSource.ts';
import type { Annotation, ExportContext } from './context.ts';
import { nodeAnnotation, relationOf } from './context.ts';
import type { SourceConnector } from './options.ts';
import { defaultSourceConnector, isSourceConnector } from './options.ts';
import { connectorOptions, withClause } from './connectors.ts';
import { datagenWarnings, literalComparisons } from './datagenHints.ts';
import { datagenFieldOptions, isArrivalColumn } from './datagenColumns.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import { freshName, ident, interval, sqlType } from './sqlText.ts';
import { compileExpr } from '../../expr/index.ts';
import { flinkExpr } from './operators/exprNotes.ts';

export interface TableDdl {
  name: string;
  comments: string[];
  annotation?: Annotation;
  sql: string;
}

/**
 * Source params the SQL cannot say: the data itself (rows, generator settings, file path), the idle
 * timeout, and the schema when it has json fields (STRING in SQL, so the type alone would be lost).
 */
function dataParams(node: PlanNode): Record<string, unknown> {
  const { schema, eventTime, ...rest } = node.params as Record<string, unknown> & { schema?: Record<string, string>; eventTime?: { idleTimeoutMs?: number } };
  return {
    ...rest,
    ...(schema && Object.values(schema).includes('json') ? { schema } : {}),
    ...(eventTime?.idleTimeoutMs !== undefined ? { idleTimeoutMs: eventTime.idleTimeoutMs } : {}),
  };
}

/** Schema, event time and rate after the source kind's own defaults (the generator's `ts`, say). */
export function effectiveSourceParams(node: PlanNode): CommonSourceParams {
  try {
    return sourceDefinition(node.kind).taskParams?.(node.params) ?? (node.params as CommonSourceParams);
  } catch {
    return node.params as CommonSourceParams;
  }
}

/** The physical BIGINT column that carries timestamp `field`: `field_ms`, or a free variant. */
export function millisColumn(field: string, columns: readonly string[]): string {
  return freshName(`${field}_ms`, new Set(columns));
}

/** The source's connector, after checking the user's choice fits a source. */
function chooseConnector(node: PlanNode, cx: ExportContext): SourceConnector {
  const chosen = cx.options.connectors?.[node.id];
  if (chosen === undefined) return defaultSourceConnector(node.kind);
  if (isSourceConnector(chosen)) return chosen;
  cx.warn(node.id, `connector "${chosen}" cannot read a source; using ${defaultSourceConnector(node.kind)}`);
  return defaultSourceConnector(node.kind);
}

/** Primary key for an upsert-kafka source: the key of the temporal join that reads it as its versioned side. */
function upsertKey(node: PlanNode, cx: ExportContext): string[] | null {
  for (const e of cx.plan.edges) {
    if (e.from.node !== node.id || e.to.port !== 'right') continue;
    const target = cx.node(e.to.node);
    if (target?.kind === 'temporalJoin') return (target.params.rightKey as string[] | undefined) ?? null;
  }
  return null;
}

export function sourceTable(node: PlanNode, cx: ExportContext): TableDdl | null {
  const info = node.outputs.out;
  const rel = relationOf(node.id, info, node);
  if (!rel) {
    cx.warn(node.id, 'the source has no declared schema, so its table has no columns; declare `schema` on the source');
    return null;
  }
  const eff = effectiveSourceParams(node);
  const changelog = eff.changelog;
  let connector = changelog?.format === 'upsert' ? 'upsert-kafka' : chooseConnector(node, cx);
  if (changelog && connector === 'datagen') connector = 'kafka';
  const outOfOrderMs = eff.eventTime?.maxOutOfOrdernessMs ?? 0;
  let key: string[] | null = null;
  if (changelog?.primaryKey?.length) key = changelog.primaryKey;
  else if (connector === 'upsert-kafka') {
    key = upsertKey(node, cx);
    if (!key) {
      cx.warn(node.id, 'upsert-kafka needs a primary key, and only the versioned side of a temporal join has one; using kafka');
      connector = 'kafka';
    }
  }
  const comments = [`source \`${node.id}\` (${node.kind}${node.kind === 'generatorSource' ? `, scenario ${String(node.params.scenario)}` : ''}) → ${connector}`];
  const lines: string[] = [];
  const computedTime = eff.eventTime?.expr !== undefined ? eff.eventTime.field : null;
  const timestamps = rel.columns.filter((c) => rel.types[c] === 'timestamp' && c !== computedTime);
  const gp = node.kind === 'generatorSource' && node.params.scenario === 'datagen' ? (node.params as unknown as GeneratorSourceParams) : null;
  for (const c of rel.columns) {
    if (gp && connector === 'datagen' && isArrivalColumn(gp.columns, c)) {
      lines.push(`${ident(c)} AS LOCALTIMESTAMP`);
      continue;
    }
    if (c === computedTime) {
      lines.push(`${ident(c)} AS ${computedTimeSql(eff.eventTime!.expr!, rel.types)}`);
      continue;
    }
    if (rel.types[c] !== 'timestamp' || connector === 'datagen') {
      lines.push(`${ident(c)} ${sqlType(rel.types[c])}`);
      continue;
    }
    const ms = millisColumn(c, rel.columns);
    lines.push(`${ident(ms)} BIGINT`, `${ident(c)} AS TO_TIMESTAMP_LTZ(${ident(ms)}, 3)`);
  }
  if (rel.time) {
    lines.push(`WATERMARK FOR ${ident(rel.time)} AS ${ident(rel.time)} - ${interval(outOfOrderMs + 1)}`);
    comments.push(`watermark = max(${rel.time}) − ${outOfOrderMs} ms − 1 ms, as Weir computes it (like DataStream's BoundedOutOfOrderness)`);
  }
  if (key) lines.push(`PRIMARY KEY (${key.map(ident).join(', ')}) NOT ENFORCED`);
  if (connector !== 'datagen' && timestamps.length) {
    comments.push(`timestamps travel as epoch milliseconds: ${timestamps.map((t) => `\`${t}\` in \`${millisColumn(t, rel.columns)}\``).join(', ')}`);
  }
  // A changelog source names its format; upsert-kafka reads plain JSON keys and values.
  const changeFormat = changelog && changelog.format !== 'upsert' ? changelog.format : undefined;
  if (changelog) comments.push(changelogComment(changelog.format, key));
  // A CSV data file stays CSV for Flink's filesystem connector.
  const csv = node.kind === 'fileSource' && fileFormatOf(node.params as FileSourceParams, (node.params as FileSourceParams).path) === 'csv';
  const args = { node, connector, format: changeFormat ?? cx.options.kafkaFormat ?? 'json', fileFormat: changeFormat ?? (csv ? 'csv' : undefined) };
  let options;
  if (connector === 'datagen') {
    const gen = generatorFigures(node, eff, cx.plan.seed);
    comments.push(...(gp ? [] : [...gen.comments, fieldOptionsComment(rel.columns, rel.types)]));
    for (const w of datagenWarnings(literalComparisons(node, cx.plan, rel.columns), rel.types)) {
      comments.push(`WARNING: ${w}`);
      cx.warn(node.id, w);
    }
    const made = gp ? Object.fromEntries(rel.columns.filter((c) => !isArrivalColumn(gp.columns, c)).map((c) => [c, rel.types[c]])) : {};
    if (gp) comments.push("the columns are made as Weir makes them (the same datagen options; the random values differ)");
    options = connectorOptions({ ...args, rowsPerSecond: gen.rowsPerSecond, numberOfRows: gen.numberOfRows, timestampColumns: timestamps, maxPastMs: outOfOrderMs, ...(gp ? { fieldOptions: datagenFieldOptions(gp.columns, made) } : {}) });
  } else {
    const path = node.kind === 'fileSource' && typeof node.params.path === 'string' ? node.params.path : undefined;
    if (connector === 'filesystem') comments.push(...fileComments(node, path));
    options = connectorOptions({ ...args, path: path && /^[a-z]+:\/\//.test(path) ? path : undefined });
  }
  cx.setRelation(node.id, 'out', rel);
  return { name: node.id, comments, annotation: nodeAnnotation(node, cx.plan.doc, { params: dataParams(node) }), sql: `CREATE TABLE ${ident(node.id)} (\n${lines.map((l) => `  ${l}`).join(',\n')}\n) ${withClause(options)}` };
}

/**
 * A computed event time as Flink SQL's computed column: the expression itself when it is a
 * timestamp (TO_TIMESTAMP(…), CAST(… AS TIMESTAMP(3))), else epoch milliseconds made one.
 */
function computedTimeSql(expr: string, types: Record<string, string>): string {
  const text = flinkExpr(expr);
  let type: string | null = null;
  try {
    type = compileExpr(expr).typeOf(types as Record<string, FieldType>);
  } catch {
    /* validation reports a broken expression; the text is written as it is */
  }
  return type === 'timestamp' ? text : `TO_TIMESTAMP_LTZ(${text}, 3)`;
}

function changelogComment(format: string, key: string[] | null): string {
  if (format === 'upsert') return `upsert-kafka: the Kafka key holds ${key?.join(', ') ?? 'the primary key'}, a null value deletes it; Flink normalizes the stream (ChangelogNormalize) as Weir does`;
  return `the records are ${format} changes${key ? `; with the primary key Flink can normalize duplicates (table.exec.source.cdc-events-duplicate = 'true')` : ''}`;
}

function fileComments(node: PlanNode, path: string | undefined): string[] {
  if (node.kind === 'inlineSource') {
    const n = Array.isArray(node.params.rows) ? node.params.rows.length : 0;
    return [`the pipeline holds ${n} inline row(s): write them to this path as JSON Lines`];
  }
  if (path) return [`Weir reads ${path} relative to the pipeline file; point Flink at the same data`];
  return [];
}

/** Rate and size of a generator, in records (a unit may yield several records). */
function generatorFigures(node: PlanNode, eff: CommonSourceParams, jobSeed: number): { rowsPerSecond: number; numberOfRows?: number; comments: string[] } {
  const p = node.params as unknown as GeneratorSourceParams;
  const s = scenario(p.scenario);
  const perUnit = s?.meanRecordsPerUnit ?? s?.recordsPerUnit ?? 1;
  const rate = eff.ratePerSec ?? (p.ratePerSec ?? DEFAULT_GENERATOR_RATE) * perUnit;
  // The records the run emits, counted exactly (the mean per unit is only right on average).
  const inlineRows = node.kind === 'inlineSource' && Array.isArray(node.params.rows) ? node.params.rows.length : undefined;
  const numberOfRows = typeof p.count === 'number' && s ? recordCount(s, scenarioContext(p, derivedSeed(jobSeed, node.id))) : inlineRows;
  const data = node.kind === 'generatorSource' ? "the scenario's data" : "the pipeline's records";
  return {
    rowsPerSecond: Math.max(1, Math.round(rate)),
    numberOfRows,
    comments: [`datagen makes random values of the same types, not ${data}; use kafka or filesystem for real records`],
  };
}

/** The datagen options a person may add per column, named for this table's columns. */
function fieldOptionsComment(columns: readonly string[], types: Record<string, FieldType>): string {
  const per = columns.map((c) => {
    const t = types[c];
    if (t === 'number' || t === 'integer') return `'fields.${c}.min'/'max' or 'kind' = 'sequence' with 'start'/'end'`;
    if (t === 'string') return `'fields.${c}.length'`;
    if (t === 'timestamp') return `'fields.${c}.max-past'`;
    return null;
  });
  return `datagen field options to edit: ${per.filter(Boolean).join('; ') || 'none for these column types'}`;
}
