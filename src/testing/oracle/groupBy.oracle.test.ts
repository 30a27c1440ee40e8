import { describe } from 'vitest';
import { oracleTests } from './oracleKit.ts';
import type { OracleCase } from './oracleKit.ts';
import { disorderedRows, inline, pipeline, sometimesNull } from './inputs.ts';

const BOUND = 2_000;

const items = ['apple', 'bread', 'cheese', 'dates', 'eggs', 'flour', 'grapes', 'honey', 'ice', 'jam'];

/** 12,000 sales; some users, amounts and items are NULL, which SQL aggregates ignore. */
const sales = disorderedRows(12_000, 101, { stepMs: 10, boundMs: BOUND }, (i, rng) => ({
  id: i,
  user: sometimesNull(rng, 0.01, `u${rng.int(60)}`),
  store: `s${rng.int(7)}`,
  item: sometimesNull(rng, 0.05, rng.pick(items)),
  qty: 1 + rng.int(9),
  amount: sometimesNull(rng, 0.08, Math.round(rng.next() * 10_000) / 100),
}));
const salesSchema = { id: 'integer', user: 'string', store: 'string', item: 'string', qty: 'integer', amount: 'number', seq: 'integer', ts: 'timestamp' };

const everyAggregate = [
  { fn: 'count', as: 'n' },
  { fn: 'count', field: 'amount', as: 'n_amount' },
  { fn: 'sum', field: 'amount', as: 'total' },
  { fn: 'sum', field: 'qty', as: 'units' },
  { fn: 'avg', field: 'amount', as: 'avg_amount' },
  { fn: 'min', field: 'amount', as: 'min_amount' },
  { fn: 'max', field: 'amount', as: 'max_amount' },
  { fn: 'min', field: 'item', as: 'first_item' },
  { fn: 'max', field: 'ts', as: 'last_ts' },
  { fn: 'countDistinct', field: 'item', as: 'items' },
];
const everyAggregateSql = `COUNT(*) AS n, COUNT(amount) AS n_amount, SUM(amount) AS total, SUM(qty) AS units, AVG(amount) AS avg_amount,
  MIN(amount) AS min_amount, MAX(amount) AS max_amount, MIN(item) AS first_item, MAX(ts) AS last_ts, COUNT(DISTINCT item) AS items`;

const groupBy: OracleCase = {
  name: 'GROUP BY user, store (append-only input)',
  minRecords: 10_000,
  doc: pipeline(
    'oracle-group-by',
    [
      ['sales', 'inlineSource', inline(sales, BOUND, salesSchema)],
      ['by_user', 'aggregate', { groupBy: ['user'], aggregates: everyAggregate }],
      ['by_user_view', 'viewSink', { primaryKey: ['user'] }],
      ['by_store_item', 'aggregate', { groupBy: ['store', 'item'], aggregates: [{ fn: 'count', as: 'n' }, { fn: 'sum', field: 'amount', as: 'total' }] }],
      ['by_store_item_view', 'viewSink', {}],
    ],
    ['sales -> by_user', 'by_user -> by_user_view', 'sales -> by_store_item', 'by_store_item -> by_store_item_view'],
  ),
  expected: {
    // NULL is a group of its own in SQL, as in Flink.
    by_user_view: `SELECT user, ${everyAggregateSql} FROM sales GROUP BY user`,
    by_store_item_view: `SELECT store, item, COUNT(*) AS n, SUM(amount) AS total FROM sales GROUP BY store, item`,
  },
};

/**
 * Account updates: dedup keep-last (by event time) turns them into an updating table whose rows
 * move between regions, so the GROUP BY downstream must retract — including the current MIN/MAX
 * and whole groups that empty out (a region nobody is in any more must vanish from the view).
 */
const updates = disorderedRows(10_000, 202, { stepMs: 10, boundMs: BOUND }, (_i, rng) => ({
  account: `a${rng.int(800)}`,
  region: `r${rng.int(rng.next() < 0.5 ? 3 : 12)}`,
  tier: rng.pick(['bronze', 'silver', 'gold']),
  balance: Math.round((rng.next() * 2_000 - 500) * 100) / 100,
}));

const updatingInput: OracleCase = {
  name: 'GROUP BY over an updating input (dedup keep-last → aggregate)',
  minRecords: 10_000,
  doc: pipeline(
    'oracle-group-by-updating',
    [
      ['updates', 'inlineSource', inline(updates, BOUND, { account: 'string', region: 'string', tier: 'string', balance: 'number', seq: 'integer', ts: 'timestamp' })],
      ['latest', 'dedup', { key: ['account'], keep: 'last', order: 'eventTime' }],
      ['accounts', 'viewSink', {}],
      ['by_region', 'aggregate', {
        groupBy: ['region'],
        aggregates: [
          { fn: 'count', as: 'accounts' },
          { fn: 'sum', field: 'balance', as: 'total' },
          { fn: 'avg', field: 'balance', as: 'avg_balance' },
          { fn: 'min', field: 'balance', as: 'min_balance' },
          { fn: 'max', field: 'balance', as: 'max_balance' },
          { fn: 'countDistinct', field: 'tier', as: 'tiers' },
        ],
      }],
      ['regions', 'viewSink', {}],
    ],
    ['updates -> latest', 'latest -> accounts', 'latest -> by_region', 'by_region -> regions'],
  ),
  expected: {
    accounts: `SELECT account, region, tier, balance, seq, ts FROM
      (SELECT *, ROW_NUMBER() OVER (PARTITION BY account ORDER BY ts DESC) AS rn FROM updates) WHERE rn = 1`,
    regions: `WITH latest AS (SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY account ORDER BY ts DESC) AS rn FROM updates) WHERE rn = 1)
      SELECT region, COUNT(*) AS accounts, SUM(balance) AS total, AVG(balance) AS avg_balance, MIN(balance) AS min_balance,
        MAX(balance) AS max_balance, COUNT(DISTINCT tier) AS tiers FROM latest GROUP BY region`,
  },
};

/** The same case with every GROUP BY in mini-batch mode: one change per group per batch, the same final views. */
function miniBatch(c: OracleCase): OracleCase {
  return {
    ...c,
    name: `${c.name}, mini-batch`,
    doc: { ...c.doc, nodes: c.doc.nodes.map((n) => (n.kind === 'aggregate' ? { ...n, params: { ...n.params, miniBatch: true } } : n)) },
  };
}
const updatingMiniBatch = miniBatch(updatingInput);

describe('oracle: GROUP BY equals SQL', () => {
  oracleTests([groupBy, updatingInput, miniBatch(groupBy), updatingMiniBatch], { indexedDb: [updatingInput, updatingMiniBatch] });
});
