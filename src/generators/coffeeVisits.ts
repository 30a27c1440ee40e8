import type { Scenario, ScenarioContext } from './scenario.ts';
import { between, disorder, rngFor, slot } from './scenario.ts';
import { DRINKS, DRINK_PRICES, customerId, customerName } from './vocab.ts';

interface Visit {
  customer: number;
  lag: number;
  drink: string | null;
  orderAfter: number;
  leaveAfter: number;
}

/** Visit v: who came, whether they ordered (85%), and when each event happened after entering. */
function visit(ctx: ScenarioContext, v: number): Visit {
  const rng = rngFor(ctx, 'coffeeVisits', v);
  const customer = 1 + rng.int(ctx.keys);
  const lag = disorder(ctx, rng);
  const drink = rng.next() < 0.85 ? rng.pick(DRINKS) : null;
  const orderAfter = between(rng, 20_000, 180_000);
  return { customer, lag, drink, orderAfter, leaveAfter: orderAfter + between(rng, 60_000, 900_000) };
}

const PHASES = ['enter', 'order', 'leave'] as const;

/**
 * The seed story: a camera at a coffee shop sees customers enter, order and leave.
 * Index 3v is visit v's enter, 3v + 1 its order (absent for 15% of visits), 3v + 2 its leave.
 */
export const coffeeVisits: Scenario = {
  name: 'coffeeVisits',
  summary: 'A coffee shop camera: customers enter, order a drink (mostly) and leave.',
  fields: { customer_id: 'string', name: 'string', visit_type: 'string', drink: 'string', amount: 'number', ts: 'timestamp' },
  defaultKeys: 50,
  recordsPerUnit: 3,
  meanRecordsPerUnit: 2.85,
  arrival(i, ctx) {
    const v = Math.floor(i / 3);
    const x = visit(ctx, v);
    const phase = PHASES[i % 3];
    if (phase === 'order' && x.drink === null) return null;
    return slot(ctx, v) + (phase === 'enter' ? 0 : phase === 'order' ? x.orderAfter : x.leaveAfter);
  },
  row(i, _rng, ctx) {
    const v = Math.floor(i / 3);
    const x = visit(ctx, v);
    const phase = PHASES[i % 3];
    if (phase === 'order' && x.drink === null) return null;
    const after = phase === 'enter' ? 0 : phase === 'order' ? x.orderAfter : x.leaveAfter;
    return {
      customer_id: customerId(x.customer),
      name: customerName(x.customer),
      visit_type: phase,
      drink: phase === 'order' ? x.drink : null,
      amount: phase === 'order' ? DRINK_PRICES[x.drink!] : null,
      ts: slot(ctx, v) - x.lag + after,
    };
  },
};
