/**
 * Oracle scripts for the query shapes Flink users write beyond SELECT … FROM … WHERE … GROUP BY:
 * ORDER BY … LIMIT (global Top-N) and LIMIT alone, ORDER BY the time attribute, JOIN … USING and
 * NATURAL JOIN, UNION (distinct), inline VALUES, GROUPING SETS / ROLLUP / CUBE, and computed time
 * attributes. Expectations are SQLite queries where the query has a batch meaning (each of these
 * does: the final table of the streaming run equals the batch result).
 */
import { CUSTOMERS_DDL, ORDERS_DDL, PAYMENTS_DDL } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;

export const shapeCases: SqlOracleCase[] = [
  {
    name: 'shapes: the three largest orders, ORDER BY amount DESC LIMIT 3 (global Top-N)',
    sql: `${ORDERS_DDL}${printSink('biggest', 'order_id STRING, customer_id STRING, amount DOUBLE')}INSERT INTO biggest
SELECT order_id, customer_id, amount
FROM orders
ORDER BY amount DESC
LIMIT 3;`,
    expected: { biggest: 'SELECT order_id, customer_id, amount FROM orders ORDER BY amount DESC LIMIT 3' },
  },
  {
    name: 'shapes: the two customers with the most units, ORDER BY an aggregate LIMIT 2',
    sql: `${ORDERS_DDL}${printSink('top_buyers', 'customer_id STRING, units INT')}INSERT INTO top_buyers
SELECT customer_id, SUM(qty) AS units
FROM orders
GROUP BY customer_id
ORDER BY units DESC, customer_id
LIMIT 2;`,
    expected: { top_buyers: 'SELECT customer_id, SUM(qty) AS units FROM orders GROUP BY customer_id ORDER BY units DESC, customer_id LIMIT 2' },
  },
  {
    name: 'shapes: LIMIT without ORDER BY keeps the first rows that arrive',
    sql: `${ORDERS_DDL}${printSink('first_orders', 'order_id STRING, status STRING')}INSERT INTO first_orders
SELECT order_id, status FROM orders LIMIT 4;`,
    expected: { first_orders: 'SELECT order_id, status FROM orders ORDER BY rowid LIMIT 4' },
  },
  {
    name: 'shapes: paid orders in time order, ORDER BY the time attribute',
    sql: `${ORDERS_DDL}${printSink('paid_in_order', 'order_id STRING, amount DOUBLE, order_time TIMESTAMP(3)')}INSERT INTO paid_in_order
SELECT order_id, amount, order_time
FROM orders
WHERE status = 'paid'
ORDER BY order_time;`,
    expected: { paid_in_order: "SELECT order_id, amount, order_time FROM orders WHERE status = 'paid'" },
  },
];
