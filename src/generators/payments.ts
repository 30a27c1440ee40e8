import type { Scenario } from './scenario.ts';
import { ORDER_KEYS, orderAt, orderRng, paymentDelay } from './orders.ts';
import { slot } from './scenario.ts';
import { PAYMENT_METHODS } from './vocab.ts';

/**
 * Payments for the orders of the same seed: 90% of orders are paid 0–30 s after they were
 * placed. Records are released in order of arrival, so event time is out of order by at most
 * disorderMs, as in the order stream.
 */
export const payments: Scenario = {
  name: 'payments',
  summary: 'Payments for 90% of the orders of the same seed, 0–30 s after each order.',
  fields: { payment_id: 'string', order_id: 'string', amount: 'number', method: 'string', ts: 'timestamp' },
  defaultKeys: ORDER_KEYS,
  meanRecordsPerUnit: 0.9,
  arrival(i, ctx) {
    const delay = paymentDelay(ctx, i);
    return delay === null ? null : slot(ctx, i) + delay;
  },
  row(i, rng, ctx) {
    const delay = paymentDelay(ctx, i);
    if (delay === null) return null;
    const order = orderAt(i, orderRng(ctx, i), ctx);
    return { payment_id: `p-${i}`, order_id: order.order_id, amount: order.amount, method: rng.pick(PAYMENT_METHODS), ts: order.ts + delay };
  },
};
