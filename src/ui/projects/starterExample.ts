import type { PipelineDocument } from '../../pipeline/document.ts';

/** Shown when public/examples is empty, so a first visit never opens on nothing. */
export const STARTER_EXAMPLE: PipelineDocument = {
  format: 'weir/pipeline',
  version: 1,
  name: 'Orders per customer',
  description: 'Counts orders and sums their amounts per customer: a keyed GROUP BY feeding a materialized view.',
  nodes: [
    {
      id: 'orders',
      kind: 'inlineSource',
      params: {
        rows: [
          { order_id: 'o1', customer: 'ann', amount: 30, ts: 1000 },
          { order_id: 'o2', customer: 'bob', amount: 12.5, ts: 1400 },
          { order_id: 'o3', customer: 'ann', amount: 8, ts: 2100 },
          { order_id: 'o4', customer: 'cy', amount: 99, ts: 2600 },
          { order_id: 'o5', customer: 'bob', amount: 4.5, ts: 3000 },
        ],
        schema: { order_id: 'string', customer: 'string', amount: 'number', ts: 'timestamp' },
        eventTime: { field: 'ts', maxOutOfOrdernessMs: 500 },
      },
      position: { x: 0, y: 40 },
    },
    { id: 'big', kind: 'filter', label: 'amount > 5', params: { where: 'amount > 5' }, position: { x: 280, y: 40 } },
    {
      id: 'per_customer',
      kind: 'aggregate',
      params: {
        groupBy: ['customer'],
        aggregates: [
          { fn: 'count', as: 'orders' },
          { fn: 'sum', field: 'amount', as: 'total' },
        ],
      },
      position: { x: 560, y: 40 },
    },
    { id: 'view', kind: 'viewSink', params: {}, position: { x: 840, y: 40 } },
  ],
  edges: [
    { from: { node: 'orders', port: 'out' }, to: { node: 'big', port: 'in' } },
    { from: { node: 'big', port: 'out' }, to: { node: 'per_customer', port: 'in' } },
    { from: { node: 'per_customer', port: 'out' }, to: { node: 'view', port: 'in' } },
  ],
};
