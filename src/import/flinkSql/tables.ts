/** CREATE TABLE → source or sink node; SET → document settings. */
import type { FieldType } from '../../pipeline/streamInfo.ts';
import type { PipelineSettings } from '../../pipeline/document.ts';
import type { Statement } from './statements.ts';
import type { Annotation, ImportContext, ImportedNode } from './context.ts';
import { fail } from './context.ts';
import { columnPlusInterval, durationMs } from './exprs.ts';

type CreateTable = Extract<Statement, { kind: 'createTable' }>;

const TYPES: [RegExp, FieldType][] = [
  [/^(STRING|VARCHAR|CHAR)\b/, 'string'],
  [/^(BIGINT|INT|INTEGER|SMALLINT|TINYINT)$/, 'integer'],
  [/^(DOUBLE|FLOAT|REAL|DECIMAL|NUMERIC)\b/, 'number'],
  [/^BOOLEAN$/, 'boolean'],
  [/^TIMESTAMP(_LTZ)?\b/, 'timestamp'],
];

function fieldType(col: CreateTable['columns'][number]): FieldType {
  const hit = TYPES.find(([re]) => re.test(col.type!));
  return hit ? hit[1] : fail(col.tok, `${col.type} column`, 'not a type the import maps to a Weir field type');
}

/** Columns as the pipeline sees them: `f_ms BIGINT` + `f AS TO_TIMESTAMP_LTZ(f_ms, 3)` is the timestamp `f`. */
export function tableColumns(t: CreateTable): { name: string; type: FieldType }[] {
  const carriers = new Set<string>();
  const computed = new Map<string, FieldType>();
  for (const c of t.columns) {
    if (!c.computed) continue;
    const tk = c.computed.tokens;
    const ok = tk.length === 6 && tk[0].upper === 'TO_TIMESTAMP_LTZ' && tk[1].value === '(' && tk[3].value === ',' && tk[4].value === '3' && tk[5].value === ')';
    if (!ok) fail(c.computed, 'computed column', 'the only computed column the import reads is `f` AS TO_TIMESTAMP_LTZ(`f_ms`, 3)');
    carriers.add(tk[2].value);
    computed.set(c.name, 'timestamp');
  }
  return t.columns.filter((c) => !carriers.has(c.name)).map((c) => ({ name: c.name, type: c.computed ? computed.get(c.name)! : fieldType(c) }));
}

export function sourceNode(cx: ImportContext, t: CreateTable, ann: Annotation | null): ImportedNode {
  const columns = tableColumns(t);
  const connector = t.options.connector ?? fail(t.tok, 'CREATE TABLE', "the WITH options name no 'connector'");
  const annotated = ann && typeof ann.kind === 'string' && /Source$/.test(ann.kind) ? ann : null;
  const { idleTimeoutMs, ...data } = (annotated?.params ?? {}) as Record<string, unknown> & { idleTimeoutMs?: number };
  let kind = annotated?.kind as string | undefined;
  if (!kind) {
    kind = 'fileSource';
    if (connector === 'filesystem' && t.options.path && !t.options.path.includes('<')) data.path = t.options.path;
    else cx.warn(t.tok, `\`${t.name}\` (${connector}) becomes a JSON Lines file source: give it an input when you run the pipeline`);
  }
  const params: Record<string, unknown> = { ...data };
  if (kind !== 'generatorSource' && params.schema === undefined) params.schema = Object.fromEntries(columns.map((c) => [c.name, c.type]));
  if (t.watermark) {
    const wm = columnPlusInterval(t.watermark.expr, cx.sql, 'WATERMARK');
    if (wm.column !== t.watermark.column || wm.ms > 0) fail(t.watermark.expr, 'WATERMARK', `expected ${t.watermark.column} - INTERVAL …`);
    // The export adds Weir's extra millisecond (watermark = max − bound − 1); take it back off.
    params.eventTime = { field: t.watermark.column, maxOutOfOrdernessMs: Math.max(0, -wm.ms - 1), ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) };
  }
  return { id: t.name, kind, params, inputs: [], annotation: ann };
}

export function sinkNode(t: CreateTable, ann: Annotation | null, from: string): ImportedNode {
  const connector = t.options.connector;
  const annotated = ann && typeof ann.kind === 'string' && /Sink$/.test(ann.kind) ? ann : null;
  let kind = annotated?.kind as string | undefined;
  let params = (annotated?.params as Record<string, unknown> | undefined) ?? {};
  if (!kind) {
    kind = connector === 'print' ? 'logSink' : connector === 'blackhole' ? 'collectSink' : 'viewSink';
    params = kind === 'viewSink' && t.primaryKey ? { primaryKey: t.primaryKey } : {};
  }
  return { id: t.name, kind, params, inputs: [['in', from]], annotation: ann };
}

/** Applies one SET to the settings; unknown keys are reported, not fatal. */
export function applySetting(cx: ImportContext, s: Extract<Statement, { kind: 'set' }>, settings: PipelineSettings, doc: { name?: string }): void {
  const ms = () => durationMs(s.value) ?? fail(s.tok, `SET '${s.key}'`, `expected a duration such as '1000 ms', found '${s.value}'`);
  const int = () => (/^\d+$/.test(s.value) ? Number(s.value) : fail(s.tok, `SET '${s.key}'`, `expected a whole number, found '${s.value}'`));
  // Without an interval SET the export's pipeline checkpoints manually only (Flink then takes none).
  const checkpoint = (settings.checkpoint ??= { intervalMs: null });
  switch (s.key) {
    case 'pipeline.name':
      doc.name = s.value;
      return;
    case 'execution.checkpointing.interval':
      checkpoint.intervalMs = ms();
      return;
    case 'execution.checkpointing.timeout':
      checkpoint.timeoutMs = ms();
      return;
    case 'state.checkpoints.num-retained':
      checkpoint.retain = int();
      return;
    case 'state.backend.incremental':
      if (s.value === 'true') checkpoint.incremental = true;
      return;
    case 'state.backend.type':
      if (!cx.annotated) settings.stateBackend = s.value === 'rocksdb' ? 'indexeddb' : 'memory';
      return;
    case 'parallelism.default':
      settings.parallelism = int();
      return;
    case 'pipeline.max-parallelism':
      settings.maxParallelism = int();
      return;
    case 'table.exec.state.ttl':
      cx.globalTtlMs = ms();
      return;
    case 'table.exec.source.idle-timeout':
      // With the export's annotations, sources carry their own timeouts and the document's is annotated.
      if (!cx.annotated) settings.idleTimeoutMs = ms();
      return;
    case 'execution.runtime-mode':
    case 'table.local-time-zone':
      if (s.value !== (s.key === 'execution.runtime-mode' ? 'streaming' : 'UTC')) cx.warn(s.tok, `SET '${s.key}' = '${s.value}' differs from Weir's semantics (streaming, UTC)`);
      return;
    default:
      cx.warn(s.tok, `SET '${s.key}' has no Weir equivalent and is ignored`);
  }
}

