// Join pipelines for fault-injection tests: orders joined with their payments.

export type JoinType = 'inner' | 'left' | 'right' | 'full';

export interface JoinDocOptions {
  type: JoinType;
  parallelism: number;
  /** Orders generated; payments cover about 90% of them, 0–30 s later. */
  orders?: number;
  /** Distinct customers (the generator's `keys`). */
  keys?: number;
  /**
   * `multiset`: the view holds whole rows (no primary key), so every null-padded row and its
   * retraction must meet in one sink subtask. `upsert`: the view is keyed by order id.
   */
  view?: 'multiset' | 'upsert';
  seed?: number;
}

/** orders ⋈ payments on order_id → view, every operator at `parallelism`, sources at 1. */
export function ordersPaymentsJoinDoc(o: JoinDocOptions) {
  const count = o.orders ?? 600;
  const gen = (scenario: string) => ({ scenario, count, seed: o.seed ?? 7, keys: o.keys ?? 40, ratePerSec: 50, disorderMs: 2000 });
  return {
    format: 'weir/pipeline',
    version: 1,
    name: `orders-${o.type}-join-payments`,
    settings: { parallelism: 1, seed: 42 },
    nodes: [
      { id: 'orders', kind: 'generatorSource', params: gen('orders') },
      { id: 'payments', kind: 'generatorSource', params: gen('payments') },
      { id: 'paid', kind: 'join', params: { type: o.type, leftKey: ['order_id'], rightKey: ['order_id'] }, parallelism: o.parallelism },
      { id: 'view', kind: 'viewSink', params: o.view === 'upsert' ? { primaryKey: ['order_id'] } : {}, parallelism: o.parallelism },
    ],
    edges: [
      { from: { node: 'orders', port: 'out' }, to: { node: 'paid', port: 'left' } },
      { from: { node: 'payments', port: 'out' }, to: { node: 'paid', port: 'right' } },
      { from: { node: 'paid', port: 'out' }, to: { node: 'view', port: 'in' } },
    ],
  };
}
