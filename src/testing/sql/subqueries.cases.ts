/**
 * Oracle scripts: IN / NOT IN / EXISTS / NOT EXISTS subqueries in WHERE, correlated and not, with
 * NULLs on either side, duplicates on the right and updating inputs (GROUP BY … HAVING under the
 * subquery, whose rows come and go). They have a batch meaning, so SQLite gives the final tables.
 */
import { CUSTOMERS_DDL, ORDERS_DDL, PAYMENTS_DDL } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;
const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;

export const subqueryCases: SqlOracleCase[] = [
  {
    name: 'IN (SELECT …): orders of gold customers',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('gold_orders', 'order_id STRING, customer_id STRING, amount DOUBLE')}INSERT INTO gold_orders
SELECT order_id, customer_id, amount FROM orders
WHERE customer_id IN (SELECT customer_id FROM customers WHERE tier = 'gold');`,
    expected: { gold_orders: "SELECT order_id, customer_id, amount FROM orders WHERE customer_id IN (SELECT customer_id FROM customers WHERE tier = 'gold')" },
  },
  {
    name: 'IN with duplicates on the right keeps each left row once, beside another predicate',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('c', 'customer_id STRING, name STRING')}INSERT INTO c
SELECT customer_id, name FROM customers
WHERE city IS NOT NULL AND customer_id IN (SELECT customer_id FROM orders WHERE status = 'paid');`,
    expected: { c: "SELECT customer_id, name FROM customers WHERE city IS NOT NULL AND customer_id IN (SELECT customer_id FROM orders WHERE status = 'paid')" },
  },
  {
    name: 'NOT IN (SELECT …): customers who never ordered',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('idle', 'customer_id STRING, name STRING')}INSERT INTO idle
SELECT customer_id, name FROM customers
WHERE customer_id NOT IN (SELECT customer_id FROM orders WHERE status = 'cancelled' AND qty >= 3);`,
    expected: { idle: "SELECT customer_id, name FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders WHERE status = 'cancelled' AND qty >= 3)" },
  },
  {
    name: 'NOT IN with NULLs on the right (per correlated key) and on the left',
    sql: `${ORDERS_DDL}${printSink('lonely', 'order_id STRING, product STRING')}INSERT INTO lonely
SELECT o.order_id, o.product FROM orders o
WHERE o.product NOT IN (SELECT p.product FROM orders p WHERE p.customer_id = o.customer_id AND p.order_id <> o.order_id);`,
    expected: { lonely: 'SELECT o.order_id, o.product FROM orders o WHERE o.product NOT IN (SELECT p.product FROM orders p WHERE p.customer_id = o.customer_id AND p.order_id <> o.order_id)' },
  },
  {
    name: 'NOT IN over a nullable column: a NULL left value is kept only where the subquery is empty',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('x', 'customer_id STRING, city STRING')}INSERT INTO x
SELECT c.customer_id, c.city FROM customers c
WHERE c.city NOT IN (SELECT c2.city FROM customers c2 WHERE c2.tier = c.tier AND c2.customer_id <> c.customer_id);`,
    expected: { x: 'SELECT c.customer_id, c.city FROM customers c WHERE c.city NOT IN (SELECT c2.city FROM customers c2 WHERE c2.tier = c.tier AND c2.customer_id <> c.customer_id)' },
  },
  {
    name: 'EXISTS correlated on the key: orders that were paid',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('paid', 'order_id STRING, amount DOUBLE')}INSERT INTO paid
SELECT o.order_id, o.amount FROM orders AS o
WHERE EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id);`,
    expected: { paid: 'SELECT o.order_id, o.amount FROM orders AS o WHERE EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id)' },
  },
  {
    name: 'NOT EXISTS correlated on the key: orders never paid',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('unpaid', 'order_id STRING, customer_id STRING')}INSERT INTO unpaid
SELECT o.order_id, o.customer_id FROM orders o
WHERE NOT EXISTS (SELECT * FROM payments WHERE payments.order_id = o.order_id) AND o.status <> 'cancelled';`,
    expected: { unpaid: "SELECT o.order_id, o.customer_id FROM orders o WHERE NOT EXISTS (SELECT * FROM payments WHERE payments.order_id = o.order_id) AND o.status <> 'cancelled'" },
  },
  {
    name: 'EXISTS with a non-equality condition beside the correlation key',
    sql: `${ORDERS_DDL}${printSink('bigger', 'order_id STRING, customer_id STRING, qty INT')}INSERT INTO bigger
SELECT o.order_id, o.customer_id, o.qty FROM orders o
WHERE EXISTS (SELECT 1 FROM orders o2 WHERE o2.customer_id = o.customer_id AND o2.qty > o.qty AND o2.status = 'shipped');`,
    expected: { bigger: "SELECT o.order_id, o.customer_id, o.qty FROM orders o WHERE EXISTS (SELECT 1 FROM orders o2 WHERE o2.customer_id = o.customer_id AND o2.qty > o.qty AND o2.status = 'shipped')" },
  },
  {
    name: 'NOT EXISTS with a non-equality condition: the largest order of each customer',
    sql: `${ORDERS_DDL}${upsert('top', 'order_id STRING, customer_id STRING, qty INT', 'order_id')}INSERT INTO top
SELECT o.order_id, o.customer_id, o.qty FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM orders o2 WHERE o2.customer_id = o.customer_id AND (o2.qty > o.qty OR (o2.qty = o.qty AND o2.order_id > o.order_id)));`,
    expected: { top: 'SELECT o.order_id, o.customer_id, o.qty FROM orders o WHERE NOT EXISTS (SELECT 1 FROM orders o2 WHERE o2.customer_id = o.customer_id AND (o2.qty > o.qty OR (o2.qty = o.qty AND o2.order_id > o.order_id)))' },
  },
  {
    name: 'IN over a GROUP BY … HAVING subquery whose rows are retracted as counts grow',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('quiet', 'customer_id STRING, name STRING')}INSERT INTO quiet
SELECT customer_id, name FROM customers
WHERE customer_id IN (SELECT customer_id FROM orders GROUP BY customer_id HAVING COUNT(*) <= 6);`,
    expected: { quiet: 'SELECT customer_id, name FROM customers WHERE customer_id IN (SELECT customer_id FROM orders GROUP BY customer_id HAVING COUNT(*) <= 6)' },
  },
  {
    name: 'NOT IN over an updating aggregate subquery',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('not_big', 'customer_id STRING, tier STRING')}INSERT INTO not_big
SELECT customer_id, tier FROM customers
WHERE customer_id NOT IN (SELECT customer_id FROM orders GROUP BY customer_id HAVING SUM(amount) > 400 AND COUNT(*) < 8);`,
    expected: { not_big: 'SELECT customer_id, tier FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders GROUP BY customer_id HAVING SUM(amount) > 400 AND COUNT(*) < 8)' },
  },
  {
    name: 'an updating left side: per-customer totals of the customers who have a cancelled order',
    sql: `${ORDERS_DDL}${upsert('totals', 'customer_id STRING, n BIGINT, total DOUBLE', 'customer_id')}INSERT INTO totals
SELECT customer_id, n, total FROM (SELECT customer_id, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer_id) t
WHERE customer_id IN (SELECT customer_id FROM orders WHERE status = 'cancelled');`,
    expected: { totals: "SELECT customer_id, n, total FROM (SELECT customer_id, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY customer_id) t WHERE customer_id IN (SELECT customer_id FROM orders WHERE status = 'cancelled')" },
  },
  {
    name: 'GROUP BY over an anti join',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${upsert('unpaid_by_customer', 'customer_id STRING, n BIGINT', 'customer_id')}INSERT INTO unpaid_by_customer
SELECT customer_id, COUNT(*) AS n FROM orders o
WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id)
GROUP BY customer_id;`,
    expected: { unpaid_by_customer: 'SELECT customer_id, COUNT(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id) GROUP BY customer_id' },
  },
  {
    name: 'uncorrelated EXISTS: every row while the subquery has a row',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('c', 'customer_id STRING')}INSERT INTO c
SELECT customer_id FROM customers WHERE EXISTS (SELECT 1 FROM orders WHERE qty = 5 AND status = 'shipped');`,
    expected: { c: "SELECT customer_id FROM customers WHERE EXISTS (SELECT 1 FROM orders WHERE qty = 5 AND status = 'shipped')" },
  },
  {
    name: 'nested: IN whose subquery has a NOT EXISTS of its own, in a CTE',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${PAYMENTS_DDL}${printSink('c', 'customer_id STRING, name STRING')}INSERT INTO c
WITH unpaid AS (
  SELECT o.order_id, o.customer_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id)
)
SELECT customer_id, name FROM customers
WHERE customer_id IN (SELECT u.customer_id FROM unpaid u WHERE u.order_id > 'o30');`,
    expected: { c: "SELECT customer_id, name FROM customers WHERE customer_id IN (SELECT u.customer_id FROM (SELECT o.order_id, o.customer_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id)) u WHERE u.order_id > 'o30')" },
  },
  {
    name: 'scalar subquery in WHERE: orders above the average amount (NULL amounts compare unknown)',
    sql: `${ORDERS_DDL}${printSink('above', 'order_id STRING, amount DOUBLE')}INSERT INTO above
SELECT order_id, amount FROM orders WHERE amount > (SELECT AVG(amount) FROM orders);`,
    expected: { above: 'SELECT order_id, amount FROM orders WHERE amount > (SELECT AVG(amount) FROM orders)' },
  },
  {
    name: 'scalar subquery with a WHERE of its own, beside an IN subquery',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('m', 'order_id STRING, qty INT')}INSERT INTO m
SELECT order_id, qty FROM orders
WHERE qty = (SELECT MAX(qty) FROM orders WHERE status = 'cancelled' AND currency = 'EUR')
  AND customer_id IN (SELECT customer_id FROM customers WHERE tier = 'silver');`,
    expected: { m: "SELECT order_id, qty FROM orders WHERE qty = (SELECT MAX(qty) FROM orders WHERE status = 'cancelled' AND currency = 'EUR') AND customer_id IN (SELECT customer_id FROM customers WHERE tier = 'silver')" },
  },
  {
    name: 'scalar subquery over an updating input: customers whose total beats 5 × the average order',
    sql: `${ORDERS_DDL}${upsert('big', 'customer_id STRING, total DOUBLE', 'customer_id')}INSERT INTO big
SELECT customer_id, total FROM (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id) t
WHERE total > (SELECT AVG(amount) * 5 FROM orders);`,
    expected: { big: 'SELECT customer_id, total FROM (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id) t WHERE total > (SELECT AVG(amount) * 5 FROM orders)' },
  },
  {
    name: 'scalar subqueries in the SELECT list: each order beside the average and its share of the total',
    sql: `${ORDERS_DDL}${printSink('share', 'order_id STRING, amount DOUBLE, avg_amount DOUBLE, pct DOUBLE')}INSERT INTO share
SELECT order_id, amount, (SELECT AVG(amount) FROM orders) AS avg_amount,
       ROUND(100 * amount / (SELECT SUM(amount) FROM orders WHERE status <> 'cancelled'), 2) AS pct
FROM orders WHERE status = 'paid';`,
    expected: { share: "SELECT order_id, amount, (SELECT AVG(amount) FROM orders) AS avg_amount, ROUND(100 * amount / (SELECT SUM(amount) FROM orders WHERE status <> 'cancelled'), 2) AS pct FROM orders WHERE status = 'paid'" },
  },
  {
    name: 'scalar subquery in the SELECT list over an updating input',
    sql: `${ORDERS_DDL}${upsert('vs_best', 'customer_id STRING, n BIGINT, best BIGINT', 'customer_id')}INSERT INTO vs_best
SELECT customer_id, n, (SELECT MAX(c) FROM (SELECT customer_id, COUNT(*) AS c FROM orders GROUP BY customer_id) x) AS best
FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) t;`,
    expected: { vs_best: 'SELECT customer_id, n, (SELECT MAX(c) FROM (SELECT customer_id, COUNT(*) AS c FROM orders GROUP BY customer_id) x) AS best FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) t' },
  },
];
