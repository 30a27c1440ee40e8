/**
 * Oracle scripts for the query shapes Flink users write beyond SELECT … FROM … WHERE … GROUP BY:
 * ORDER BY … LIMIT (global Top-N) and LIMIT alone, ORDER BY the time attribute, JOIN … USING and
 * NATURAL JOIN, UNION (distinct), inline VALUES, GROUPING SETS / ROLLUP / CUBE, and computed time
 * attributes. Expectations are SQLite queries where the query has a batch meaning (each of these
 * does: the final table of the streaming run equals the batch result).
 */
import { CUSTOMERS_DDL, ORDERS_DDL, PAYMENTS_DDL, events, orders } from './data.ts';
import type { Row } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { windowsOf } from './oracleCase.ts';

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
    name: 'shapes: the third to fifth customers by units, LIMIT 3 OFFSET 2 over an updating aggregate',
    sql: `${ORDERS_DDL}${printSink('next_buyers', 'customer_id STRING, units INT')}INSERT INTO next_buyers
SELECT customer_id, SUM(qty) AS units
FROM orders
GROUP BY customer_id
ORDER BY units DESC, customer_id
LIMIT 3 OFFSET 2;`,
    expected: { next_buyers: 'SELECT customer_id, SUM(qty) AS units FROM orders GROUP BY customer_id ORDER BY units DESC, customer_id LIMIT 3 OFFSET 2' },
  },
  {
    name: 'shapes: OFFSET 4 ROWS FETCH NEXT 2 ROWS ONLY, and FETCH FIRST 3 ROWS ONLY, the standard spellings',
    sql: `${ORDERS_DDL}${printSink('mid_orders', 'order_id STRING, amount DOUBLE')}${printSink('first_orders', 'order_id STRING, amount DOUBLE')}INSERT INTO mid_orders
SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id OFFSET 4 ROWS FETCH NEXT 2 ROWS ONLY;
INSERT INTO first_orders
SELECT order_id, amount FROM orders ORDER BY amount, order_id FETCH FIRST 3 ROWS ONLY;`,
    expected: {
      mid_orders: 'SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 2 OFFSET 4',
      first_orders: 'SELECT order_id, amount FROM orders ORDER BY amount, order_id LIMIT 3',
    },
  },
  {
    name: 'shapes: ORDER BY a column the SELECT list leaves out, LIMIT 3',
    sql: `${ORDERS_DDL}${printSink('biggest_ids', 'order_id STRING, customer_id STRING')}INSERT INTO biggest_ids
SELECT order_id, customer_id FROM orders ORDER BY amount DESC LIMIT 3;`,
    expected: { biggest_ids: 'SELECT order_id, customer_id FROM orders ORDER BY amount DESC LIMIT 3' },
  },
  {
    name: 'shapes: ORDER BY an aggregate and an expression the SELECT list leaves out',
    sql: `${ORDERS_DDL}${printSink('busiest', 'customer_id STRING')}${printSink('dearest_lines', 'order_id STRING')}INSERT INTO busiest
SELECT customer_id FROM orders GROUP BY customer_id ORDER BY SUM(qty) DESC, customer_id LIMIT 2;
INSERT INTO dearest_lines SELECT order_id FROM orders ORDER BY amount * qty DESC, order_id LIMIT 3;`,
    expected: {
      busiest: 'SELECT customer_id FROM orders GROUP BY customer_id ORDER BY SUM(qty) DESC, customer_id LIMIT 2',
      dearest_lines: 'SELECT order_id FROM orders ORDER BY amount * qty DESC, order_id LIMIT 3',
    },
  },
  {
    name: 'shapes: ORDER BY positions of the SELECT list',
    sql: `${ORDERS_DDL}${printSink('top_units', 'customer_id STRING, units INT')}INSERT INTO top_units
SELECT customer_id, SUM(qty) AS units FROM orders GROUP BY customer_id ORDER BY 2 DESC, 1 LIMIT 2;`,
    expected: { top_units: 'SELECT customer_id, SUM(qty) AS units FROM orders GROUP BY customer_id ORDER BY 2 DESC, 1 LIMIT 2' },
  },
  {
    name: 'shapes: ORDER BY the time attribute when the SELECT list leaves it out',
    sql: `${ORDERS_DDL}${printSink('paid_ids', 'order_id STRING, amount DOUBLE')}INSERT INTO paid_ids
SELECT order_id, amount FROM orders WHERE status = 'paid' ORDER BY order_time;`,
    expected: { paid_ids: "SELECT order_id, amount FROM orders WHERE status = 'paid'" },
  },
  {
    name: 'shapes: SELECT without FROM is one row of constants, alone and in a UNION ALL',
    sql: `${ORDERS_DDL}${printSink('with_marker', 'label STRING, n INT')}INSERT INTO with_marker
SELECT CONCAT('total', '!') AS label, 40 + 2 AS n
UNION ALL
SELECT order_id, qty FROM orders WHERE qty = 5;`,
    expected: { with_marker: "SELECT 'total!' AS label, 42 AS n UNION ALL SELECT order_id, qty FROM orders WHERE qty = 5" },
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
  {
    name: 'shapes: orders with their customer, JOIN … USING (customer_id)',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('order_names', 'order_id STRING, customer_id STRING, name STRING, city STRING')}INSERT INTO order_names
SELECT order_id, customer_id, name, c.city
FROM orders o
JOIN customers c USING (customer_id);`,
    expected: { order_names: 'SELECT o.order_id, o.customer_id, c.name, c.city FROM orders o JOIN customers c ON o.customer_id = c.customer_id' },
  },
  {
    name: 'shapes: SELECT * over a LEFT JOIN … USING lists the key once, first',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${upsert('orders_wide', 'customer_id STRING, order_id STRING, product STRING, amount DOUBLE, qty INT, currency STRING, status STRING, order_time TIMESTAMP(3), name STRING, city STRING, tier STRING', 'order_id')}INSERT INTO orders_wide
SELECT *
FROM orders
LEFT JOIN customers USING (customer_id);`,
    expected: {
      orders_wide: `SELECT o.customer_id, o.order_id, o.product, o.amount, o.qty, o.currency, o.status, o.order_time, c.name, c.city, c.tier
        FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id`,
    },
  },
  {
    name: 'shapes: payments with their order, NATURAL JOIN on order_id',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('paid_orders', 'order_id STRING, amount DOUBLE, pay_method STRING')}INSERT INTO paid_orders
SELECT order_id, amount, pay_method
FROM orders NATURAL JOIN payments;`,
    expected: { paid_orders: 'SELECT o.order_id, o.amount, p.pay_method FROM orders o JOIN payments p ON o.order_id = p.order_id' },
  },
  {
    name: 'shapes: cancellations and gold customers side by side, FULL JOIN … USING merges the key with COALESCE',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${upsert('gold_or_cancelled', 'customer_id STRING, cancelled BIGINT, name STRING', 'customer_id')}INSERT INTO gold_or_cancelled
SELECT customer_id, x.cancelled, g.name
FROM (SELECT customer_id, COUNT(*) AS cancelled FROM orders WHERE status = 'cancelled' AND customer_id <> 'c0' GROUP BY customer_id) AS x
FULL OUTER JOIN (SELECT customer_id, name FROM customers WHERE tier = 'gold') AS g
USING (customer_id);`,
    expected: {
      gold_or_cancelled: `WITH x AS (SELECT customer_id, COUNT(*) AS cancelled FROM orders WHERE status = 'cancelled' AND customer_id <> 'c0' GROUP BY customer_id),
        g AS (SELECT customer_id, name FROM customers WHERE tier = 'gold')
        SELECT x.customer_id, x.cancelled, g.name FROM x LEFT JOIN g ON x.customer_id = g.customer_id
        UNION ALL SELECT g.customer_id, NULL, g.name FROM g WHERE g.customer_id NOT IN (SELECT customer_id FROM x)`,
    },
  },
  {
    name: 'shapes: every customer id seen in orders or in the customer table, UNION',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('known_ids', 'id STRING')}INSERT INTO known_ids
SELECT customer_id AS id FROM orders
UNION
SELECT customer_id FROM customers;`,
    expected: { known_ids: 'SELECT customer_id AS id FROM orders UNION SELECT customer_id FROM customers' },
  },
  {
    name: 'shapes: UNION over an updating aggregate retracts the rows it no longer holds',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('tiers_and_counts', 'customer_id STRING, label STRING')}INSERT INTO tiers_and_counts
SELECT customer_id, CASE WHEN COUNT(*) >= 7 THEN 'frequent' ELSE 'occasional' END AS label
FROM orders
GROUP BY customer_id
UNION
SELECT customer_id, CASE WHEN tier = 'gold' THEN 'frequent' ELSE 'occasional' END FROM customers
UNION ALL
SELECT customer_id, 'occasional' FROM customers WHERE city = 'Tainan';`,
    expected: {
      tiers_and_counts: `SELECT customer_id, CASE WHEN COUNT(*) >= 7 THEN 'frequent' ELSE 'occasional' END AS label FROM orders GROUP BY customer_id
        UNION SELECT customer_id, CASE WHEN tier = 'gold' THEN 'frequent' ELSE 'occasional' END FROM customers
        UNION ALL SELECT customer_id, 'occasional' FROM customers WHERE city = 'Tainan'`,
    },
  },
  {
    name: 'shapes: a time attribute parsed from zone-less text, TO_TIMESTAMP(event_text), counted per 10-minute TUMBLE window',
    sql: `CREATE TABLE events (
  event_id STRING,
  user_id STRING,
  amount DOUBLE,
  event_text STRING,
  ts AS TO_TIMESTAMP(event_text),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/events.jsonl', 'format' = 'json');
${printSink('events_per_10min', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT, total DOUBLE')}INSERT INTO events_per_10min
SELECT window_start, window_end, COUNT(*) AS n, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' MINUTE))
GROUP BY window_start, window_end;`,
    expected: {
      events_per_10min: `SELECT (strftime('%s', event_text) * 1000 / 600000) * 600000 AS window_start, (strftime('%s', event_text) * 1000 / 600000) * 600000 + 600000 AS window_end,
        COUNT(*) AS n, SUM(amount) AS total FROM events GROUP BY 1, 2`,
    },
  },
  {
    name: 'shapes: a time attribute cast from text, CAST(event_text AS TIMESTAMP(3)), in a group window per user',
    sql: `CREATE TABLE events (
  event_id STRING,
  user_id STRING,
  amount DOUBLE,
  event_text STRING,
  event_time AS CAST(event_text AS TIMESTAMP(3)),
  WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/events.jsonl', 'format' = 'json');
${printSink('user_hours', 'user_id STRING, hour_start TIMESTAMP(3), n BIGINT')}INSERT INTO user_hours
SELECT user_id, TUMBLE_START(event_time, INTERVAL '1' HOUR) AS hour_start, COUNT(*) AS n
FROM events
GROUP BY user_id, TUMBLE(event_time, INTERVAL '1' HOUR);`,
    expected: { user_hours: "SELECT user_id, (strftime('%s', event_text) * 1000 / 3600000) * 3600000 AS hour_start, COUNT(*) AS n FROM events GROUP BY 1, 2" },
  },
  {
    name: "shapes: a time attribute in a local text format, TO_TIMESTAMP(event_local, 'dd/MM/yyyy HH:mm:ss'), with another computed column",
    sql: `CREATE TABLE events (
  event_id STRING,
  user_id STRING,
  amount DOUBLE,
  event_local STRING,
  amount_cents AS CAST(ROUND(amount * 100, 0) AS BIGINT),
  ts AS TO_TIMESTAMP(event_local, 'dd/MM/yyyy HH:mm:ss'),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/events.jsonl', 'format' = 'json');
${printSink('events_parsed', 'event_id STRING, ts TIMESTAMP(3), amount_cents BIGINT')}INSERT INTO events_parsed
SELECT event_id, ts, amount_cents FROM events WHERE amount_cents > 5000;`,
    expected: {
      events_parsed: `SELECT event_id, strftime('%s', event_text) * 1000 AS ts, CAST(ROUND(amount * 100, 0) AS INTEGER) AS amount_cents FROM events WHERE ROUND(amount * 100, 0) > 5000`,
    },
  },
  {
    name: 'shapes: a time attribute from epoch seconds, TO_TIMESTAMP_LTZ(event_sec, 0), in a HOP window',
    sql: `CREATE TABLE events (
  event_id STRING,
  user_id STRING,
  event_sec BIGINT,
  ts AS TO_TIMESTAMP_LTZ(event_sec, 0),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/events.jsonl', 'format' = 'json');
${printSink('active_users', 'window_end TIMESTAMP(3), users BIGINT')}INSERT INTO active_users
SELECT window_end, COUNT(DISTINCT user_id) AS users
FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '30' MINUTE, INTERVAL '1' HOUR))
GROUP BY window_start, window_end;`,
    expected: {
      active_users: () => {
        const out = new Map<number, Set<unknown>>();
        for (const e of events) for (const [, end] of windowsOf((e.event_sec as number) * 1000, { type: 'hop', size: 3_600_000, slide: 1_800_000 })) out.set(end, (out.get(end) ?? new Set()).add(e.user_id));
        return [...out].map(([end, users]) => ({ window_end: end, users: users.size }));
      },
    },
  },
  {
    name: 'shapes: amounts in USD through an inline rate table, JOIN (VALUES …) AS fx(currency, rate)',
    sql: `${ORDERS_DDL}${upsert('usd_per_customer', 'customer_id STRING, usd DOUBLE', 'customer_id')}INSERT INTO usd_per_customer
SELECT o.customer_id, SUM(o.amount * fx.rate) AS usd
FROM orders AS o
JOIN (VALUES ('USD', 1.0), ('EUR', 1.1), ('TWD', 0.031)) AS fx(currency, rate)
  ON o.currency = fx.currency
GROUP BY o.customer_id;`,
    expected: {
      usd_per_customer: `WITH fx(currency, rate) AS (VALUES ('USD', 1.0), ('EUR', 1.1), ('TWD', 0.031))
        SELECT o.customer_id, SUM(o.amount * fx.rate) AS usd FROM orders o JOIN fx ON o.currency = fx.currency GROUP BY o.customer_id`,
    },
  },
  {
    name: 'shapes: INSERT INTO … VALUES writes its rows, NULL and a TIMESTAMP literal included',
    sql: `${printSink('announcements', 'id INT, title STRING, priority DOUBLE, published TIMESTAMP(3)')}INSERT INTO announcements VALUES
  (1, 'maintenance window', 2, TIMESTAMP '2024-03-01 02:00:00'),
  (2, 'new region', 0.5, NULL),
  (3, NULL, 1, TIMESTAMP '2024-03-02 12:30:00');`,
    expected: {
      announcements: () => [
        { id: 1, title: 'maintenance window', priority: 2, published: Date.UTC(2024, 2, 1, 2) },
        { id: 2, title: 'new region', priority: 0.5, published: null },
        { id: 3, title: null, priority: 1, published: Date.UTC(2024, 2, 2, 12, 30) },
      ],
    },
  },
  {
    name: 'shapes: INSERT INTO … VALUES with expressions: a typed NULL, arithmetic, a function, a timestamp plus an interval',
    sql: `${printSink('notes', 'id INT, title STRING, score DOUBLE, due TIMESTAMP(3)')}INSERT INTO notes VALUES
  (1 + 1, CAST(NULL AS STRING), 2.5 * 2, TIMESTAMP '2024-03-01 02:00:00' + INTERVAL '1' HOUR),
  (3, UPPER('ok'), CAST(1 AS DOUBLE), CAST(NULL AS TIMESTAMP(3)));`,
    expected: {
      notes: () => [
        { id: 2, title: null, score: 5, due: Date.UTC(2024, 2, 1, 3) },
        { id: 3, title: 'OK', score: 1, due: null },
      ],
    },
  },
  {
    name: 'shapes: sales per currency and status with subtotals, GROUP BY ROLLUP (currency, status)',
    sql: `${ORDERS_DDL}${printSink('sales_rollup', 'currency STRING, status STRING, n BIGINT, total DOUBLE')}INSERT INTO sales_rollup
SELECT currency, status, COUNT(*) AS n, SUM(amount) AS total
FROM orders
GROUP BY ROLLUP (currency, status);`,
    expected: {
      sales_rollup: `SELECT currency, status, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY currency, status
        UNION ALL SELECT currency, NULL, COUNT(*), SUM(amount) FROM orders GROUP BY currency
        UNION ALL SELECT NULL, NULL, COUNT(*), SUM(amount) FROM orders`,
    },
  },
  {
    name: 'shapes: order counts over every combination of currency and status, GROUP BY CUBE',
    sql: `${ORDERS_DDL}${printSink('sales_cube', 'currency STRING, status STRING, n BIGINT')}INSERT INTO sales_cube
SELECT currency, status, COUNT(*) AS n
FROM orders
GROUP BY CUBE (currency, status);`,
    expected: {
      sales_cube: `SELECT currency, status, COUNT(*) AS n FROM orders GROUP BY currency, status
        UNION ALL SELECT currency, NULL, COUNT(*) FROM orders GROUP BY currency
        UNION ALL SELECT NULL, status, COUNT(*) FROM orders GROUP BY status
        UNION ALL SELECT NULL, NULL, COUNT(*) FROM orders`,
    },
  },
  {
    name: 'shapes: units per customer, per product and overall, GROUPING SETS ((customer_id), (product), ()) keeps the NULL product apart from the total',
    sql: `${ORDERS_DDL}${printSink('units_sets', 'customer_id STRING, product STRING, units INT')}INSERT INTO units_sets
SELECT customer_id, product, SUM(qty) AS units
FROM orders
GROUP BY GROUPING SETS ((customer_id), (product), ());`,
    expected: {
      units_sets: `SELECT customer_id, NULL AS product, SUM(qty) AS units FROM orders GROUP BY customer_id
        UNION ALL SELECT NULL, product, SUM(qty) FROM orders GROUP BY product
        UNION ALL SELECT NULL, NULL, SUM(qty) FROM orders`,
    },
  },
  {
    name: 'shapes: GROUP BY status, ROLLUP (currency) over the latest status of each order (an updating input)',
    sql: `${ORDERS_DDL}${printSink('status_rollup', 'status STRING, currency STRING, n BIGINT')}INSERT INTO status_rollup
SELECT status, currency, COUNT(*) AS n
FROM (SELECT customer_id, MAX(status) AS status, MIN(currency) AS currency FROM orders GROUP BY customer_id)
GROUP BY status, ROLLUP (currency);`,
    expected: {
      status_rollup: `WITH latest AS (SELECT customer_id, MAX(status) AS status, MIN(currency) AS currency FROM orders GROUP BY customer_id)
        SELECT status, currency, COUNT(*) AS n FROM latest GROUP BY status, currency
        UNION ALL SELECT status, NULL, COUNT(*) FROM latest GROUP BY status`,
    },
  },
  {
    name: 'shapes: the two largest paid orders of each hour, window Top-N on a TUMBLE with WHERE, the time attribute not selected',
    sql: `${ORDERS_DDL}${printSink('top_paid_hourly', 'window_start TIMESTAMP(3), order_id STRING, amount DOUBLE, rn BIGINT')}INSERT INTO top_paid_hourly
SELECT window_start, order_id, amount, rn
FROM (
  SELECT order_id, amount, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn
  FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
  WHERE status = 'paid'
)
WHERE rn <= 2;`,
    expected: {
      top_paid_hourly: () => {
        const byWindow = new Map<number, Row[]>();
        for (const o of orders.filter((x) => x.status === 'paid')) {
          const [[start]] = windowsOf(o.order_time as number, { type: 'tumble', size: 3_600_000 });
          byWindow.set(start, [...(byWindow.get(start) ?? []), o]);
        }
        const amount = (r: Row) => (r.amount === null ? -Infinity : (r.amount as number));
        return [...byWindow].flatMap(([start, rows]) =>
          [...rows].sort((a, b) => amount(b) - amount(a)).slice(0, 2).map((r, i) => ({ window_start: start, order_id: r.order_id, amount: r.amount, rn: i + 1 })),
        );
      },
    },
  },
  {
    name: "shapes: labelled subtotals with GROUPING() and GROUPING_ID() under ROLLUP (currency, status)",
    sql: `${ORDERS_DDL}${printSink('labelled_totals', 'currency STRING, status STRING, lvl INT, n BIGINT')}INSERT INTO labelled_totals
SELECT
  CASE WHEN GROUPING(currency) = 1 THEN 'all currencies' ELSE currency END AS currency,
  CASE WHEN GROUPING(status) = 1 THEN 'all' ELSE status END AS status,
  GROUPING_ID(currency, status) AS lvl,
  COUNT(*) AS n
FROM orders
GROUP BY ROLLUP (currency, status);`,
    expected: {
      labelled_totals: `SELECT currency, status, 0 AS lvl, COUNT(*) AS n FROM orders GROUP BY currency, status
        UNION ALL SELECT currency, 'all', 1, COUNT(*) FROM orders GROUP BY currency
        UNION ALL SELECT 'all currencies', 'all', 3, COUNT(*) FROM orders`,
    },
  },
  {
    name: 'shapes: ORDER BY … LIMIT after a UNION ALL orders the whole union',
    sql: `${ORDERS_DDL}${printSink('largest_usd_eur', 'order_id STRING, currency STRING, amount DOUBLE')}INSERT INTO largest_usd_eur
SELECT order_id, currency, amount FROM orders WHERE currency = 'USD'
UNION ALL
SELECT order_id, currency, amount FROM orders WHERE currency = 'EUR'
ORDER BY amount DESC
LIMIT 3;`,
    expected: { largest_usd_eur: "SELECT order_id, currency, amount FROM orders WHERE currency IN ('USD', 'EUR') ORDER BY amount DESC LIMIT 3" },
  },
];
