import type { Scenario } from './scenario.ts';
import { between, disorder, slot } from './scenario.ts';
import { PRODUCTS, PRODUCT_PRICES } from './vocab.ts';

/** Till receipts from `keys` stores: the classic "sales by store" input. */
export const retailTransactions: Scenario = {
  name: 'retailTransactions',
  summary: 'Point-of-sale transactions from a chain of stores.',
  fields: { tx_id: 'string', store_id: 'string', product: 'string', quantity: 'integer', amount: 'number', ts: 'timestamp' },
  defaultKeys: 5,
  row(i, rng, ctx) {
    const ts = slot(ctx, i) - disorder(ctx, rng);
    const product = rng.pick(PRODUCTS);
    const quantity = between(rng, 1, 6);
    // A store-specific markup keeps revenue per store distinguishable in demos.
    const store = 1 + rng.int(ctx.keys);
    const price = PRODUCT_PRICES[product] * (1 + (store % 5) * 0.05);
    return { tx_id: `tx-${i}`, store_id: `store-${store}`, product, quantity, amount: Math.round(price * quantity * 100) / 100, ts };
  },
};
