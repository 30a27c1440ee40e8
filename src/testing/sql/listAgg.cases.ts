/**
 * Oracle scripts: LISTAGG as Flink computes it in streaming: the non-NULL values in arrival order
 * (file order here), joined by ',' or the separator given, NULL for a group with none; over an
 * updating input a retraction takes back the earliest copy of its value, so an updated row's
 * value moves to the end.
 */
import { ORDERS_DDL, orders } from './data.ts';
import type { Row } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { groupWindows, windowsOf } from './oracleCase.ts';

const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;
const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const H = 3_600_000;

/** The values of `rows`' `field` that are not NULL, in order, joined; NULL when there are none. */
const joined = (rows: readonly Row[], field: string, sep = ','): string | null => {
  const values = rows.map((r) => r[field]).filter((v) => v !== null && v !== undefined);
  return values.length ? values.join(sep) : null;
};
const byKey = (rows: readonly Row[], key: string): Map<unknown, Row[]> => {
  const out = new Map<unknown, Row[]>();
  for (const r of rows) out.set(r[key], [...(out.get(r[key]) ?? []), r]);
  return out;
};

/**
 * The customers of each count of their orders that are not cancelled, in the order their last counted
 * order arrived: each sits in the group of its final count, placed there by that order.
 */
export function customersByFinalCount(): Map<number, unknown[]> {
  const kept = orders.filter((o) => o.status !== 'cancelled');
  const last = new Map<unknown, { n: number; at: number }>();
  kept.forEach((o, at) => last.set(o.customer_id, { n: (last.get(o.customer_id)?.n ?? 0) + 1, at }));
  const groups = new Map<number, { id: unknown; at: number }[]>();
  for (const [id, { n, at }] of last) groups.set(n, [...(groups.get(n) ?? []), { id, at }]);
  return new Map([...groups].map(([n, cs]) => [n, cs.sort((a, b) => a.at - b.at).map((c) => c.id)]));
}

/**
 * LISTAGG(DISTINCT n) over every customer's running count of orders not cancelled: each change of a
 * count retracts the old value, then adds the new; a value joins the list when its first live copy
 * arrives and leaves it with its last, as Flink's distinct map view in front of LISTAGG.
 */
function distinctCountsInOrder(): string | null {
  const copies = new Map<number, number>();
  const list: number[] = [];
  const counts = new Map<unknown, number>();
  for (const o of orders.filter((x) => x.status !== 'cancelled')) {
    const old = counts.get(o.customer_id);
    const now = (old ?? 0) + 1;
    counts.set(o.customer_id, now);
    if (old !== undefined) {
      copies.set(old, copies.get(old)! - 1);
      if (copies.get(old) === 0) list.splice(list.indexOf(old), 1);
    }
    copies.set(now, (copies.get(now) ?? 0) + 1);
    if (copies.get(now) === 1) list.push(now);
  }
  return list.length ? list.join(',') : null;
}

export const listAggCases: SqlOracleCase[] = [
  {
    name: 'LISTAGG(DISTINCT …): each product once per customer, in the order of its first copy, with and without a separator',
    sql: `${ORDERS_DDL}${upsert('product_sets', 'customer_id STRING, products STRING, currencies STRING', 'customer_id')}INSERT INTO product_sets
SELECT customer_id, LISTAGG(DISTINCT product) AS products, LISTAGG(DISTINCT currency, ' / ') AS currencies
FROM orders GROUP BY customer_id;`,
    expected: {
      product_sets: () =>
        [...byKey(orders, 'customer_id')].map(([customer_id, os]) => {
          const once = (field: string) => os.filter((o, i) => o[field] !== null && os.findIndex((x) => x[field] === o[field]) === i);
          return { customer_id, products: joined(once('product'), 'product'), currencies: joined(once('currency'), 'currency', ' / ') };
        }),
    },
  },
  {
    name: 'LISTAGG(DISTINCT …) over an updating aggregate: a value leaves with its last live copy and comes back at the end',
    sql: `${ORDERS_DDL}CREATE VIEW per_customer AS SELECT customer_id, COUNT(*) AS n FROM orders WHERE status <> 'cancelled' GROUP BY customer_id;
${upsert('count_set', 'k STRING, counts STRING', 'k')}INSERT INTO count_set SELECT k, LISTAGG(DISTINCT CAST(n AS STRING)) AS counts FROM (SELECT 'all' AS k, n FROM per_customer) GROUP BY k;`,
    expected: { count_set: () => [{ k: 'all', counts: distinctCountsInOrder() }] },
  },
  {
    name: 'LISTAGG with the default separator and with one of its own skips NULLs, in arrival order',
    sql: `${ORDERS_DDL}${upsert('baskets', 'customer_id STRING, products STRING, paid_ids STRING, n BIGINT', 'customer_id')}INSERT INTO baskets
SELECT customer_id, LISTAGG(product) AS products, LISTAGG(CASE WHEN status = 'paid' THEN order_id END, ' | ') AS paid_ids, COUNT(*) AS n
FROM orders GROUP BY customer_id;`,
    expected: {
      baskets: () =>
        [...byKey(orders, 'customer_id')].map(([customer_id, os]) => ({
          customer_id,
          products: joined(os, 'product'),
          paid_ids: joined(os.filter((o) => o.status === 'paid'), 'order_id', ' | '),
          n: os.length,
        })),
    },
  },
  {
    name: 'LISTAGG over an updating aggregate: a customer moves from its old count to the end of its new one',
    sql: `${ORDERS_DDL}CREATE VIEW per_customer AS SELECT customer_id, COUNT(*) AS n FROM orders WHERE status <> 'cancelled' GROUP BY customer_id;
${upsert('by_count', 'n BIGINT, customers STRING', 'n')}INSERT INTO by_count SELECT n, LISTAGG(customer_id, ';') AS customers FROM per_customer GROUP BY n;`,
    expected: {
      by_count: () => [...customersByFinalCount()].map(([n, ids]) => ({ n, customers: ids.join(';') })),
    },
  },
  {
    name: 'LISTAGG in a TUMBLE window table function',
    sql: `${ORDERS_DDL}${printSink('hourly', 'window_start TIMESTAMP(3), currency STRING, orders_in STRING')}INSERT INTO hourly
SELECT window_start, currency, LISTAGG(order_id, ' ') AS orders_in
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
GROUP BY window_start, window_end, currency;`,
    expected: {
      hourly: () =>
        groupWindows(orders, 'order_time', 'currency', (t) => windowsOf(t, { type: 'tumble', size: H })).map((g) => ({ window_start: g.start, currency: g.key, orders_in: joined(g.rows, 'order_id', ' ') })),
    },
  },
];
