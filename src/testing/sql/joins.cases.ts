/** Oracle scripts: regular, outer, interval, temporal and lookup joins; Top-N and deduplication from ROW_NUMBER(). */
import { CLICKS_DDL, CUSTOMERS_DDL, ORDERS_DDL, ORDERS_PROCTIME_DDL, orders, PAYMENTS_DDL, products, PRODUCTS_DDL, RATES_DDL } from './data.ts';
import type { Row } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;
const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const M = 60_000;

/**
 * A lookup join's expectation by hand: the dimension table is bounded, so it is loaded before any
 * order is looked up, and each product's current row is its last one; a NULL product matches nothing.
 */
function lookedUp(type: 'inner' | 'left', where: (category: string) => boolean = () => true): Row[] {
  const table = new Map(products.map((p) => [p.product, p.category as string]));
  return orders.flatMap((o): Row[] => {
    const category = o.product === null ? undefined : table.get(o.product);
    if (category !== undefined && where(category)) return [{ order_id: o.order_id, product: o.product, category }];
    return type === 'left' ? [{ order_id: o.order_id, product: o.product, category: null }] : [];
  });
}

export const joinCases: SqlOracleCase[] = [
  {
    name: 'inner join on a key',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('enriched', 'order_id STRING, name STRING, city STRING, amount DOUBLE')}INSERT INTO enriched
SELECT o.order_id, c.name, c.city, o.amount FROM orders AS o JOIN customers AS c ON o.customer_id = c.customer_id;`,
    expected: { enriched: 'SELECT o.order_id, c.name, c.city, o.amount FROM orders o JOIN customers c ON o.customer_id = c.customer_id' },
  },
  {
    name: 'left join pads missing customers with NULL',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${upsert('enriched', 'order_id STRING, customer_id STRING, city STRING', 'order_id')}INSERT INTO enriched
SELECT o.order_id, o.customer_id, c.city FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id;`,
    expected: { enriched: 'SELECT o.order_id, o.customer_id, c.city FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id' },
  },
  {
    name: 'right join',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('j', 'customer_id STRING, order_id STRING')}INSERT INTO j
SELECT c.customer_id, o.order_id FROM orders o RIGHT JOIN customers c ON o.customer_id = c.customer_id AND o.qty = 5;`,
    expected: { j: 'SELECT c.customer_id, o.order_id FROM customers c LEFT JOIN (SELECT * FROM orders WHERE qty = 5) o ON o.customer_id = c.customer_id' },
  },
  {
    name: 'full outer join',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('j', 'order_id STRING, customer_id STRING, name STRING')}INSERT INTO j
SELECT o.order_id, c.customer_id, c.name FROM (SELECT * FROM orders WHERE qty >= 4) o FULL OUTER JOIN customers c ON o.customer_id = c.customer_id;`,
    expected: { j: 'SELECT o.order_id, c.customer_id, c.name FROM (SELECT * FROM orders WHERE qty >= 4) o LEFT JOIN customers c ON o.customer_id = c.customer_id UNION ALL SELECT NULL, c.customer_id, c.name FROM customers c WHERE c.customer_id NOT IN (SELECT customer_id FROM orders WHERE qty >= 4)' },
  },
  {
    name: 'inner join with a non-equi condition across both sides',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('j', 'order_id STRING, name STRING')}INSERT INTO j
SELECT o.order_id, c.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND o.qty <= CAST(SUBSTRING(c.customer_id, 2) AS INT);`,
    expected: { j: 'SELECT o.order_id, c.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND o.qty <= CAST(substr(c.customer_id, 2) AS INTEGER)' },
  },
  {
    name: 'left join with a non-equi condition across both sides',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('j', 'order_id STRING, name STRING')}INSERT INTO j
SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id AND o.qty <= CAST(SUBSTRING(c.customer_id, 2) AS INT);`,
    expected: { j: 'SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id AND o.qty <= CAST(substr(c.customer_id, 2) AS INTEGER)' },
  },
  {
    name: 'left join with a condition on the preserved side',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('j', 'order_id STRING, city STRING')}INSERT INTO j
SELECT o.order_id, c.city FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id AND o.amount > 50 AND c.tier = 'silver';`,
    expected: { j: "SELECT o.order_id, c.city FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id AND o.amount > 50 AND c.tier = 'silver'" },
  },
  {
    name: 'three-way join, then aggregate (a star schema)',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${PAYMENTS_DDL}${upsert('by_city', 'city STRING, paid DOUBLE, n BIGINT', 'city')}INSERT INTO by_city
SELECT c.city, SUM(p.paid_amount) AS paid, COUNT(*) AS n
FROM orders o
JOIN customers c ON o.customer_id = c.customer_id
JOIN payments p ON p.order_id = o.order_id
GROUP BY c.city;`,
    expected: { by_city: 'SELECT c.city, SUM(p.paid_amount) AS paid, COUNT(*) AS n FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN payments p ON p.order_id = o.order_id GROUP BY c.city' },
  },
  {
    name: 'interval join with BETWEEN',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('paid_soon', 'order_id STRING, payment_id STRING, pay_method STRING')}INSERT INTO paid_soon
SELECT o.order_id, p.payment_id, p.pay_method FROM orders o JOIN payments p
ON o.order_id = p.order_id AND p.pay_time BETWEEN o.order_time AND o.order_time + INTERVAL '15' MINUTE;`,
    expected: { paid_soon: `SELECT o.order_id, p.payment_id, p.pay_method FROM orders o JOIN payments p ON o.order_id = p.order_id AND p.pay_time BETWEEN o.order_time AND o.order_time + ${15 * M}` },
  },
  {
    name: 'interval join written with >= and < in WHERE (comma join)',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('j', 'order_id STRING, delay_ok BOOLEAN')}INSERT INTO j
SELECT o.order_id, p.paid_amount = o.amount AS delay_ok FROM orders o, payments p
WHERE o.order_id = p.order_id AND p.pay_time >= o.order_time + INTERVAL '5' MINUTE AND p.pay_time < o.order_time + INTERVAL '30' MINUTE;`,
    expected: { j: `SELECT o.order_id, p.paid_amount = o.amount AS delay_ok FROM orders o JOIN payments p ON o.order_id = p.order_id AND p.pay_time >= o.order_time + ${5 * M} AND p.pay_time < o.order_time + ${30 * M}` },
  },
  {
    name: 'left interval join keeps unpaid orders',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('j', 'order_id STRING, payment_id STRING')}INSERT INTO j
SELECT o.order_id, p.payment_id FROM orders o LEFT JOIN payments p
ON o.order_id = p.order_id AND o.order_time BETWEEN p.pay_time - INTERVAL '20' MINUTE AND p.pay_time;`,
    expected: { j: `SELECT o.order_id, p.payment_id FROM orders o LEFT JOIN payments p ON o.order_id = p.order_id AND o.order_time BETWEEN p.pay_time - ${20 * M} AND p.pay_time` },
  },
  {
    name: 'temporal join FOR SYSTEM_TIME AS OF',
    sql: `${ORDERS_DDL}${RATES_DDL}${printSink('converted', 'order_id STRING, currency STRING, rate DOUBLE, amount_usd DOUBLE')}INSERT INTO converted
SELECT o.order_id, o.currency, r.rate, o.amount * r.rate AS amount_usd
FROM orders AS o
JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`,
    expected: { converted: 'SELECT o.order_id, o.currency, r.rate, o.amount * r.rate AS amount_usd FROM orders o JOIN rates r ON r.currency = o.currency AND r.rate_time = (SELECT MAX(rate_time) FROM rates x WHERE x.currency = o.currency AND x.rate_time <= o.order_time)' },
  },
  {
    name: 'lookup join FOR SYSTEM_TIME AS OF a processing-time attribute (inner)',
    sql: `${ORDERS_PROCTIME_DDL}${PRODUCTS_DDL}${printSink('enriched', 'order_id STRING, product STRING, category STRING')}INSERT INTO enriched
SELECT o.order_id, o.product, p.category
FROM orders AS o
JOIN products FOR SYSTEM_TIME AS OF o.proc_time AS p ON o.product = p.product;`,
    expected: { enriched: () => lookedUp('inner') },
  },
  {
    name: 'left lookup join with a condition on the dimension table',
    sql: `${ORDERS_PROCTIME_DDL}${PRODUCTS_DDL}${printSink('enriched', 'order_id STRING, product STRING, category STRING')}INSERT INTO enriched
SELECT o.order_id, o.product, p.category
FROM orders AS o
LEFT JOIN products FOR SYSTEM_TIME AS OF o.proc_time AS p
  ON o.product = p.product AND p.category <> 'fruit';`,
    expected: { enriched: () => lookedUp('left', (c) => c !== 'fruit') },
  },
  {
    name: 'left lookup join with a condition the current row of a listed-twice key fails',
    sql: `${ORDERS_PROCTIME_DDL}${PRODUCTS_DDL}${printSink('enriched', 'order_id STRING, product STRING, category STRING')}INSERT INTO enriched
SELECT o.order_id, o.product, p.category
FROM orders AS o
LEFT JOIN products FOR SYSTEM_TIME AS OF o.proc_time AS p
  ON o.product = p.product AND p.category <> 'deli';`,
    expected: { enriched: () => lookedUp('left', (c) => c !== 'deli') },
  },
  {
    name: 'revenue per category over a lookup join',
    sql: `${ORDERS_PROCTIME_DDL}${PRODUCTS_DDL}${upsert('revenue', 'category STRING, revenue DOUBLE, n BIGINT', 'category')}INSERT INTO revenue
SELECT p.category, SUM(o.amount) AS revenue, COUNT(*) AS n
FROM orders AS o
JOIN products FOR SYSTEM_TIME AS OF o.proc_time AS p ON o.product = p.product
GROUP BY p.category;`,
    expected: {
      revenue: () => {
        const amounts = new Map(orders.map((o) => [o.order_id, o.amount as number | null]));
        const by = new Map<string, { category: string; revenue: number | null; n: number }>();
        for (const r of lookedUp('inner')) {
          const g = by.get(r.category as string) ?? { category: r.category as string, revenue: null, n: 0 };
          const a = amounts.get(r.order_id)!;
          if (a !== null) g.revenue = (g.revenue ?? 0) + a;
          g.n++;
          by.set(g.category, g);
        }
        return [...by.values()];
      },
    },
  },
  {
    name: 'Top-N: the three largest orders per currency',
    sql: `${ORDERS_DDL}${upsert('top3', 'currency STRING, order_id STRING, amount DOUBLE, rn BIGINT', 'currency, rn')}INSERT INTO top3
SELECT currency, order_id, amount, rn FROM (
  SELECT currency, order_id, amount, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY amount DESC) AS rn
  FROM orders WHERE amount IS NOT NULL
) WHERE rn <= 3;`,
    expected: { top3: 'SELECT currency, order_id, amount, rn FROM (SELECT currency, order_id, amount, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY amount DESC) AS rn FROM orders WHERE amount IS NOT NULL) WHERE rn <= 3' },
  },
  {
    name: 'Top-N without the rank column, rn < N',
    sql: `${ORDERS_DDL}${printSink('cheapest', 'product STRING, order_id STRING')}INSERT INTO cheapest
SELECT product, order_id FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY product ORDER BY amount ASC) AS row_num FROM orders WHERE amount IS NOT NULL
) t WHERE t.row_num < 3;`,
    expected: { cheapest: 'SELECT product, order_id FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY product ORDER BY amount ASC) AS row_num FROM orders WHERE amount IS NOT NULL) WHERE row_num < 3' },
  },
  {
    name: 'Top-N over an aggregate',
    sql: `${ORDERS_DDL}${upsert('best', 'rk BIGINT, customer_id STRING, total DOUBLE', 'rk')}INSERT INTO best
SELECT rk, customer_id, total FROM (
  SELECT customer_id, total, ROW_NUMBER() OVER (ORDER BY total DESC) AS rk
  FROM (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id)
) WHERE rk <= 2;`,
    expected: { best: 'SELECT rk, customer_id, total FROM (SELECT customer_id, total, ROW_NUMBER() OVER (ORDER BY total DESC) AS rk FROM (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id)) WHERE rk <= 2' },
  },
  {
    name: 'deduplication: first row per key by event time',
    sql: `${ORDERS_DDL}${printSink('first_orders', 'customer_id STRING, order_id STRING, order_time TIMESTAMP(3)')}INSERT INTO first_orders
SELECT customer_id, order_id, order_time FROM (
  SELECT customer_id, order_id, order_time, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY order_time ASC) AS rn FROM orders
) WHERE rn = 1;`,
    expected: { first_orders: 'SELECT customer_id, order_id, order_time FROM (SELECT customer_id, order_id, order_time, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY order_time ASC) AS rn FROM orders) WHERE rn = 1' },
  },
  {
    name: 'deduplication: last row per key by event time',
    sql: `${CLICKS_DDL}${upsert('last_click', 'user_id STRING, url STRING', 'user_id')}INSERT INTO last_click
SELECT user_id, url FROM (
  SELECT user_id, url, click_time, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY click_time DESC) AS rn FROM clicks
) WHERE rn = 1;`,
    expected: { last_click: 'SELECT user_id, url FROM (SELECT user_id, url, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY click_time DESC) AS rn FROM clicks) WHERE rn = 1' },
  },
  {
    name: 'deduplication by processing time keeps the first arrival',
    sql: `CREATE TABLE clicks (
  user_id STRING, url STRING, click_time TIMESTAMP(3),
  proc AS PROCTIME()
) WITH ('connector' = 'filesystem', 'path' = 'clicks.jsonl', 'format' = 'json');
${printSink('first_url', 'user_id STRING, url STRING')}INSERT INTO first_url
SELECT user_id, url FROM (SELECT user_id, url, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY proc) AS rn FROM clicks) WHERE rn = 1;`,
    expected: { first_url: 'SELECT user_id, url FROM (SELECT user_id, url, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY rowid) AS rn FROM clicks) WHERE rn = 1' },
  },
  {
    name: 'Top-N per window of a window aggregate',
    sql: `${ORDERS_DDL}${printSink('top_products', 'window_start TIMESTAMP(3), product STRING, total DOUBLE, rn BIGINT')}INSERT INTO top_products
SELECT window_start, product, total, rn FROM (
  SELECT window_start, product, total, ROW_NUMBER() OVER (PARTITION BY window_start ORDER BY total DESC) AS rn
  FROM (SELECT window_start, product, SUM(amount) AS total FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR)) WHERE amount IS NOT NULL AND product IS NOT NULL GROUP BY window_start, window_end, product)
) WHERE rn <= 2;`,
    expected: { top_products: `SELECT window_start, product, total, rn FROM (SELECT window_start, product, total, ROW_NUMBER() OVER (PARTITION BY window_start ORDER BY total DESC) AS rn FROM (SELECT (order_time / 3600000) * 3600000 AS window_start, product, SUM(amount) AS total FROM orders WHERE amount IS NOT NULL AND product IS NOT NULL GROUP BY 1, product)) WHERE rn <= 2` },
  },
];
