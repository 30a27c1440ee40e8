import type { Scenario, ScenarioContext } from './scenario.ts';
import { between, rngFor, slot } from './scenario.ts';
import { ORDER_KEYS, orderAt, orderRng, paymentDelay } from './orders.ts';
import { COURIERS } from './vocab.ts';

interface Trip {
  courier: string;
  /** Offsets from the order's slot. */
  pickedUp: number;
  delivered: number;
}

/** The delivery of paid order j: picked up 30 s–3 min after payment, delivered 1–10 min later. */
function trip(ctx: ScenarioContext, j: number): Trip | null {
  const paid = paymentDelay(ctx, j);
  if (paid === null) return null;
  const rng = rngFor(ctx, 'deliveries', j);
  const courier = `courier-${1 + rng.int(COURIERS)}`;
  const pickedUp = paid + between(rng, 30_000, 180_000);
  return { courier, pickedUp, delivered: pickedUp + between(rng, 60_000, 600_000) };
}

/** Two records per paid order of the same seed: index 2j is PICKED_UP, 2j + 1 is DELIVERED. */
export const deliveries: Scenario = {
  name: 'deliveries',
  summary: 'Courier pick-ups and deliveries for the paid orders of the same seed.',
  fields: { delivery_id: 'string', order_id: 'string', courier: 'string', status: 'string', ts: 'timestamp' },
  defaultKeys: ORDER_KEYS,
  recordsPerUnit: 2,
  meanRecordsPerUnit: 1.8,
  arrival(i, ctx) {
    const j = Math.floor(i / 2);
    const t = trip(ctx, j);
    return t === null ? null : slot(ctx, j) + (i % 2 === 0 ? t.pickedUp : t.delivered);
  },
  row(i, _rng, ctx) {
    const j = Math.floor(i / 2);
    const t = trip(ctx, j);
    if (t === null) return null;
    // The order's own lag applies to all its events, so they stay in order with each other.
    const order = orderAt(j, orderRng(ctx, j), ctx);
    const picked = i % 2 === 0;
    return {
      delivery_id: `d-${j}`,
      order_id: order.order_id,
      courier: t.courier,
      status: picked ? 'PICKED_UP' : 'DELIVERED',
      ts: order.ts + (picked ? t.pickedUp : t.delivered),
    };
  },
};
