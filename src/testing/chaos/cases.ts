import { loadExamples } from '../examples.ts';
import { kindSpec } from '../../pipeline/kinds/index.ts';
import { ordersPaymentsJoinDoc } from './joinDocs.ts';
import type { JoinType } from './joinDocs.ts';

// The pipelines of the chaos matrix: every example, and one pipeline per stateful operator kind.
// Generated inputs are capped so a trial takes well under a second; every case also carries the
// sequence probe (below), so every trial checks the per-key sequence property.

export interface ChaosCase {
  name: string;
  /** The document at parallelism 1; `atParallelism` sets the trial's. */
  doc: Record<string, unknown>;
}

type Doc = { nodes: { id: string; kind: string; params: Record<string, unknown>; parallelism?: number }[]; edges: unknown[]; [k: string]: unknown };

const MAX_GENERATED = 400;
const MAX_INLINE = 400;

const gen = (id: string, scenario: string, extra: Record<string, unknown> = {}) => ({ id, kind: 'generatorSource', params: { scenario, count: 300, seed: 7, keys: 30, ratePerSec: 50, disorderMs: 1000, ...extra } });
const edge = (from: string, to: string, port = 'in') => ({ from: { node: from, port: 'out' }, to: { node: to, port } });
const doc = (name: string, nodes: unknown[], edges: unknown[]) => ({ format: 'weir/pipeline', version: 1, name, settings: { seed: 42 }, nodes, edges });

/**
 * Flink's SemanticsCheckMapper as a process function: each key's sequence numbers must arrive
 * as 1, 2, 3, … exactly once. The check's own state is checkpointed with the job, so a replay
 * after a restore that skipped or repeated a record emits a violation into `seq_violations`.
 */
export const SEQUENCE_CHECK_CODE = `({
  state: { last: { kind: 'value' } },
  processElement(row, ctx) {
    const last = ctx.state.last.value() ?? 0;
    if (row.seq !== last + 1) ctx.emit({ key: ctx.key, expected: last + 1, got: row.seq });
    ctx.state.last.update(row.seq);
  },
})`;

export const SEQUENCE_VIOLATIONS = 'seq_violations';

/** Adds the sequence probe (sequence source → keyBy → check → view) beside the case's own graph. */
export function withSequenceProbe(d: Doc): Doc {
  return {
    ...d,
    nodes: [
      ...d.nodes,
      { id: 'seq_src', kind: 'generatorSource', params: { scenario: 'sequence', count: 300, keys: 11, seed: 5, ratePerSec: 50 } },
      { id: 'seq_by_key', kind: 'keyBy', params: { key: ['key'] } },
      { id: 'seq_check', kind: 'process', params: { code: SEQUENCE_CHECK_CODE, outputSchema: { key: 'string', expected: 'integer', got: 'integer' } } },
      { id: SEQUENCE_VIOLATIONS, kind: 'viewSink', params: {} },
    ],
    edges: [...d.edges, edge('seq_src', 'seq_by_key'), edge('seq_by_key', 'seq_check'), edge('seq_check', SEQUENCE_VIOLATIONS)],
  };
}

/** Generated and inline inputs capped, so the matrix stays fast. */
function capped(d: Doc): Doc {
  return {
    ...d,
    nodes: d.nodes.map((n) => {
      if (n.kind === 'generatorSource' && typeof n.params.count === 'number') return { ...n, params: { ...n.params, count: Math.min(n.params.count, MAX_GENERATED) } };
      if (n.kind === 'inlineSource' && Array.isArray(n.params.rows)) return { ...n, params: { ...n.params, rows: n.params.rows.slice(0, MAX_INLINE) } };
      return n;
    }),
  };
}

/**
 * Stateful operators and sinks get parallelism `p`; sources and stateless steps keep one, so
 * every key's records reach its keyed operator over one path and in one order (a parallel
 * filter between a source and a keep-first dedup would make the plain run itself vary).
 */
export function atParallelism(d: Record<string, unknown>, p: number): Record<string, unknown> {
  const x = d as Doc;
  const parallel = (kind: string) => kindSpec(kind)?.stateful === true || kindSpec(kind)?.group === 'sinks';
  return { ...x, nodes: x.nodes.map((n) => (n.parallelism !== undefined || !parallel(n.kind) ? n : { ...n, parallelism: p })) };
}

const joinCase = (type: JoinType): ChaosCase => ({ name: `join-${type}`, doc: ordersPaymentsJoinDoc({ type, parallelism: 1, orders: 300 }) });

function kindCases(): ChaosCase[] {
  return [
    joinCase('left'),
    joinCase('full'),
    joinCase('inner'),
    joinCase('right'),
    {
      name: 'interval-join-left',
      doc: doc('interval-left', [gen('orders', 'orders'), gen('deliveries', 'deliveries'), { id: 'j', kind: 'intervalJoin', params: { type: 'left', leftKey: ['order_id'], rightKey: ['order_id'], lowerBoundMs: 0, upperBoundMs: 20_000 } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('orders', 'j', 'left'), edge('deliveries', 'j', 'right'), edge('j', 'view')]),
    },
    {
      name: 'temporal-join',
      doc: doc('temporal', [gen('orders', 'orders'), gen('customers', 'customers', { count: 120 }), { id: 'j', kind: 'temporalJoin', params: { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'] } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('orders', 'j', 'left'), edge('customers', 'j', 'right'), edge('j', 'view')]),
    },
    {
      // The customers table ends first or last depending on the schedule: orders wait for it, so
      // kills land while they are buffered as well as after.
      name: 'lookup-join',
      doc: doc('lookup', [gen('orders', 'orders'), gen('customers', 'customers', { count: 120 }), { id: 'j', kind: 'lookupJoin', params: { type: 'left', leftKey: ['customer_id'], rightKey: ['customer_id'] } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('orders', 'j', 'left'), edge('customers', 'j', 'right'), edge('j', 'view')]),
    },
    {
      name: 'top-n-updating',
      doc: doc('topn', [gen('sales', 'retailTransactions', { keys: 12 }), { id: 'agg', kind: 'aggregate', params: { groupBy: ['store_id'], aggregates: [{ fn: 'sum', field: 'amount', as: 'revenue' }] } }, { id: 'top', kind: 'topN', params: { partitionBy: [], orderBy: [{ field: 'revenue', direction: 'desc' }], n: 3 } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('sales', 'agg'), edge('agg', 'top'), edge('top', 'view')]),
    },
    {
      name: 'dedup-keep-last',
      doc: doc('dedup', [gen('orders', 'orders'), { id: 'last', kind: 'dedup', params: { key: ['customer_id'], keep: 'last', order: 'eventTime' } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('orders', 'last'), edge('last', 'view')]),
    },
    {
      // LAG's last values and FIRST/LAST_VALUE live in the OVER window's keyed accumulators: a restore must bring them back.
      name: 'over-lag',
      doc: doc('over-lag', [gen('orders', 'orders'), { id: 'over', kind: 'overAggregate', params: { partitionBy: ['customer_id'], frame: 'range', aggregates: [{ fn: 'lag', field: 'amount', as: 'prev_amount', offset: 2, default: 0 }, { fn: 'firstValue', field: 'amount', as: 'first_amount' }, { fn: 'lastValue', field: 'amount', as: 'last_amount' }, { fn: 'count', as: 'n' }] } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('orders', 'over'), edge('over', 'view')]),
    },
    {
      name: 'session-window',
      doc: doc('sessions', [gen('visits', 'coffeeVisits', { ratePerSec: 0.5, disorderMs: 30_000 }), { id: 'w', kind: 'window', params: { type: 'session', gapMs: 120_000, groupBy: ['customer_id'], aggregates: [{ fn: 'count', as: 'events' }] } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('visits', 'w'), edge('w', 'view')]),
    },
    {
      name: 'process-timers',
      doc: doc(
        'timers',
        [
          gen('orders', 'orders'),
          { id: 'by_customer', kind: 'keyBy', params: { key: ['customer_id'] } },
          {
            id: 'p',
            kind: 'process',
            params: {
              // Per key and 5 s bucket of event time: count, and report at the bucket's end. No
              // record is late (the watermark trails by the disorder), so the result does not
              // depend on when watermarks arrive.
              code: `({
  state: { buckets: { kind: 'map' } },
  processElement(row, ctx) {
    const end = Math.floor(ctx.timestamp / 5000) * 5000 + 5000;
    const n = ctx.state.buckets.get(end) ?? 0;
    ctx.state.buckets.put(end, n + 1);
    if (n === 0) ctx.timerService.registerEventTimeTimer(end - 1);
  },
  onTimer(timestamp, ctx) {
    ctx.emit({ customer: ctx.key, orders: ctx.state.buckets.get(timestamp + 1), at: timestamp });
    ctx.state.buckets.remove(timestamp + 1);
  },
})`,
              outputSchema: { customer: 'string', orders: 'integer', at: 'timestamp' },
            },
          },
          { id: 'view', kind: 'viewSink', params: {} },
        ],
        [edge('orders', 'by_customer'), edge('by_customer', 'p'), edge('p', 'view')],
      ),
    },
    {
      // COUNT/SUM/AVG only: the view runs chained behind the GROUP BY (memory state) and reads its groups.
      name: 'keyed-count-chained',
      doc: doc('chained', [gen('events', 'sequence', { keys: 17 }), { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'seq', as: 'seqSum' }] } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('events', 'agg'), edge('agg', 'view')]),
    },
    {
      name: 'keyed-count',
      doc: doc('count', [gen('events', 'sequence', { keys: 17 }), { id: 'agg', kind: 'aggregate', params: { groupBy: ['key'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'max', field: 'seq', as: 'maxSeq' }, { fn: 'countDistinct', field: 'seq', as: 'distinctSeq' }] } }, { id: 'view', kind: 'viewSink', params: {} }], [edge('events', 'agg'), edge('agg', 'view')]),
    },
  ];
}

let cached: ChaosCase[] | null = null;

/** Every example (capped) and every kind case, each with the sequence probe. */
export function chaosCases(): ChaosCase[] {
  cached ??= [...loadExamples().map(({ entry, doc: d }) => ({ name: `example:${entry.file.replace(/\.json$/, '')}`, doc: d })), ...kindCases()].map((c) => ({
    name: c.name,
    doc: withSequenceProbe(capped(c.doc as Doc)),
  }));
  return cached;
}
