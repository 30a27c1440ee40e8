import type { Rng } from '../core/rng.ts';
import type { Row } from '../core/types.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { disorder, money, rngFor, slot } from './scenario.ts';
import { CITIES, customerId } from './vocab.ts';

export interface Order extends Row {
  order_id: string;
  customer_id: string;
  city: string;
  amount: number;
  status: 'CREATED';
  ts: number;
}

/** Order i; payments and deliveries call this with `orderRng` to regenerate the very same order. */
export function orderAt(i: number, rng: Rng, ctx: ScenarioContext): Order {
  const lag = disorder(ctx, rng);
  const customer = 1 + rng.int(ctx.keys);
  return { order_id: `o-${i}`, customer_id: customerId(customer), city: rng.pick(CITIES), amount: money(rng, 5, 200), status: 'CREATED', ts: slot(ctx, i) - lag };
}

export const orderRng = (ctx: ScenarioContext, i: number): Rng => rngFor(ctx, 'orders', i);

/** How long the payment for order i trails it, or null when order i is never paid (10%). */
export function paymentDelay(ctx: ScenarioContext, i: number): number | null {
  const rng = rngFor(ctx, 'payments', i);
  return rng.next() < 0.9 ? rng.int(30_001) : null;
}

/** Shared by the order, payment and delivery streams, so that one seed tells one story. */
export const ORDER_KEYS = 100;

export const orders: Scenario = {
  name: 'orders',
  summary: 'Orders placed by `keys` customers; pairs with payments, deliveries and customers of the same seed.',
  fields: { order_id: 'string', customer_id: 'string', city: 'string', amount: 'number', status: 'string', ts: 'timestamp' },
  defaultKeys: ORDER_KEYS,
  row: (i, _rng, ctx) => orderAt(i, orderRng(ctx, i), ctx),
};
