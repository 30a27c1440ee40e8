import { describe, expect, it } from 'vitest';
import { oracleTests } from './oracleKit.ts';
import type { OracleCase } from './oracleKit.ts';
import { disorderedRows, inline, pipeline } from './inputs.ts';
import { accountHistory, accountSchema, canalJson, changelogJson, debeziumFull, debeziumKeyOnly, maxwellJson, upserts } from './changelogInputs.ts';
import type { ChangelogInput } from '../../core/changelogDecoder.ts';
import type { Row } from '../../core/types.ts';

const history = accountHistory(12_000, 900, 808);

/** Orders placed by accounts, some of which never existed or are deleted by the end. */
const orders = disorderedRows(3_000, 809, { stepMs: 40, boundMs: 0 }, (i, rng) => ({ order_id: i, acct: `a${rng.int(1_000)}`, amount: Math.round(rng.next() * 10_000) / 100 }));
const orderSchema = { order_id: 'integer', acct: 'string', amount: 'number', seq: 'integer', ts: 'timestamp' };

interface Encoding {
  label: string;
  rows: Row[];
  changelog: ChangelogInput;
}

const encodings: Encoding[] = [
  { label: 'Debezium JSON with before images', rows: debeziumFull(history), changelog: { format: 'debezium-json' } },
  { label: 'Debezium JSON, key-only deletes, no update before images, duplicates (normalized by key)', rows: debeziumKeyOnly(history), changelog: { format: 'debezium-json', primaryKey: ['acct'] } },
  { label: 'Canal JSON, inserts batched two to a message, DDL messages between', rows: canalJson(history), changelog: { format: 'canal-json' } },
  { label: 'Maxwell JSON normalized by key', rows: maxwellJson(history), changelog: { format: 'maxwell-json', primaryKey: ['acct'] } },
  { label: 'changelog-json', rows: changelogJson(history), changelog: { format: 'changelog-json' } },
  { label: 'changelog-json normalized by key', rows: changelogJson(history), changelog: { format: 'changelog-json', primaryKey: ['acct'] } },
  { label: 'upsert by key, null value deletes', rows: upserts(history), changelog: { format: 'upsert', primaryKey: ['acct'] } },
];

const source = (e: Encoding): [string, string, Record<string, unknown>] => ['accounts', 'inlineSource', { ...inline(e.rows, 0, accountSchema), changelog: e.changelog }];

function groupBy(e: Encoding): OracleCase {
  return {
    name: `GROUP BY region over ${e.label}`,
    tables: { accounts: history.final },
    doc: pipeline(
      'oracle-changelog-group-by',
      [
        source(e),
        ['by_region', 'aggregate', {
          groupBy: ['region'],
          aggregates: [
            { fn: 'count', as: 'n' },
            { fn: 'sum', field: 'balance', as: 'total' },
            { fn: 'avg', field: 'balance', as: 'mean' },
            { fn: 'min', field: 'balance', as: 'lowest' },
            { fn: 'max', field: 'balance', as: 'highest' },
            { fn: 'countDistinct', field: 'tier', as: 'tiers' },
          ],
        }],
        ['view', 'viewSink', {}],
        ['table', 'viewSink', {}],
      ],
      ['accounts -> by_region', 'by_region -> view', 'accounts -> table'],
    ),
    expected: {
      view: 'SELECT region, COUNT(*) AS n, SUM(balance) AS total, AVG(balance) AS mean, MIN(balance) AS lowest, MAX(balance) AS highest, COUNT(DISTINCT tier) AS tiers FROM accounts GROUP BY region',
      table: 'SELECT * FROM accounts',
    },
  };
}

function join(e: Encoding, type: 'inner' | 'left'): OracleCase {
  return {
    name: `${type} join of orders with ${e.label}`,
    tables: { accounts: history.final },
    doc: pipeline(
      `oracle-changelog-${type}-join`,
      [
        ['orders', 'inlineSource', inline(orders, 0, orderSchema, 300)],
        source(e),
        ['j', 'join', { type, leftKey: ['acct'], rightKey: ['acct'] }],
        ['view', 'viewSink', {}],
      ],
      ['orders -> j.left', 'accounts -> j.right', 'j -> view'],
    ),
    expected: {
      view: `SELECT o.order_id, o.acct, o.amount, o.seq, o.ts, a.acct AS acct_right, a.region, a.tier, a.balance, a.ts AS ts_right
        FROM orders o ${type === 'left' ? 'LEFT JOIN' : 'JOIN'} accounts a ON o.acct = a.acct`,
    },
  };
}

function topN(e: Encoding): OracleCase {
  return {
    name: `Top-3 per region over ${e.label}`,
    tables: { accounts: history.final },
    doc: pipeline(
      'oracle-changelog-top-n',
      [
        source(e),
        ['top', 'topN', { partitionBy: ['region'], orderBy: [{ field: 'balance', direction: 'desc' }, { field: 'acct', direction: 'asc' }], n: 3 }],
        ['view', 'viewSink', {}],
      ],
      ['accounts -> top', 'top -> view'],
    ),
    expected: {
      view: 'SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY region ORDER BY balance DESC, acct ASC) AS rownum FROM accounts) WHERE rownum <= 3',
    },
  };
}

describe('oracle: changelog sources equal SQL over the final table', () => {
  it('the history is large and really changes the table', () => {
    const ops = { insert: 0, update: 0, delete: 0 };
    for (const c of history.changes) ops[c.op]++;
    expect(history.changes.length).toBeGreaterThanOrEqual(10_000);
    expect(ops.update).toBeGreaterThan(5_000);
    expect(ops.delete).toBeGreaterThan(1_000);
    expect(history.final.length).toBeGreaterThan(300);
  });
  const [full, keyOnly, canal, maxwell, cj, cjKeyed, upsert] = encodings;
  oracleTests([groupBy(full), groupBy(keyOnly), groupBy(canal), groupBy(maxwell), groupBy(cj), groupBy(cjKeyed), groupBy(upsert)]);
  oracleTests([join(full, 'inner'), join(keyOnly, 'left'), join(canal, 'left'), join(maxwell, 'inner'), join(cj, 'left'), join(upsert, 'inner')]);
  oracleTests([topN(full), topN(keyOnly), topN(canal), topN(maxwell), topN(cj), topN(upsert)]);
});
