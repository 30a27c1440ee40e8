/**
 * Oracle scripts written the way Flink's documentation and its users write them: lower-case
 * keywords, backquoted names, comments, nested subqueries, CTEs, other interval spellings, computed
 * time attributes, window TVFs used directly in joins and statement sets.
 */
import { CLICKS_DDL, CUSTOMERS_DDL, ORDERS_DDL, PAGEVIEWS_DDL, PAYMENTS_DDL, RATES_DDL, clicks, orders, pageviews } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { groupWindows, sessions, windowsOf } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;
const H = 3_600_000;
const M = 60_000;
const PRICED_VIEW = 'CREATE TEMPORARY VIEW priced AS SELECT * FROM orders WHERE amount IS NOT NULL;\n';
const sum = (xs: unknown[]) => (xs.some((x) => x !== null) ? xs.reduce<number>((a, x) => a + ((x as number) ?? 0), 0) : null);

export const docsStyleCases: SqlOracleCase[] = [
  {
    name: 'docs: a CTE of paid orders, aggregated per customer (lower-case keywords)',
    sql: `${ORDERS_DDL}${upsert('spend', 'customer_id STRING, total DOUBLE, n BIGINT', 'customer_id')}
-- paid orders only
insert into spend
with paid as (
  select customer_id, amount from orders where status = 'paid'
)
select customer_id, sum(amount) as total, count(*) as n
from paid
group by customer_id;`,
    expected: { spend: "SELECT customer_id, SUM(amount) AS total, COUNT(*) AS n FROM orders WHERE status = 'paid' GROUP BY customer_id" },
  },
  {
    name: 'docs: two CTEs, the second reading the first, with backquoted names',
    sql: `${ORDERS_DDL}${upsert('`big_spenders`', '`customer_id` STRING, `total` DOUBLE', '`customer_id`')}INSERT INTO \`big_spenders\`
WITH \`priced\` AS (SELECT \`customer_id\`, \`amount\` FROM \`orders\` WHERE \`amount\` IS NOT NULL),
     per_customer AS (SELECT customer_id, SUM(amount) AS total FROM priced GROUP BY customer_id)
SELECT * FROM per_customer WHERE total > 300;`,
    expected: { big_spenders: 'SELECT customer_id, total FROM (SELECT customer_id, SUM(amount) AS total FROM orders WHERE amount IS NOT NULL GROUP BY customer_id) WHERE total > 300' },
  },
  {
    name: 'docs: nested subqueries in FROM, each with its own alias',
    sql: `${ORDERS_DDL}${printSink('discounted', 'order_id STRING, net DOUBLE')}INSERT INTO discounted
SELECT t2.order_id, t2.net
FROM (
  SELECT t1.order_id, t1.gross * 0.9 AS net
  FROM (SELECT order_id, amount * qty AS gross FROM orders WHERE amount IS NOT NULL) AS t1
) t2
WHERE t2.net > 100;`,
    expected: { discounted: 'SELECT order_id, amount * qty * 0.9 AS net FROM orders WHERE amount IS NOT NULL AND amount * qty * 0.9 > 100' },
  },
  {
    name: 'docs: SELECT o.*, c.city from an inner join',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('enriched', 'order_id STRING, customer_id STRING, product STRING, amount DOUBLE, qty INT, currency STRING, status STRING, order_time TIMESTAMP(3), city STRING')}INSERT INTO enriched
SELECT o.*, c.city FROM orders AS o JOIN customers AS c ON o.customer_id = c.customer_id;`,
    expected: { enriched: 'SELECT o.*, c.city FROM orders o JOIN customers c ON o.customer_id = c.customer_id' },
  },
  {
    name: 'docs: CASE, CAST, TRY_CAST, COALESCE and IF in one projection',
    sql: `${ORDERS_DDL}${printSink('labelled', 'order_id STRING, size STRING, qty_d DOUBLE, qty_s STRING, product STRING, paid INT')}INSERT INTO labelled
SELECT
  order_id,
  CASE WHEN amount >= 80 THEN 'large' WHEN amount >= 40 THEN 'medium' ELSE 'small' END AS size,
  CAST(qty AS DOUBLE) / 2 AS qty_d,
  TRY_CAST(qty AS STRING) AS qty_s,
  COALESCE(product, 'unknown') AS product,
  IF(status = 'paid', 1, 0) AS paid
FROM orders;`,
    expected: {
      labelled: "SELECT order_id, CASE WHEN amount >= 80 THEN 'large' WHEN amount >= 40 THEN 'medium' ELSE 'small' END AS size, CAST(qty AS REAL) / 2 AS qty_d, CAST(qty AS TEXT) AS qty_s, COALESCE(product, 'unknown') AS product, IIF(status = 'paid', 1, 0) AS paid FROM orders",
    },
  },
  {
    name: 'docs: BETWEEN, IN, LIKE and IS DISTINCT FROM in WHERE',
    sql: `${ORDERS_DDL}${printSink('picked', 'order_id STRING, product STRING, amount DOUBLE')}insert into picked
select order_id, product, amount from orders
where amount between 20 and 90
  and currency in ('USD', 'EUR')
  and order_id like 'o1%'
  and product is distinct from 'apple';`,
    expected: { picked: "SELECT order_id, product, amount FROM orders WHERE amount BETWEEN 20 AND 90 AND currency IN ('USD', 'EUR') AND order_id LIKE 'o1%' AND product IS NOT 'apple'" },
  },
  {
    name: 'docs: NOT IN, NOT LIKE, IS NOT DISTINCT FROM and NOT BETWEEN',
    sql: `${ORDERS_DDL}${printSink('rest', 'order_id STRING')}INSERT INTO rest SELECT order_id FROM orders
WHERE status NOT IN ('cancelled') AND order_id NOT LIKE '%0' AND qty NOT BETWEEN 2 AND 3 AND product IS NOT DISTINCT FROM product;`,
    expected: { rest: "SELECT order_id FROM orders WHERE status NOT IN ('cancelled') AND order_id NOT LIKE '%0' AND qty NOT BETWEEN 2 AND 3 AND product IS product" },
  },
  {
    name: 'docs: string built-ins (UPPER, LOWER, CHAR_LENGTH, SUBSTRING, TRIM, CONCAT, ||)',
    sql: `${CUSTOMERS_DDL}${printSink('names', 'customer_id STRING, shout STRING, quiet STRING, len INT, short STRING, tag STRING, tag2 STRING')}INSERT INTO names
SELECT customer_id, UPPER(name) AS shout, LOWER(name) AS quiet, CHAR_LENGTH(name) AS len, SUBSTRING(name, 1, 4) AS short,
  CONCAT(customer_id, '-', tier) AS tag, TRIM('  ' || tier || '  ') AS tag2
FROM customers;`,
    expected: { names: "SELECT customer_id, UPPER(name) AS shout, LOWER(name) AS quiet, LENGTH(name) AS len, SUBSTR(name, 1, 4) AS short, customer_id || '-' || tier AS tag, tier AS tag2 FROM customers" },
  },
  {
    name: 'docs: math built-ins (ABS, ROUND, FLOOR, CEIL, MOD, POWER)',
    sql: `${ORDERS_DDL}${printSink('maths', 'order_id STRING, a DOUBLE, r DOUBLE, f DOUBLE, c DOUBLE, m INT, p DOUBLE')}INSERT INTO maths
SELECT order_id, ABS(50 - amount) AS a, ROUND(amount) AS r, FLOOR(amount) AS f, CEIL(amount) AS c, MOD(qty, 2) AS m, POWER(qty, 2) AS p
FROM orders WHERE amount IS NOT NULL;`,
    expected: { maths: 'SELECT order_id, ABS(50 - amount) AS a, ROUND(amount) AS r, CAST(amount AS INTEGER) AS f, CASE WHEN amount = CAST(amount AS INTEGER) THEN amount ELSE CAST(amount AS INTEGER) + 1 END AS c, qty % 2 AS m, qty * qty * 1.0 AS p FROM orders WHERE amount IS NOT NULL' },
  },
  {
    name: 'docs: HAVING on COUNT(*) and SUM',
    sql: `${ORDERS_DDL}${upsert('busy', 'product STRING, n BIGINT, units INT', 'product')}INSERT INTO busy
SELECT product, COUNT(*) AS n, SUM(qty) AS units FROM orders
WHERE product IS NOT NULL
GROUP BY product
HAVING COUNT(*) > 5 AND SUM(qty) >= 20;`,
    expected: { busy: 'SELECT product, COUNT(*) AS n, SUM(qty) AS units FROM orders WHERE product IS NOT NULL GROUP BY product HAVING COUNT(*) > 5 AND SUM(qty) >= 20' },
  },
  {
    name: 'docs: COUNT(DISTINCT …) and FILTER (WHERE …) per customer',
    sql: `${ORDERS_DDL}${upsert('profile', 'customer_id STRING, products BIGINT, paid BIGINT, paid_total DOUBLE', 'customer_id')}INSERT INTO profile
SELECT customer_id,
       COUNT(DISTINCT product) AS products,
       COUNT(*) FILTER (WHERE status = 'paid') AS paid,
       SUM(amount) FILTER (WHERE status = 'paid') AS paid_total
FROM orders
GROUP BY customer_id;`,
    expected: { profile: "SELECT customer_id, COUNT(DISTINCT product) AS products, SUM(status = 'paid') AS paid, SUM(CASE WHEN status = 'paid' THEN amount END) AS paid_total FROM orders GROUP BY customer_id" },
  },
  {
    name: "docs: TUMBLE group window with INTERVAL '60' MINUTE and TUMBLE_START/_END",
    sql: `${ORDERS_DDL}${printSink('hourly', 'currency STRING, w_start TIMESTAMP(3), w_end TIMESTAMP(3), revenue DOUBLE')}INSERT INTO hourly
SELECT currency,
  TUMBLE_START(order_time, INTERVAL '60' MINUTE) AS w_start,
  TUMBLE_END(order_time, INTERVAL '60' MINUTE) AS w_end,
  SUM(amount) AS revenue
FROM orders
GROUP BY TUMBLE(order_time, INTERVAL '60' MINUTE), currency;`,
    expected: { hourly: () => groupWindows(orders, 'order_time', 'currency', (t) => windowsOf(t, { type: 'tumble', size: H })).map((g) => ({ currency: g.key, w_start: g.start, w_end: g.end, revenue: sum(g.rows.map((r) => r.amount)) })) },
  },
  {
    name: 'docs: SESSION group window with SESSION_ROWTIME, then a count',
    sql: `${CLICKS_DDL}${printSink('sessions_out', 'user_id STRING, s_start TIMESTAMP(3), s_time TIMESTAMP(3), n BIGINT')}INSERT INTO sessions_out
SELECT user_id, SESSION_START(click_time, INTERVAL '10' MINUTE) AS s_start, SESSION_ROWTIME(click_time, INTERVAL '10' MINUTE) AS s_time, COUNT(url) AS n
FROM clicks
GROUP BY SESSION(click_time, INTERVAL '10' MINUTE), user_id;`,
    expected: { sessions_out: () => sessions(clicks, 'click_time', 'user_id', 10 * M).map((g) => ({ user_id: g.key, s_start: g.start, s_time: g.end - 1, n: g.rows.length })) },
  },
  {
    name: "docs: window TVF TUMBLE with WHERE directly on the TVF (INTERVAL '1' HOURS)",
    sql: `${ORDERS_DDL}${printSink('paid_hourly', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), total DOUBLE')}INSERT INTO paid_hourly
SELECT window_start, window_end, SUM(amount) AS total
FROM TABLE(
  TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOURS))
WHERE status = 'paid'
GROUP BY window_start, window_end;`,
    expected: { paid_hourly: () => groupWindows(orders.filter((o) => o.status === 'paid'), 'order_time', null, (t) => windowsOf(t, { type: 'tumble', size: H })).map((g) => ({ window_start: g.start, window_end: g.end, total: sum(g.rows.map((r) => r.amount)) })) },
  },
  {
    name: 'docs: window TVF HOP with named arguments, grouped by a key',
    sql: `${ORDERS_DDL}${printSink('hopping', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), product STRING, units INT')}INSERT INTO hopping
SELECT window_start, window_end, product, SUM(qty) AS units
FROM TABLE(HOP(DATA => TABLE orders, TIMECOL => DESCRIPTOR(order_time), SLIDE => INTERVAL '30' MINUTES, SIZE => INTERVAL '1' HOUR))
WHERE product IS NOT NULL
GROUP BY window_start, window_end, product;`,
    expected: { hopping: () => groupWindows(orders.filter((o) => o.product !== null), 'order_time', 'product', (t) => windowsOf(t, { type: 'hop', size: H, slide: 30 * M })).map((g) => ({ window_start: g.start, window_end: g.end, product: g.key, units: sum(g.rows.map((r) => r.qty)) })) },
  },
  {
    name: 'docs: window TVF CUMULATE, a running revenue per hour in 15-minute steps',
    sql: `${ORDERS_DDL}${printSink('cumulative', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), revenue DOUBLE')}INSERT INTO cumulative
SELECT window_start, window_end, SUM(amount) AS revenue
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '15' MINUTES, INTERVAL '1' HOUR))
GROUP BY window_start, window_end;`,
    expected: { cumulative: () => groupWindows(orders, 'order_time', null, (t) => windowsOf(t, { type: 'cumulate', size: H, step: 15 * M })).map((g) => ({ window_start: g.start, window_end: g.end, revenue: sum(g.rows.map((r) => r.amount)) })) },
  },
  {
    name: 'docs: window TVF TUMBLE with an offset',
    sql: `${ORDERS_DDL}${printSink('offset_hours', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), n BIGINT')}INSERT INTO offset_hours
SELECT window_start, window_end, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR, INTERVAL '10' MINUTES))
GROUP BY window_start, window_end;`,
    expected: { offset_hours: () => groupWindows(orders, 'order_time', null, (t) => windowsOf(t, { type: 'tumble', size: H, offset: 10 * M })).map((g) => ({ window_start: g.start, window_end: g.end, n: g.rows.length })) },
  },
  {
    name: 'docs: window TVF SESSION partitioned by user',
    sql: `${CLICKS_DDL}${printSink('user_sessions', 'user_id STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), clicks BIGINT')}INSERT INTO user_sessions
SELECT user_id, window_start, window_end, COUNT(*) AS clicks
FROM TABLE(SESSION(TABLE clicks PARTITION BY user_id, DESCRIPTOR(click_time), INTERVAL '10' MINUTES))
GROUP BY user_id, window_start, window_end;`,
    expected: { user_sessions: () => sessions(clicks, 'click_time', 'user_id', 10 * M).map((g) => ({ user_id: g.key, window_start: g.start, window_end: g.end, clicks: g.rows.length })) },
  },
  {
    name: 'docs: a computed time attribute from a BIGINT (TO_TIMESTAMP_LTZ) with a computed column, windowed',
    sql: `${PAGEVIEWS_DDL.replace("  ts AS", "  seconds AS duration_ms / 1000.0,\n  ts AS")}${printSink('views_per_window', 'window_start TIMESTAMP(3), n_views BIGINT, secs DOUBLE')}INSERT INTO views_per_window
SELECT window_start, COUNT(*) AS n_views, SUM(seconds) AS secs
FROM TABLE(TUMBLE(TABLE pageviews, DESCRIPTOR(ts), INTERVAL '20' MINUTES))
GROUP BY window_start, window_end;`,
    expected: { views_per_window: () => groupWindows(pageviews, 'ts_ms', null, (t) => windowsOf(t, { type: 'tumble', size: 20 * M })).map((g) => ({ window_start: g.start, n_views: g.rows.length, secs: sum(g.rows.map((r) => (r.duration_ms as number) / 1000)) })) },
  },
  {
    name: 'docs: computed columns UPPER, CAST and arithmetic, read in a plain query',
    sql: `CREATE TABLE pageviews (
  user_id STRING,
  page STRING,
  duration_ms INT,
  ts_ms BIGINT,
  user_upper AS UPPER(user_id),
  minutes AS CAST(duration_ms AS DOUBLE) / 60000,
  doubled AS duration_ms * 2
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/pageviews.jsonl', 'format' = 'json');
${printSink('pv', 'user_upper STRING, doubled INT, minutes DOUBLE')}INSERT INTO pv SELECT user_upper, doubled, minutes FROM pageviews WHERE doubled > 1000;`,
    expected: { pv: 'SELECT UPPER(user_id) AS user_upper, duration_ms * 2 AS doubled, CAST(duration_ms AS REAL) / 60000 AS minutes FROM pageviews WHERE duration_ms * 2 > 1000' },
  },
  {
    name: 'docs: Top-N, the two largest orders of each customer',
    sql: `${ORDERS_DDL}${upsert('top_orders', 'customer_id STRING, order_id STRING, amount DOUBLE, row_num BIGINT', 'customer_id, row_num')}INSERT INTO top_orders
SELECT customer_id, order_id, amount, row_num
FROM (
  SELECT *,
    ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS row_num
  FROM orders WHERE amount IS NOT NULL)
WHERE row_num <= 2;`,
    expected: { top_orders: 'SELECT customer_id, order_id, amount, rn AS row_num FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS rn FROM orders WHERE amount IS NOT NULL) WHERE rn <= 2' },
  },
  {
    name: 'Top-N with a rank range: the second and third largest orders of each customer (rn BETWEEN 2 AND 3), and the runner-up alone (rn > 1 AND rn <= 2)',
    sql: `${ORDERS_DDL}${upsert('next_orders', 'customer_id STRING, order_id STRING, amount DOUBLE, row_num BIGINT', 'customer_id, row_num')}${printSink('runner_up', 'customer_id STRING, order_id STRING')}INSERT INTO next_orders
SELECT customer_id, order_id, amount, row_num
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS row_num
  FROM orders WHERE amount IS NOT NULL)
WHERE row_num BETWEEN 2 AND 3;
INSERT INTO runner_up
SELECT customer_id, order_id
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS rn
  FROM orders WHERE amount IS NOT NULL)
WHERE rn > 1 AND rn <= 2;`,
    expected: {
      next_orders: 'SELECT customer_id, order_id, amount, rn AS row_num FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS rn FROM orders WHERE amount IS NOT NULL) WHERE rn BETWEEN 2 AND 3',
      runner_up: 'SELECT customer_id, order_id FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS rn FROM orders WHERE amount IS NOT NULL) WHERE rn = 2',
    },
  },
  {
    name: 'docs: deduplication, keep the first order of each customer by event time',
    sql: `${ORDERS_DDL}${printSink('first_orders', 'order_id STRING, customer_id STRING')}INSERT INTO first_orders
SELECT order_id, customer_id
FROM (
  SELECT order_id, customer_id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY order_time ASC) AS rownum
  FROM orders)
WHERE rownum = 1;`,
    expected: { first_orders: 'SELECT order_id, customer_id FROM (SELECT order_id, customer_id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY order_time) AS rn FROM orders) WHERE rn = 1' },
  },
  {
    name: 'docs: LEFT JOIN with a non-equi condition in ON',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('gold_orders', 'order_id STRING, name STRING')}INSERT INTO gold_orders
SELECT o.order_id, c.name
FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id AND c.tier = 'gold' AND o.amount > 30;`,
    expected: { gold_orders: "SELECT o.order_id, c.name FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id AND c.tier = 'gold' AND o.amount > 30" },
  },
  {
    name: 'docs: FULL OUTER JOIN of customers and their paid orders',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('coverage', 'customer_id STRING, order_id STRING')}INSERT INTO coverage
SELECT c.customer_id, o.order_id
FROM customers c FULL OUTER JOIN (SELECT * FROM orders WHERE status = 'paid') o ON c.customer_id = o.customer_id;`,
    expected: { coverage: "SELECT c.customer_id, o.order_id FROM customers c FULL OUTER JOIN (SELECT * FROM orders WHERE status = 'paid') o ON c.customer_id = o.customer_id" },
  },
  {
    name: 'docs: interval join, payments within 30 minutes of the order (BETWEEN)',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('quick_pay', 'order_id STRING, payment_id STRING')}INSERT INTO quick_pay
SELECT o.order_id, p.payment_id
FROM orders o, payments p
WHERE o.order_id = p.order_id
  AND p.pay_time BETWEEN o.order_time AND o.order_time + INTERVAL '30' MINUTE;`,
    expected: { quick_pay: `SELECT o.order_id, p.payment_id FROM orders o JOIN payments p ON o.order_id = p.order_id WHERE p.pay_time BETWEEN o.order_time AND o.order_time + ${30 * M}` },
  },
  {
    name: 'docs: interval join written as a pair of comparisons, with an hour spelled as minutes',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('pay_window', 'order_id STRING, pay_method STRING')}INSERT INTO pay_window
SELECT o.order_id, p.pay_method
FROM orders AS o
JOIN payments AS p ON o.order_id = p.order_id
 AND p.pay_time > o.order_time - INTERVAL '10' MINUTE
 AND p.pay_time <= o.order_time + INTERVAL '60' MINUTE;`,
    expected: { pay_window: `SELECT o.order_id, p.pay_method FROM orders o JOIN payments p ON o.order_id = p.order_id AND p.pay_time > o.order_time - ${10 * M} AND p.pay_time <= o.order_time + ${H}` },
  },
  {
    name: 'docs: temporal join FOR SYSTEM_TIME AS OF, the rate at the time of the order',
    sql: `${ORDERS_DDL}${RATES_DDL}${printSink('converted', 'order_id STRING, amount_usd DOUBLE')}INSERT INTO converted
SELECT o.order_id, o.amount * r.rate AS amount_usd
FROM orders AS o
JOIN rates FOR SYSTEM_TIME AS OF o.order_time AS r
ON o.currency = r.currency;`,
    expected: {
      converted:
        'SELECT o.order_id, o.amount * (SELECT r.rate FROM rates r WHERE r.currency = o.currency AND r.rate_time <= o.order_time ORDER BY r.rate_time DESC LIMIT 1) AS amount_usd FROM orders o WHERE EXISTS (SELECT 1 FROM rates r WHERE r.currency = o.currency AND r.rate_time <= o.order_time)',
    },
  },
  {
    name: 'docs: UNION ALL of two filtered branches',
    sql: `${ORDERS_DDL}${printSink('flagged', 'order_id STRING, reason STRING')}INSERT INTO flagged
SELECT order_id, 'no product' AS reason FROM orders WHERE product IS NULL
UNION ALL
SELECT order_id, 'large' AS reason FROM orders WHERE amount > 100;`,
    expected: { flagged: "SELECT order_id, 'no product' AS reason FROM orders WHERE product IS NULL UNION ALL SELECT order_id, 'large' AS reason FROM orders WHERE amount > 100" },
  },
  {
    name: 'docs: EXECUTE STATEMENT SET with two INSERTs over one source',
    sql: `${ORDERS_DDL}${printSink('paid_orders', 'order_id STRING, amount DOUBLE')}${printSink('cancelled_orders', 'order_id STRING')}EXECUTE STATEMENT SET
BEGIN
  INSERT INTO paid_orders SELECT order_id, amount FROM orders WHERE status = 'paid';
  INSERT INTO cancelled_orders SELECT order_id FROM orders WHERE status = 'cancelled';
END;`,
    expected: { paid_orders: "SELECT order_id, amount FROM orders WHERE status = 'paid'", cancelled_orders: "SELECT order_id FROM orders WHERE status = 'cancelled'" },
  },
  {
    name: 'docs: OVER aggregate, the average amount of the last 30 minutes per product',
    sql: `${ORDERS_DDL}${printSink('moving', 'order_id STRING, avg_amount DOUBLE, n BIGINT')}INSERT INTO moving
SELECT order_id,
  AVG(amount) OVER (PARTITION BY product ORDER BY order_time RANGE BETWEEN INTERVAL '30' MINUTE PRECEDING AND CURRENT ROW) AS avg_amount,
  COUNT(*) OVER (PARTITION BY product ORDER BY order_time RANGE BETWEEN INTERVAL '30' MINUTE PRECEDING AND CURRENT ROW) AS n
FROM orders;`,
    expected: { moving: `SELECT order_id, AVG(amount) OVER w AS avg_amount, COUNT(*) OVER w AS n FROM orders WINDOW w AS (PARTITION BY product ORDER BY order_time RANGE BETWEEN ${30 * M} PRECEDING AND CURRENT ROW)` },
  },
  {
    name: 'docs: window join on the window columns only',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('hour_pairs', 'window_start TIMESTAMP(3), order_id STRING, payment_id STRING')}INSERT INTO hour_pairs
SELECT L.window_start, L.order_id, R.payment_id
FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR)) WHERE customer_id = 'c1') L
JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(pay_time), INTERVAL '1' HOUR)) WHERE pay_method = 'cash') R
ON L.window_start = R.window_start AND L.window_end = R.window_end;`,
    expected: { hour_pairs: `SELECT (o.order_time / ${H}) * ${H} AS window_start, o.order_id, p.payment_id FROM orders o JOIN payments p ON o.order_time / ${H} = p.pay_time / ${H} WHERE o.customer_id = 'c1' AND p.pay_method = 'cash'` },
  },
  {
    name: 'docs: window join with TABLE(TUMBLE(…)) aliased directly in the JOIN',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('same_hour', 'order_id STRING, payment_id STRING')}INSERT INTO same_hour
SELECT o.order_id, p.payment_id
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR)) o
JOIN TABLE(TUMBLE(TABLE payments, DESCRIPTOR(pay_time), INTERVAL '1' HOUR)) AS p
ON o.order_id = p.order_id AND o.window_start = p.window_start AND o.window_end = p.window_end;`,
    expected: { same_hour: `SELECT o.order_id, p.payment_id FROM orders o JOIN payments p ON o.order_id = p.order_id AND o.order_time / ${H} = p.pay_time / ${H}` },
  },
  {
    name: 'docs: OVER aggregates sharing a named WINDOW clause',
    sql: `${ORDERS_DDL}${printSink('running_totals', 'order_id STRING, total DOUBLE, avg_amount DOUBLE')}INSERT INTO running_totals
SELECT order_id, SUM(amount) OVER w AS total, AVG(amount) OVER w AS avg_amount
FROM orders
WINDOW w AS (PARTITION BY customer_id ORDER BY order_time ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);`,
    expected: { running_totals: 'SELECT order_id, SUM(amount) OVER w AS total, AVG(amount) OVER w AS avg_amount FROM orders WINDOW w AS (PARTITION BY customer_id ORDER BY order_time ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)' },
  },
  {
    name: 'docs: SUBSTRING(… FROM … FOR …) and TRIM(BOTH … FROM …), the standard SQL spellings',
    sql: `${ORDERS_DDL}${printSink('codes', 'order_id STRING, code STRING, num STRING, st STRING')}INSERT INTO codes
SELECT order_id, SUBSTRING(status FROM 1 FOR 3) AS code, substring(order_id from 2) AS num, TRIM(BOTH ' ' FROM status) AS st FROM orders;`,
    expected: { codes: 'SELECT order_id, SUBSTR(status, 1, 3) AS code, SUBSTR(order_id, 2) AS num, TRIM(status) AS st FROM orders' },
  },
  {
    name: 'docs: an aliased window TVF with qualified window columns and a WHERE',
    sql: `${ORDERS_DDL}${printSink('multi_item', 'ws TIMESTAMP(3), we TIMESTAMP(3), n BIGINT')}INSERT INTO multi_item
SELECT t.window_start AS ws, t.window_end AS we, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR)) AS t
WHERE t.qty > 1
GROUP BY t.window_start, t.window_end;`,
    expected: { multi_item: () => groupWindows(orders.filter((o) => (o.qty as number) > 1), 'order_time', null, (t) => windowsOf(t, { type: 'tumble', size: H })).map((g) => ({ ws: g.start, we: g.end, n: g.rows.length })) },
  },
  {
    name: 'docs: cascading window aggregation through a view of 10-minute windows',
    sql: `${ORDERS_DDL}CREATE TEMPORARY VIEW ten_minutes AS
SELECT window_start AS ws10, window_end AS we10, window_time AS rowtime, SUM(amount) AS partial_amount
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '10' MINUTES))
GROUP BY customer_id, window_start, window_end, window_time;
${printSink('hourly_total', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), total DOUBLE')}INSERT INTO hourly_total
SELECT window_start, window_end, SUM(partial_amount) AS total
FROM TABLE(TUMBLE(TABLE ten_minutes, DESCRIPTOR(rowtime), INTERVAL '60' MINUTES))
GROUP BY window_start, window_end;`,
    expected: { hourly_total: () => groupWindows(orders, 'order_time', null, (t) => windowsOf(t, { type: 'tumble', size: H })).map((g) => ({ window_start: g.start, window_end: g.end, total: sum(g.rows.map((r) => r.amount)) })) },
  },
  {
    name: 'docs: window Top-N over a window aggregate, the three biggest spenders of each hour',
    sql: `${ORDERS_DDL}${PRICED_VIEW}${printSink('top_spenders', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), customer_id STRING, price DOUBLE, cnt BIGINT, rownum BIGINT')}INSERT INTO top_spenders
SELECT *
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) as rownum
    FROM (
      SELECT window_start, window_end, customer_id, SUM(amount) as price, COUNT(*) as cnt
      FROM TABLE(
        TUMBLE(TABLE priced, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
      GROUP BY window_start, window_end, customer_id
    )
  ) WHERE rownum <= 3;`,
    expected: {
      top_spenders: () => {
        const sums = groupWindows(orders.filter((o) => o.amount !== null), 'order_time', 'customer_id', (t) => windowsOf(t, { type: 'tumble', size: H })).map((g) => ({ window_start: g.start, window_end: g.end, customer_id: g.key, price: sum(g.rows.map((r) => r.amount)) as number, cnt: g.rows.length }));
        const starts = [...new Set(sums.map((r) => r.window_start))];
        return starts.flatMap((s) => sums.filter((r) => r.window_start === s).sort((a, b) => b.price - a.price).slice(0, 3).map((r, i) => ({ ...r, rownum: i + 1 })));
      },
    },
  },
  {
    name: 'docs: Top-N over an updating aggregate, the two best customers of each product',
    sql: `${ORDERS_DDL}${upsert('best_customers', 'product STRING, customer_id STRING, sales DOUBLE', 'product, customer_id')}INSERT INTO best_customers
SELECT product, customer_id, sales
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY product ORDER BY sales DESC) AS row_num
  FROM (SELECT product, customer_id, SUM(amount) AS sales FROM orders WHERE amount IS NOT NULL AND product IS NOT NULL GROUP BY product, customer_id))
WHERE row_num <= 2;`,
    expected: {
      best_customers:
        'SELECT product, customer_id, sales FROM (SELECT product, customer_id, SUM(amount) AS sales, ROW_NUMBER() OVER (PARTITION BY product ORDER BY SUM(amount) DESC) AS rn FROM orders WHERE amount IS NOT NULL AND product IS NOT NULL GROUP BY product, customer_id) WHERE rn <= 2',
    },
  },
  {
    name: 'docs: temporal join on a versioned view (deduplicated by the latest rate)',
    sql: `${ORDERS_DDL}${RATES_DDL}CREATE VIEW versioned_rates AS
SELECT currency, rate, rate_time
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY rate_time DESC) AS rownum
    FROM rates)
  WHERE rownum = 1;
${printSink('priced_orders', 'order_id STRING, amount_usd DOUBLE')}INSERT INTO priced_orders
SELECT o.order_id, o.amount * r.rate AS amount_usd
FROM orders AS o
LEFT JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;`,
    expected: {
      priced_orders: 'SELECT o.order_id, o.amount * (SELECT r.rate FROM rates r WHERE r.currency = o.currency AND r.rate_time <= o.order_time ORDER BY r.rate_time DESC LIMIT 1) AS amount_usd FROM orders o',
    },
  },
  {
    name: 'docs: a three-way join, orders with their customer and payment',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${PAYMENTS_DDL}${printSink('full_picture', 'order_id STRING, city STRING, pay_method STRING')}INSERT INTO full_picture
SELECT o.order_id, c.city, p.pay_method
FROM orders o
JOIN customers c ON o.customer_id = c.customer_id
JOIN payments p ON p.order_id = o.order_id;`,
    expected: { full_picture: 'SELECT o.order_id, c.city, p.pay_method FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN payments p ON p.order_id = o.order_id' },
  },
  {
    name: 'docs: BEGIN STATEMENT SET; … END; with an INSERT column list and SELECT DISTINCT',
    sql: `${ORDERS_DDL}${printSink('ids', 'amount DOUBLE, order_id STRING')}${upsert('buyers', 'customer_id STRING', 'customer_id')}BEGIN STATEMENT SET;
INSERT INTO ids (order_id, amount) SELECT order_id, amount FROM orders WHERE qty >= 3;
INSERT INTO buyers SELECT DISTINCT customer_id FROM orders;
END;`,
    expected: { ids: 'SELECT amount, order_id FROM orders WHERE qty >= 3', buyers: 'SELECT DISTINCT customer_id FROM orders' },
  },
  {
    name: 'docs: CASE as a GROUP BY key, SUM(CASE …) and HOP_ROWTIME',
    sql: `${ORDERS_DDL}${upsert('sizes', 'size STRING, n BIGINT, paid INT', 'size')}${printSink('hop_rt', 'ws TIMESTAMP(3), rt TIMESTAMP(3), n BIGINT')}INSERT INTO sizes
SELECT CASE WHEN amount > 50 THEN 'big' ELSE 'small' END AS size, COUNT(*) AS n, SUM(CASE WHEN status = 'paid' THEN 1 ELSE 0 END) AS paid
FROM orders GROUP BY CASE WHEN amount > 50 THEN 'big' ELSE 'small' END;
INSERT INTO hop_rt
SELECT HOP_START(order_time, INTERVAL '15' MINUTE, INTERVAL '1' HOUR) AS ws, HOP_ROWTIME(order_time, INTERVAL '15' MINUTE, INTERVAL '1' HOUR) AS rt, COUNT(*) AS n
FROM orders GROUP BY HOP(order_time, INTERVAL '15' MINUTE, INTERVAL '1' HOUR);`,
    expected: {
      sizes: "SELECT CASE WHEN amount > 50 THEN 'big' ELSE 'small' END AS size, COUNT(*) AS n, SUM(CASE WHEN status = 'paid' THEN 1 ELSE 0 END) AS paid FROM orders GROUP BY 1",
      hop_rt: () => groupWindows(orders, 'order_time', null, (t) => windowsOf(t, { type: 'hop', size: H, slide: 15 * M })).map((g) => ({ ws: g.start, rt: g.end - 1, n: g.rows.length })),
    },
  },
];
