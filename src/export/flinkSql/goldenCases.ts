/**
 * One small pipeline per operator kind (and per notable variant), for the golden-file tests that
 * pin the exact SQL of each mapping, and for the parse, semantic and round-trip checks.
 */
import type { PipelineDocument, PipelineEdge, PipelineNode, PipelineSettings } from '../../pipeline/document.ts';
import type { FieldType } from '../../core/streamInfo.ts';
import type { FlinkSqlExportOptions } from './options.ts';

export interface GoldenCase {
  name: string;
  doc: PipelineDocument;
  options?: FlinkSqlExportOptions;
}

type Schema = Record<string, FieldType>;
const T0 = 1_700_000_000_000;

export const ORDERS: Schema = { order_id: 'string', customer_id: 'string', amount: 'number', status: 'string', ts: 'timestamp' };
const orderRows = [
  { order_id: 'o1', customer_id: 'c1', amount: 12.5, status: 'PAID', ts: T0 },
  { order_id: 'o2', customer_id: 'c2', amount: 30, status: 'NEW', ts: T0 + 20_000 },
  { order_id: 'o3', customer_id: 'c1', amount: 7.25, status: 'PAID', ts: T0 + 70_000 },
  { order_id: 'o2', customer_id: 'c2', amount: 30, status: 'PAID', ts: T0 + 90_000 },
  { order_id: 'o4', customer_id: 'c3', amount: null, status: 'NEW', ts: T0 + 150_000 },
];
export const CUSTOMERS: Schema = { customer_id: 'string', name: 'string', tier: 'string', ts: 'timestamp' };
const customerRows = [
  { customer_id: 'c1', name: 'Ann', tier: 'gold', ts: T0 - 1000 },
  { customer_id: 'c2', name: 'Bob', tier: 'silver', ts: T0 + 10_000 },
  { customer_id: 'c1', name: 'Ann', tier: 'platinum', ts: T0 + 60_000 },
];

const source = (id: string, schema: Schema, rows: Record<string, unknown>[], outOfOrderMs = 1000): PipelineNode => ({
  id,
  kind: 'inlineSource',
  params: { rows, schema, eventTime: { field: 'ts', maxOutOfOrdernessMs: outOfOrderMs } },
});
const orders = (): PipelineNode => source('orders', ORDERS, orderRows);
const customers = (): PipelineNode => source('customers', CUSTOMERS, customerRows);
const node = (id: string, kind: string, params: Record<string, unknown> = {}): PipelineNode => ({ id, kind, params });
const edge = (from: string, to: string, toPort = 'in', fromPort = 'out'): PipelineEdge => ({ from: { node: from, port: fromPort }, to: { node: to, port: toPort } });

function doc(name: string, nodes: PipelineNode[], edges: PipelineEdge[], settings: PipelineSettings = { checkpoint: { intervalMs: 5000 }, parallelism: 1 }): PipelineDocument {
  return { format: 'weir/pipeline', version: 1, name, settings, nodes, edges };
}

/** source → op → sink, the shape most cases share. */
function chain(name: string, op: PipelineNode, sink: PipelineNode = node('out', 'viewSink'), src: PipelineNode = orders()): PipelineDocument {
  return doc(name, [src, op, sink], [edge(src.id, op.id), edge(op.id, sink.id)]);
}

const agg = (fn: string, field: string | undefined, as: string) => (field ? { fn, field, as } : { fn, as });

export const goldenCases: GoldenCase[] = [
  { name: 'source-inline', doc: doc('inline', [orders(), node('log', 'logSink')], [edge('orders', 'log')]) },
  {
    name: 'source-file-kafka',
    doc: doc('file', [node('visits', 'fileSource', { path: 'visits.jsonl', schema: { customer: 'string', amount: 'number', ts: 'timestamp' }, eventTime: { field: 'ts', maxOutOfOrdernessMs: 250_000, idleTimeoutMs: 30_000 } }), node('all', 'collectSink')], [edge('visits', 'all')]),
    options: { connectors: { visits: 'kafka', all: 'blackhole' } },
  },
  {
    name: 'source-computed-event-time',
    doc: doc('computed time', [node('logins', 'fileSource', { path: 'logins.jsonl', schema: { user_id: 'string', at: 'string' }, eventTime: { field: 'login_time', expr: "TO_TIMESTAMP(`at`, 'dd/MM/yyyy HH:mm:ss')", maxOutOfOrdernessMs: 1999 } }), node('all', 'collectSink')], [edge('logins', 'all')]),
    options: { connectors: { all: 'blackhole' } },
  },
  {
    name: 'source-debezium',
    doc: chain(
      'debezium',
      node('by_tier', 'aggregate', { groupBy: ['tier'], aggregates: [agg('count', undefined, 'n')] }),
      node('tiers', 'viewSink'),
      node('customers', 'fileSource', { path: 'customers.cdc.jsonl', schema: CUSTOMERS, eventTime: { field: 'ts', maxOutOfOrdernessMs: 0 }, changelog: { format: 'debezium-json', primaryKey: ['customer_id'] } }),
    ),
  },
  {
    name: 'source-changelog-json',
    doc: doc('changelog-json', [node('customers', 'fileSource', { schema: CUSTOMERS, changelog: { format: 'changelog-json' } }), node('all', 'logSink')], [edge('customers', 'all')]),
  },
  {
    name: 'source-upsert',
    doc: chain(
      'upsert',
      node('by_tier', 'aggregate', { groupBy: ['tier'], aggregates: [agg('count', undefined, 'n')] }),
      node('tiers', 'viewSink'),
      { id: 'customers', kind: 'inlineSource', params: { rows: [{ key: { customer_id: 'c1' }, value: { name: 'Ann', tier: 'gold', ts: T0 } }, { key: { customer_id: 'c1' }, value: null }], schema: CUSTOMERS, changelog: { format: 'upsert', primaryKey: ['customer_id'] } } },
    ),
  },
  {
    name: 'source-generator',
    doc: doc('generated', [node('gen', 'generatorSource', { scenario: 'orders', count: 100, ratePerSec: 5, disorderMs: 1500 }), node('raw', 'viewSink')], [edge('gen', 'raw')], { stateBackend: 'indexeddb', checkpoint: { intervalMs: null }, parallelism: 2, maxParallelism: 64 }),
  },
  { name: 'filter', doc: chain('filter', node('big', 'filter', { where: "amount >= 10 AND status IN ('PAID', 'NEW')" })) },
  { name: 'filter-code', doc: chain('filter code', node('big', 'filter', { code: '(row) => row.amount > 10' })) },
  { name: 'map', doc: chain('map', node('taxed', 'map', { set: [{ name: 'amount', expr: 'ROUND(amount * 1.2, 2)' }, { name: 'paid', expr: "status = 'PAID'" }] })) },
  {
    name: 'map-code',
    doc: chain('map code', node('tagged', 'map', { code: '(row) => ({ ...row, tag: row.status.toLowerCase() })', outputSchema: { ...ORDERS, tag: 'string' } })),
  },
  {
    name: 'project',
    doc: chain('project', node('slim', 'project', { fields: [{ name: 'id', expr: 'order_id' }, { name: 'cents', expr: 'CAST(amount * 100 AS BIGINT)' }, { name: 'ts', expr: 'ts' }] })),
  },
  {
    name: 'flatMap',
    doc: chain('flatMap', node('chars', 'flatMap', { code: "(row) => row.status.split('').map((c) => ({ order_id: row.order_id, c, ts: row.ts }))", outputSchema: { order_id: 'string', c: 'string', ts: 'timestamp' } })),
  },
  { name: 'keyBy', doc: chain('keyBy', node('by_customer', 'keyBy', { key: ['customer_id'] }), node('log', 'logSink')) },
  {
    name: 'union',
    doc: doc(
      'union',
      [orders(), source('more_orders', { ts: 'timestamp', order_id: 'string', customer_id: 'string', amount: 'number', status: 'string' }, []), node('all', 'union'), node('log', 'logSink')],
      [edge('orders', 'all'), edge('more_orders', 'all'), edge('all', 'log')],
    ),
  },
  {
    name: 'aggregate',
    doc: chain(
      'aggregate',
      node('per_customer', 'aggregate', {
        groupBy: ['customer_id'],
        aggregates: [agg('count', undefined, 'n'), agg('count', 'amount', 'priced'), agg('sum', 'amount', 'total'), agg('avg', 'amount', 'mean'), agg('min', 'ts', 'first_ts'), agg('max', 'amount', 'biggest'), agg('countDistinct', 'status', 'statuses')],
      }),
    ),
  },
  {
    name: 'aggregate-udaf',
    doc: chain('udaf', node('spread', 'aggregate', { groupBy: [], aggregates: [{ fn: 'udaf', field: 'amount', as: 'range', code: '({ create: () => [null, null], add: (a, v) => a, get: (a) => 0 })' }] }), node('log', 'logSink')),
  },
  {
    name: 'aggregate-first-last',
    doc: chain('first last', node('ends', 'aggregate', { groupBy: ['customer_id'], aggregates: [agg('firstValue', 'status', 'first_status'), agg('lastValue', 'status', 'last_status'), agg('lastValue', 'amount', 'last_amount')] })),
  },
  {
    name: 'aggregate-listagg',
    doc: chain('listagg', node('lists', 'aggregate', { groupBy: ['customer_id'], aggregates: [agg('listAgg', 'status', 'statuses'), { fn: 'listAgg', field: 'order_id', as: 'order_ids', separator: "; it's " }] })),
  },
  {
    name: 'window-tumble',
    doc: chain('tumble', node('per_minute', 'window', { type: 'tumble', sizeMs: 60_000, offsetMs: -15_000, groupBy: ['customer_id'], aggregates: [agg('sum', 'amount', 'total')] })),
  },
  { name: 'window-hop', doc: chain('hop', node('sliding', 'window', { type: 'hop', sizeMs: 600_000, slideMs: 150_000, groupBy: [], aggregates: [agg('count', undefined, 'n')] })) },
  {
    name: 'window-cumulate',
    doc: chain('cumulate', node('so_far', 'window', { type: 'cumulate', sizeMs: 86_400_000, stepMs: 3_600_000, groupBy: ['status'], aggregates: [agg('max', 'amount', 'top')], allowedLatenessMs: 5000 })),
  },
  { name: 'window-session', doc: chain('session', node('visits', 'window', { type: 'session', gapMs: 45_000, groupBy: ['customer_id'], aggregates: [agg('count', undefined, 'n')] })) },
  {
    name: 'join-ttl',
    doc: doc('join', [orders(), customers(), node('enriched', 'join', { type: 'inner', leftKey: ['customer_id'], rightKey: ['customer_id'], ttlMs: 3_600_000 }), node('out', 'viewSink', { primaryKey: ['order_id', 'customer_id_right', 'ts_right'] })], [edge('orders', 'enriched', 'left'), edge('customers', 'enriched', 'right'), edge('enriched', 'out')]),
  },
  {
    name: 'join-full-hint',
    doc: doc(
      'full join',
      [orders(), customers(), node('both', 'join', { type: 'full', leftKey: ['customer_id'], rightKey: ['customer_id'], ttlMs: 600_000 }), node('per_customer', 'aggregate', { groupBy: ['customer_id'], aggregates: [agg('count', undefined, 'n')] }), node('out', 'viewSink')],
      [edge('orders', 'both', 'left'), edge('customers', 'both', 'right'), edge('both', 'per_customer'), edge('per_customer', 'out')],
    ),
  },
  {
    name: 'intervalJoin',
    doc: doc('interval', [orders(), customers(), node('near', 'intervalJoin', { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'], lowerBoundMs: -30_000, upperBoundMs: 90_500 }), node('log', 'logSink')], [edge('orders', 'near', 'left'), edge('customers', 'near', 'right'), edge('near', 'log')]),
  },
  {
    name: 'temporalJoin',
    doc: doc('temporal', [orders(), customers(), node('as_of', 'temporalJoin', { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'] }), node('log', 'logSink')], [edge('orders', 'as_of', 'left'), edge('customers', 'as_of', 'right'), edge('as_of', 'log')]),
  },
  {
    name: 'lookupJoin',
    doc: doc('lookup', [orders(), customers(), node('enrich', 'lookupJoin', { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'] }), node('log', 'logSink')], [edge('orders', 'enrich', 'left'), edge('customers', 'enrich', 'right'), edge('enrich', 'log')]),
  },
  {
    name: 'lookupJoin-on-arrival',
    doc: doc('lookup on arrival', [orders(), customers(), node('enrich', 'lookupJoin', { type: 'inner', leftKey: ['customer_id'], rightKey: ['customer_id'], loadFirst: false }), node('log', 'logSink')], [edge('orders', 'enrich', 'left'), edge('customers', 'enrich', 'right'), edge('enrich', 'log')]),
  },
  { name: 'topN', doc: chain('topN', node('top2', 'topN', { partitionBy: ['customer_id'], orderBy: [{ field: 'amount', direction: 'desc' }, { field: 'ts', direction: 'asc' }], n: 2 })) },
  { name: 'dedup-first-arrival', doc: chain('dedup first', node('firsts', 'dedup', { key: ['order_id'], keep: 'first' }), node('out', 'viewSink', { primaryKey: ['order_id'] })) },
  { name: 'dedup-last-eventtime', doc: chain('dedup last', node('latest', 'dedup', { key: ['order_id'], keep: 'last', order: 'eventTime' })) },
  {
    name: 'process',
    doc: doc(
      'process',
      [orders(), node('by_customer', 'keyBy', { key: ['customer_id'] }), node('counter', 'process', { code: '({ state: { n: { kind: "value" } }, processElement(row, ctx) { ctx.emit({ customer_id: ctx.key, ts: row.ts }) } })', outputSchema: { customer_id: 'string', ts: 'timestamp' } }), node('log', 'logSink')],
      [edge('orders', 'by_customer'), edge('by_customer', 'counter'), edge('counter', 'log')],
    ),
  },
  {
    name: 'broadcastProcess',
    doc: doc(
      'broadcast',
      [orders(), source('limits', { status: 'string', max_amount: 'number', ts: 'timestamp' }, [{ status: 'PAID', max_amount: 20, ts: T0 }]), node('checked', 'broadcastProcess', { ruleKey: 'status', lookup: 'status' }), node('log', 'logSink')],
      [edge('orders', 'checked'), edge('limits', 'checked', 'rules'), edge('checked', 'log')],
    ),
  },
  {
    name: 'expression-notes',
    doc: chain(
      'expression notes',
      node('shaped', 'project', { fields: [{ name: 'order_id', expr: 'order_id' }, { name: 'half', expr: 'qty / 2' }, { name: 'channel', expr: 'meta.channel' }, { name: 'ts', expr: 'ts' }] }),
      node('out', 'viewSink'),
      source('orders', { order_id: 'string', qty: 'integer', meta: 'json', ts: 'timestamp' }, [{ order_id: 'o1', qty: 3, meta: { channel: 'web' }, ts: T0 }]),
    ),
  },
  { name: 'sink-jdbc', doc: chain('jdbc', node('per_status', 'aggregate', { groupBy: ['status'], aggregates: [agg('sum', 'amount', 'total')] })), options: { connectors: { out: 'jdbc' }, stateBackend: 'rocksdb', incremental: true } },
  {
    name: 'window-late',
    doc: doc('late', [orders(), node('w', 'window', { type: 'tumble', sizeMs: 60_000, groupBy: [], aggregates: [agg('count', undefined, 'n')] }), node('out', 'viewSink'), node('late_log', 'logSink')], [edge('orders', 'w'), edge('w', 'out'), edge('w', 'late_log', 'in', 'late')]),
  },
];

/** OVER aggregation, non-equi joins and the window operators: pinned, verified and round-tripped like the rest. */
export const windowedGoldenCases: GoldenCase[] = [
  { name: 'over-rows', doc: chain('over rows', node('running', 'overAggregate', { partitionBy: ['customer_id'], frame: 'rows', precedingRows: 2, aggregates: [agg('sum', 'amount', 'last3')] }), node('log', 'logSink')) },
  {
    name: 'over-lag',
    doc: chain('over lag', node('previous', 'overAggregate', {
      partitionBy: ['customer_id'],
      frame: 'range',
      aggregates: [
        { fn: 'lag', field: 'amount', as: 'prev_amount' },
        { fn: 'lag', field: 'amount', as: 'amount_2_back', offset: 2, default: 0 },
        { fn: 'lag', field: 'status', as: 'prev_status', offset: 1, default: 'none' },
        agg('firstValue', 'status', 'first_status'),
        agg('lastValue', 'amount', 'last_amount'),
        agg('sum', 'amount', 'running'),
      ],
    }), node('log', 'logSink')),
  },
  { name: 'over-first-last-rows', doc: chain('over first last rows', node('ends', 'overAggregate', { partitionBy: [], frame: 'rows', precedingRows: 1, aggregates: [agg('firstValue', 'amount', 'first2'), agg('lastValue', 'amount', 'last2')] }), node('log', 'logSink')) },
  { name: 'over-range', doc: chain('over range', node('hourly', 'overAggregate', { partitionBy: [], frame: 'range', precedingMs: 3_600_000, aggregates: [agg('count', undefined, 'n'), agg('max', 'amount', 'top')] }), node('log', 'logSink')) },
  {
    name: 'join-nonequi',
    doc: doc(
      'non-equi join',
      [orders(), customers(), node('big', 'join', { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'], nonEquiCondition: "amount > 10 AND tier <> 'gold' AND ts_right <= ts" }), node('out', 'logSink')],
      [edge('orders', 'big', 'left'), edge('customers', 'big', 'right'), edge('big', 'out')],
    ),
  },
  {
    name: 'window-join',
    doc: doc(
      'window join',
      [orders(), customers(), node('same_minute', 'windowJoin', { type: 'inner', leftKey: ['customer_id'], rightKey: ['customer_id'], window: { type: 'tumble', sizeMs: 60_000 } }), node('log', 'logSink')],
      [edge('orders', 'same_minute', 'left'), edge('customers', 'same_minute', 'right'), edge('same_minute', 'log')],
    ),
  },
  {
    name: 'window-topN-after-window',
    doc: doc(
      'window top-n',
      [orders(), node('per_minute', 'window', { type: 'tumble', sizeMs: 60_000, groupBy: ['customer_id'], aggregates: [agg('sum', 'amount', 'total')] }), node('top1', 'topN', { partitionBy: [], orderBy: [{ field: 'total', direction: 'desc' }], n: 1, window: { type: 'columns' } }), node('log', 'logSink')],
      [edge('orders', 'per_minute'), edge('per_minute', 'top1'), edge('top1', 'log')],
    ),
  },
  {
    name: 'semi-anti-join',
    doc: doc(
      'semi and anti joins',
      [
        orders(),
        customers(),
        node('known', 'semiJoin', { type: 'semi', leftKey: ['customer_id'], rightKey: ['customer_id'], nonEquiCondition: "tier <> 'silver' AND ts_right <= ts" }),
        node('unknown', 'semiJoin', { type: 'anti', leftKey: ['customer_id'], rightKey: ['customer_id'] }),
        node('not_in', 'semiJoin', { type: 'anti', leftKey: [], rightKey: [], nullAware: { left: 'customer_id', right: 'customer_id' } }),
        node('known_out', 'logSink'),
        node('unknown_out', 'logSink'),
        node('not_in_out', 'logSink'),
        node('same_null', 'semiJoin', { type: 'semi', leftKey: ['customer_id'], rightKey: ['customer_id'], nullSafeKeys: true }),
        node('same_null_out', 'logSink'),
      ],
      [
        edge('orders', 'known', 'left'),
        edge('customers', 'known', 'right'),
        edge('orders', 'unknown', 'left'),
        edge('customers', 'unknown', 'right'),
        edge('orders', 'not_in', 'left'),
        edge('customers', 'not_in', 'right'),
        edge('known', 'known_out'),
        edge('unknown', 'unknown_out'),
        edge('not_in', 'not_in_out'),
        edge('orders', 'same_null', 'left'),
        edge('customers', 'same_null', 'right'),
        edge('same_null', 'same_null_out'),
      ],
    ),
  },
  { name: 'window-dedup', doc: chain('window dedup', node('first_per_minute', 'dedup', { key: ['customer_id'], keep: 'first', window: { type: 'tumble', sizeMs: 60_000 } }), node('log', 'logSink')) },
];
