import type { Rng } from '../core/rng.ts';
import type { Row } from '../core/types.ts';
import type { Scenario, ScenarioContext } from './scenario.ts';
import { disorder, rngFor, slot } from './scenario.ts';
import { ORDER_KEYS } from './orders.ts';
import { CITIES, TIERS, customerId, customerName } from './vocab.ts';

const created = (i: number, rng: Rng, ctx: ScenarioContext): Row => {
  const ts = slot(ctx, i) - disorder(ctx, rng);
  return { customer_id: customerId(i + 1), name: customerName(i + 1), city: rng.pick(CITIES), tier: TIERS[0], ts };
};

/**
 * A changelog-friendly customer table: rows 0..keys−1 create customers c-1..c-keys, later rows
 * are new versions of a random existing customer (a move or a tier change), always later in
 * event time than its creation. Every row is +I; keep-last or a temporal join reads them as versions.
 */
export const customers: Scenario = {
  name: 'customers',
  summary: 'Customer records and later versions of them (moves, tier changes), for temporal joins.',
  fields: { customer_id: 'string', name: 'string', city: 'string', tier: 'string', ts: 'timestamp' },
  defaultKeys: ORDER_KEYS,
  row(i, rng, ctx) {
    if (i < ctx.keys) return created(i, rngFor(ctx, 'customers', i), ctx);
    const n = rng.int(ctx.keys);
    const first = created(n, rngFor(ctx, 'customers', n), ctx);
    const ts = Math.max(slot(ctx, i) - disorder(ctx, rng), (first.ts as number) + 1);
    const moves = rng.next() < 0.3;
    return { ...first, city: moves ? rng.pick(CITIES) : first.city, tier: moves ? first.tier : rng.pick(TIERS), ts };
  },
};
