import { describe } from 'vitest';
import { oracleTests } from './oracleKit.ts';
import type { OracleCase } from './oracleKit.ts';
import { disorderedRows, inline, pipeline, sometimesNull } from './inputs.ts';

const BOUND = 1_500;

/** 10,000 orders; some customers do not exist and some orders have no customer at all. */
const orders = disorderedRows(10_000, 404, { stepMs: 10, boundMs: BOUND }, (i, rng) => ({
  order_id: i,
  customer_id: sometimesNull(rng, 0.02, `c${rng.int(650)}`),
  amount: Math.round(rng.next() * 50_000) / 100,
}));

/** Customers c0..c599, a few of them twice (a key that matches two rows joins twice), trickling in during the orders. */
const customers = disorderedRows(630, 405, { stepMs: 160, boundMs: BOUND }, (i, rng) => ({
  customer_id: `c${i < 600 ? i : rng.int(600)}`,
  name: `name-${i}`,
  tier: rng.pick(['basic', 'plus', 'pro']),
}));

const orderSchema = { order_id: 'integer', customer_id: 'string', amount: 'number', seq: 'integer', ts: 'timestamp' };
const customerSchema = { customer_id: 'string', name: 'string', tier: 'string', seq: 'integer', ts: 'timestamp' };

/** With `residual`, the ON clause also holds a non-equi condition: pipeline expression and its SQL twin. */
function regularJoin(type: 'inner' | 'left', residual?: { expr: string; sql: string }): OracleCase {
  return {
    name: `${type} regular join${residual ? ' with a non-equi condition' : ''}`,
    minRecords: 10_000,
    doc: pipeline(
      `oracle-${type}-join${residual ? '-nonequi' : ''}`,
      [
        // Both arrive over ~10 s of processing time, so orders often come before their customer.
        ['orders', 'inlineSource', inline(orders, BOUND, orderSchema, 1000)],
        ['customers', 'inlineSource', inline(customers, BOUND, customerSchema, 63)],
        ['j', 'join', { type, leftKey: ['customer_id'], rightKey: ['customer_id'], ...(residual ? { nonEquiCondition: residual.expr } : {}) }],
        ['view', 'viewSink', {}],
      ],
      ['orders -> j.left', 'customers -> j.right', 'j -> view'],
    ),
    expected: {
      // Right columns whose names the left already uses get a `_right` suffix; NULL keys match nothing.
      view: `SELECT o.order_id, o.customer_id, o.amount, o.seq, o.ts,
          c.customer_id AS customer_id_right, c.name, c.tier, c.seq AS seq_right, c.ts AS ts_right
        FROM orders o ${type === 'left' ? 'LEFT JOIN' : 'JOIN'} customers c ON o.customer_id = c.customer_id${residual ? ` AND (${residual.sql})` : ''}`,
    },
  };
}

/**
 * Two GROUP BYs joined, so both sides are updating and have unique keys: the orders per customer
 * (unique key = join key: one row per join key) and the customers per (customer, tier) (a unique
 * key wider than the join key: rows by unique key).
 */
function groupedJoin(type: 'inner' | 'left'): OracleCase {
  return {
    name: `${type} regular join of two GROUP BYs`,
    minRecords: 10_000,
    doc: pipeline(
      `oracle-${type}-join-grouped`,
      [
        ['customers', 'inlineSource', inline(customers, BOUND, customerSchema, 63)],
        ['orders', 'inlineSource', inline(orders, BOUND, orderSchema, 1000)],
        ['by_tier', 'aggregate', { groupBy: ['customer_id', 'tier'], aggregates: [{ fn: 'count', as: 'n' }] }],
        ['by_customer', 'aggregate', { groupBy: ['customer_id'], aggregates: [{ fn: 'count', as: 'orders' }, { fn: 'max', field: 'amount', as: 'biggest' }] }],
        ['j', 'join', { type, leftKey: ['customer_id'], rightKey: ['customer_id'] }],
        ['view', 'viewSink', {}],
      ],
      ['customers -> by_tier', 'orders -> by_customer', 'by_tier -> j.left', 'by_customer -> j.right', 'j -> view'],
    ),
    expected: {
      view: `SELECT c.customer_id, c.tier, c.n, o.customer_id AS customer_id_right, o.orders, o.biggest
        FROM (SELECT customer_id, tier, COUNT(*) AS n FROM customers GROUP BY customer_id, tier) c
        ${type === 'left' ? 'LEFT JOIN' : 'JOIN'} (SELECT customer_id, COUNT(*) AS orders, MAX(amount) AS biggest FROM orders GROUP BY customer_id) o
        ON c.customer_id = o.customer_id`,
    },
  };
}

/** Clicks and purchases of 200 users over two minutes; a purchase counts for clicks 2 s after to 5 s before it. */
const clicks = disorderedRows(6_000, 406, { stepMs: 20, boundMs: BOUND }, (i, rng) => ({ click_id: i, user: `u${rng.int(200)}`, page: rng.pick(['home', 'search', 'item', 'cart']) }));
const purchases = disorderedRows(6_000, 407, { stepMs: 20, boundMs: BOUND }, (i, rng) => ({ purchase_id: i, user: `u${rng.int(200)}`, total: Math.round(rng.next() * 20_000) / 100 }));

/**
 * With lowerBound ≤ 0 ≤ upperBound no row can be late: the operator's watermark is at most its
 * own input's, which stays below every row that input still has to deliver.
 */
function intervalJoin(type: 'inner' | 'left'): OracleCase {
  return {
    name: `${type} interval join (BETWEEN -2 s AND +5 s)`,
    minRecords: 10_000,
    doc: pipeline(
      `oracle-interval-${type}`,
      [
        ['clicks', 'inlineSource', inline(clicks, BOUND, { click_id: 'integer', user: 'string', page: 'string', seq: 'integer', ts: 'timestamp' })],
        ['purchases', 'inlineSource', inline(purchases, BOUND, { purchase_id: 'integer', user: 'string', total: 'number', seq: 'integer', ts: 'timestamp' })],
        ['j', 'intervalJoin', { type, leftKey: ['user'], rightKey: ['user'], lowerBoundMs: -2_000, upperBoundMs: 5_000 }],
        ['view', 'viewSink', {}],
      ],
      ['clicks -> j.left', 'purchases -> j.right', 'j -> view'],
    ),
    expected: {
      view: `SELECT c.click_id, c.user, c.page, c.seq, c.ts,
          p.purchase_id, p.user AS user_right, p.total, p.seq AS seq_right, p.ts AS ts_right
        FROM clicks c ${type === 'left' ? 'LEFT JOIN' : 'JOIN'} purchases p
          ON c.user = p.user AND p.ts BETWEEN c.ts - 2000 AND c.ts + 5000`,
    },
  };
}

describe('oracle: joins equal SQL', () => {
  const leftJoin = regularJoin('left');
  const leftInterval = intervalJoin('left');
  // Orders pair with a customer only when big enough for the customer's tier, so many left rows stay padded.
  const residual = { expr: "amount > 200 AND tier <> 'basic' OR amount > 400", sql: "o.amount > 200 AND c.tier <> 'basic' OR o.amount > 400" };
  const nonEqui = [regularJoin('inner', residual), regularJoin('left', residual)];
  const leftGrouped = groupedJoin('left');
  oracleTests([regularJoin('inner'), leftJoin, intervalJoin('inner'), leftInterval, ...nonEqui, groupedJoin('inner'), leftGrouped], { indexedDb: [leftJoin, leftInterval, leftGrouped] });
});
