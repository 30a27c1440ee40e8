/**
 * Oracle scripts: Flink's collecting aggregates, ARRAY_AGG, JSON_ARRAYAGG and JSON_OBJECTAGG, over
 * the orders in arrival (file) order. JSON_ARRAYAGG's array is checked against SQLite's
 * json_group_array over the same rows in the same order; the others are worked out by hand.
 * JSON_OBJECTAGG lists its members by key (Flink's map view has no order of its own), and an
 * updating input retracts the earliest equal value.
 */
import { ORDERS_DDL, orders } from './data.ts';
import type { Row } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { customersByFinalCount } from './listAgg.cases.ts';

const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;

const byKey = (rows: readonly Row[], key: string): Map<unknown, Row[]> => {
  const out = new Map<unknown, Row[]>();
  for (const r of rows) out.set(r[key], [...(out.get(r[key]) ?? []), r]);
  return out;
};

/** SQLite: one customer's values of `expr`, in file order, as a JSON array; `json` nests them as JSON. */
const sqliteArray = (expr: string, where = 'TRUE', json = false) =>
  `(SELECT json_group_array(${json ? 'json(v)' : 'v'}) FROM (SELECT ${expr} AS v FROM orders o2 WHERE o2.customer_id = c.customer_id AND ${where} ORDER BY o2.rowid))`;

export const collectingCases: SqlOracleCase[] = [
  {
    name: 'JSON_ARRAYAGG skips NULLs by default (ABSENT ON NULL), keeps them with NULL ON NULL, and nests a JSON_OBJECT as JSON',
    sql: `${ORDERS_DDL}${upsert('order_lists', 'customer_id STRING, ids STRING, products STRING, all_products STRING, lines STRING', 'customer_id')}INSERT INTO order_lists
SELECT customer_id, JSON_ARRAYAGG(order_id) AS ids, JSON_ARRAYAGG(product) AS products, JSON_ARRAYAGG(product NULL ON NULL) AS all_products,
  JSON_ARRAYAGG(JSON_OBJECT(KEY 'id' VALUE order_id, KEY 'qty' VALUE qty)) AS lines
FROM orders GROUP BY customer_id;`,
    expected: {
      order_lists: `SELECT customer_id, ${sqliteArray('order_id')} AS ids, ${sqliteArray('product', 'product IS NOT NULL')} AS products,
  ${sqliteArray('product')} AS all_products, ${sqliteArray("json_object('id', order_id, 'qty', qty)", 'TRUE', true)} AS lines
FROM (SELECT DISTINCT customer_id FROM orders) c`,
    },
  },
  {
    name: 'ARRAY_AGG keeps NULLs unless IGNORE NULLS; JSON_OBJECTAGG names members by key, NULL values kept unless ABSENT ON NULL',
    sql: `${ORDERS_DDL}${upsert('by_currency', 'currency STRING, products STRING, n INT, qty_by_order STRING, product_by_order STRING', 'currency')}INSERT INTO by_currency
SELECT currency, ARRAY_JOIN(ARRAY_AGG(product IGNORE NULLS), ','), CARDINALITY(ARRAY_AGG(product)),
  JSON_OBJECTAGG(KEY order_id VALUE qty), JSON_OBJECTAGG(order_id VALUE product ABSENT ON NULL)
FROM orders WHERE status = 'paid' GROUP BY currency;`,
    expected: {
      by_currency: () =>
        [...byKey(orders.filter((o) => o.status === 'paid'), 'currency')].map(([currency, os]) => {
          const sorted = [...os].sort((a, b) => String(a.order_id).localeCompare(String(b.order_id)));
          return {
            currency,
            products: os.filter((o) => o.product !== null).map((o) => o.product).join(','),
            n: os.length,
            qty_by_order: `{${sorted.map((o) => `"${o.order_id}":${o.qty}`).join(',')}}`,
            product_by_order: `{${sorted.filter((o) => o.product !== null).map((o) => `"${o.order_id}":"${o.product}"`).join(',')}}`,
          };
        }),
    },
  },
  {
    name: 'JSON_ARRAYAGG over an updating aggregate: a customer leaves the array of its old count and joins the end of its new one',
    sql: `${ORDERS_DDL}CREATE VIEW per_customer AS SELECT customer_id, COUNT(*) AS n FROM orders WHERE status <> 'cancelled' GROUP BY customer_id;
${upsert('by_count_json', 'n BIGINT, customers STRING', 'n')}INSERT INTO by_count_json SELECT n, JSON_ARRAYAGG(customer_id) AS customers FROM per_customer GROUP BY n;`,
    expected: {
      by_count_json: () => [...customersByFinalCount()].map(([n, ids]) => ({ n, customers: JSON.stringify(ids) })),
    },
  },
];
