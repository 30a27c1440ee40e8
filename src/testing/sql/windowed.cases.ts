/**
 * Oracle scripts for OVER aggregation and the window operators on window table functions: window
 * join, window Top-N and window deduplication. SQLite's window functions and integer division
 * (the hour of a timestamp) compute what Flink's documented semantics give on this in-order data.
 */
import { ORDERS_DDL, PAYMENTS_DDL, orders } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { windowsOf } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const H = 3_600_000;
const PRICED = 'CREATE TEMPORARY VIEW priced AS SELECT * FROM orders WHERE amount IS NOT NULL;\n';

export const windowedCases: SqlOracleCase[] = [
  {
    name: 'OVER ROWS: a running sum of the last three orders per customer',
    sql: `${ORDERS_DDL}${printSink('last_three', 'order_id STRING, customer_id STRING, last3 DOUBLE')}INSERT INTO last_three
SELECT order_id, customer_id, SUM(amount) OVER (PARTITION BY customer_id ORDER BY order_time ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS last3
FROM orders;`,
    expected: { last_three: 'SELECT order_id, customer_id, SUM(amount) OVER (PARTITION BY customer_id ORDER BY order_time ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS last3 FROM orders' },
  },
  {
    name: 'OVER RANGE: orders and the largest amount of the last hour per product',
    sql: `${ORDERS_DDL}${printSink('hourly', 'order_id STRING, n BIGINT, top DOUBLE')}INSERT INTO hourly
SELECT order_id,
  COUNT(*) OVER w1 AS n,
  MAX(amount) OVER w1 AS top
FROM orders
WINDOW w1 AS (PARTITION BY product ORDER BY order_time RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW);`.replace(
      /OVER w1 AS (\w+)/g,
      "OVER (PARTITION BY product ORDER BY order_time RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS $1",
    ).replace(/\nWINDOW w1 AS \(.*\);/, ';'),
    expected: { hourly: `SELECT order_id, COUNT(*) OVER w AS n, MAX(amount) OVER w AS top FROM orders WINDOW w AS (PARTITION BY product ORDER BY order_time RANGE BETWEEN ${H} PRECEDING AND CURRENT ROW)` },
  },
  {
    name: 'OVER with no frame: the running count per customer (RANGE UNBOUNDED PRECEDING)',
    sql: `${ORDERS_DDL}${printSink('counts', 'order_id STRING, nth BIGINT')}INSERT INTO counts
SELECT order_id, COUNT(order_id) OVER (PARTITION BY customer_id ORDER BY order_time) AS nth FROM orders WHERE status <> 'cancelled';`,
    expected: { counts: "SELECT order_id, COUNT(order_id) OVER (PARTITION BY customer_id ORDER BY order_time) AS nth FROM orders WHERE status <> 'cancelled'" },
  },
  ...(
    [
      ['TUMBLE with an offset', "TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR, INTERVAL '15' MINUTE)", { type: 'tumble', size: H, offset: 15 * 60_000 }],
      ['HOP', "HOP(TABLE orders, DESCRIPTOR(order_time), INTERVAL '20' MINUTE, INTERVAL '1' HOUR)", { type: 'hop', size: H, slide: 20 * 60_000 }],
      ['HOP whose slide does not divide its size', "HOP(TABLE orders, DESCRIPTOR(order_time), INTERVAL '25' MINUTE, INTERVAL '1' HOUR)", { type: 'hop', size: H, slide: 25 * 60_000 }],
      ['CUMULATE', "CUMULATE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '20' MINUTE, INTERVAL '1' HOUR)", { type: 'cumulate', size: H, step: 20 * 60_000 }],
    ] as const
  ).map(([what, tvf, w]): SqlOracleCase => ({
    name: `${what} read as a table: each row once per window it falls in, with window_start, window_end and window_time`,
    sql: `${ORDERS_DDL}${printSink('windowed_rows', 'order_id STRING, amount DOUBLE, window_start TIMESTAMP(3), window_end TIMESTAMP(3), window_time TIMESTAMP(3)')}INSERT INTO windowed_rows
SELECT order_id, amount, window_start, window_end, window_time FROM TABLE(${tvf});`,
    expected: {
      windowed_rows: () => orders.flatMap((o) => windowsOf(o.order_time as number, w).map(([start, end]) => ({ order_id: o.order_id, amount: o.amount, window_start: start, window_end: end, window_time: end - 1 }))),
    },
  })),
  {
    name: 'window GROUPING SETS: per product and overall in each hour',
    sql: `${ORDERS_DDL}${printSink('hourly_sets', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), product STRING, n BIGINT, total DOUBLE')}INSERT INTO hourly_sets
SELECT window_start, window_end, product, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
GROUP BY window_start, window_end, GROUPING SETS ((product), ());`,
    expected: {
      hourly_sets: `SELECT (order_time / ${H}) * ${H} AS window_start, (order_time / ${H}) * ${H} + ${H} AS window_end, product, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY 1, product
UNION ALL SELECT (order_time / ${H}) * ${H}, (order_time / ${H}) * ${H} + ${H}, NULL, COUNT(*), SUM(amount) FROM orders GROUP BY 1`,
    },
  },
  {
    name: 'window ROLLUP: per currency and product, per currency, and overall in each hour, with GROUPING()',
    sql: `${ORDERS_DDL}${printSink('hourly_rollup', 'window_start TIMESTAMP(3), currency STRING, product STRING, rolled INT, n BIGINT')}INSERT INTO hourly_rollup
SELECT window_start, currency, product, GROUPING(currency, product) AS rolled, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
GROUP BY window_start, window_end, ROLLUP (currency, product);`,
    expected: {
      hourly_rollup: `SELECT (order_time / ${H}) * ${H} AS window_start, currency, product, 0 AS rolled, COUNT(*) AS n FROM orders GROUP BY 1, currency, product
UNION ALL SELECT (order_time / ${H}) * ${H}, currency, NULL, 1, COUNT(*) FROM orders GROUP BY 1, currency
UNION ALL SELECT (order_time / ${H}) * ${H}, NULL, NULL, 3, COUNT(*) FROM orders GROUP BY 1`,
    },
  },
  {
    name: 'window Top-N: the two largest orders of each hour',
    sql: `${ORDERS_DDL}${PRICED}${printSink('top2', 'order_id STRING, window_start TIMESTAMP(3), amount DOUBLE, rn BIGINT')}INSERT INTO top2
SELECT order_id, window_start, amount, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn
  FROM TABLE(TUMBLE(TABLE priced, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
) WHERE rn <= 2;`,
    expected: { top2: `SELECT order_id, window_start, amount, rn FROM (SELECT order_id, (order_time / ${H}) * ${H} AS window_start, amount, ROW_NUMBER() OVER (PARTITION BY order_time / ${H} ORDER BY amount DESC) AS rn FROM orders WHERE amount IS NOT NULL) WHERE rn <= 2` },
  },
  {
    // Flink's window Top-N docs rank a window aggregate in the same SELECT: the OVER reads the
    // aggregated rows, here ordered by an aggregate the SELECT list does not keep.
    name: 'window Top-N in the GROUP BY query: the two customers of each hour with the largest spend',
    sql: `${ORDERS_DDL}${PRICED}${printSink('top_spenders', 'window_start TIMESTAMP(3), customer_id STRING, n BIGINT, rn BIGINT')}INSERT INTO top_spenders
SELECT window_start, customer_id, n, rn FROM (
  SELECT window_start, window_end, customer_id, COUNT(*) AS n,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY SUM(amount) DESC) AS rn
  FROM TABLE(TUMBLE(TABLE priced, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
  GROUP BY window_start, window_end, customer_id
) WHERE rn <= 2;`,
    expected: { top_spenders: `SELECT window_start, customer_id, n, rn FROM (SELECT window_start, customer_id, n, ROW_NUMBER() OVER (PARTITION BY window_start ORDER BY spend DESC) AS rn FROM (SELECT (order_time / ${H}) * ${H} AS window_start, customer_id, COUNT(*) AS n, SUM(amount) AS spend FROM orders WHERE amount IS NOT NULL GROUP BY order_time / ${H}, customer_id)) WHERE rn <= 2` },
  },
  {
    name: 'Top-N in the GROUP BY query: the best-selling product of each customer by quantity',
    sql: `${ORDERS_DDL}${printSink('favourite', 'customer_id STRING, product STRING, qty BIGINT')}INSERT INTO favourite
SELECT customer_id, product, qty FROM (
  SELECT customer_id, product, SUM(qty) AS qty,
    ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY SUM(qty) DESC, product) AS rn
  FROM orders WHERE product IS NOT NULL
  GROUP BY customer_id, product
) WHERE rn = 1;`,
    expected: { favourite: `SELECT customer_id, product, qty FROM (SELECT customer_id, product, qty, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY qty DESC, product) AS rn FROM (SELECT customer_id, product, SUM(qty) AS qty FROM orders WHERE product IS NOT NULL GROUP BY customer_id, product)) WHERE rn = 1` },
  },
  {
    name: 'window deduplication: the first order of each customer per hour',
    sql: `${ORDERS_DDL}${printSink('firsts', 'order_id STRING, customer_id STRING, window_start TIMESTAMP(3)')}INSERT INTO firsts
SELECT order_id, customer_id, window_start FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, customer_id ORDER BY order_time ASC) AS rownum
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
) WHERE rownum = 1;`,
    expected: { firsts: `SELECT order_id, customer_id, window_start FROM (SELECT order_id, customer_id, (order_time / ${H}) * ${H} AS window_start, ROW_NUMBER() OVER (PARTITION BY customer_id, order_time / ${H} ORDER BY order_time) AS rn FROM orders) WHERE rn = 1` },
  },
  {
    name: 'window join: orders and their payments within the same hour',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('paid_in_hour', 'order_id STRING, payment_id STRING, window_start TIMESTAMP(3)')}INSERT INTO paid_in_hour
SELECT o.order_id, p.payment_id, o.window_start
FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))) o
JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(pay_time), INTERVAL '1' HOUR))) p
  ON o.order_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end;`,
    expected: { paid_in_hour: `SELECT o.order_id, p.payment_id, (o.order_time / ${H}) * ${H} AS window_start FROM orders o JOIN payments p ON o.order_id = p.order_id AND o.order_time / ${H} = p.pay_time / ${H}` },
  },
  {
    name: 'window left join: every order of the hour, with its payment when it came in the same hour',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('maybe_paid', 'order_id STRING, payment_id STRING')}INSERT INTO maybe_paid
SELECT o.order_id, p.payment_id
FROM (SELECT order_id, order_time, window_start, window_end FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))) o
LEFT JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(pay_time), INTERVAL '1' HOUR))) p
  ON o.order_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end;`,
    expected: { maybe_paid: `SELECT o.order_id, p.payment_id FROM orders o LEFT JOIN payments p ON o.order_id = p.order_id AND o.order_time / ${H} = p.pay_time / ${H}` },
  },
];
