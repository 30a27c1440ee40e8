/**
 * Oracle scripts for RANK() and DENSE_RANK() Top-N: ties share a rank, so a partition can keep
 * more than N rows. Quantities repeat (1 to 5), so every partition has ties; SQLite's RANK and
 * DENSE_RANK give what Flink's documented semantics give.
 */
import { ORDERS_DDL } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const H = 3_600_000;

export const rankCases: SqlOracleCase[] = [
  {
    name: 'RANK and DENSE_RANK Top-N over an append-only table: the orders of each customer with the two smallest quantities',
    sql: `${ORDERS_DDL}${printSink('by_rank', 'customer_id STRING, order_id STRING, qty INT, rk BIGINT')}${printSink('by_dense', 'customer_id STRING, order_id STRING, qty INT, rk BIGINT')}INSERT INTO by_rank
SELECT customer_id, order_id, qty, rk FROM (
  SELECT *, RANK() OVER (PARTITION BY customer_id ORDER BY qty) AS rk FROM orders
) WHERE rk <= 2;
INSERT INTO by_dense
SELECT customer_id, order_id, qty, rk FROM (
  SELECT *, DENSE_RANK() OVER (PARTITION BY customer_id ORDER BY qty) AS rk FROM orders
) WHERE rk <= 2;`,
    expected: {
      by_rank: 'SELECT customer_id, order_id, qty, rk FROM (SELECT *, RANK() OVER (PARTITION BY customer_id ORDER BY qty) AS rk FROM orders) WHERE rk <= 2',
      by_dense: 'SELECT customer_id, order_id, qty, rk FROM (SELECT *, DENSE_RANK() OVER (PARTITION BY customer_id ORDER BY qty) AS rk FROM orders) WHERE rk <= 2',
    },
  },
  {
    name: 'DENSE_RANK over an updating aggregate: every product tied for the most orders of each customer',
    sql: `${ORDERS_DDL}${printSink('favourites', 'customer_id STRING, product STRING, n BIGINT')}INSERT INTO favourites
SELECT customer_id, product, n FROM (
  SELECT customer_id, product, n, DENSE_RANK() OVER (PARTITION BY customer_id ORDER BY n DESC) AS rk
  FROM (SELECT customer_id, product, COUNT(*) AS n FROM orders WHERE product IS NOT NULL GROUP BY customer_id, product)
) WHERE rk = 1;`,
    expected: { favourites: 'SELECT customer_id, product, n FROM (SELECT customer_id, product, n, DENSE_RANK() OVER (PARTITION BY customer_id ORDER BY n DESC) AS rk FROM (SELECT customer_id, product, COUNT(*) AS n FROM orders WHERE product IS NOT NULL GROUP BY customer_id, product)) WHERE rk = 1' },
  },
  {
    name: 'window Top-N with RANK: the orders of each hour with the three largest quantities, ties included',
    sql: `${ORDERS_DDL}${printSink('hour_top', 'order_id STRING, window_start TIMESTAMP(3), qty INT, rk BIGINT')}INSERT INTO hour_top
SELECT order_id, window_start, qty, rk FROM (
  SELECT *, RANK() OVER (PARTITION BY window_start, window_end ORDER BY qty DESC) AS rk
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
) WHERE rk <= 3;`,
    expected: { hour_top: `SELECT order_id, window_start, qty, rk FROM (SELECT order_id, (order_time / ${H}) * ${H} AS window_start, qty, RANK() OVER (PARTITION BY order_time / ${H} ORDER BY qty DESC) AS rk FROM orders) WHERE rk <= 3` },
  },
];
