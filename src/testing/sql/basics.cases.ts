/** Oracle scripts: projections, filters and expressions; views, CTEs, subqueries; UNION ALL and statement sets. */
import { CLICKS_DDL, CUSTOMERS_DDL, ORDERS_DDL } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const ORDER_COLS = 'order_id STRING, customer_id STRING, product STRING, amount DOUBLE, qty INT, currency STRING, status STRING, order_time TIMESTAMP(3)';

export const basicCases: SqlOracleCase[] = [
  {
    name: 'select star into a print sink',
    sql: `${ORDERS_DDL}${printSink('all_orders', ORDER_COLS)}INSERT INTO all_orders SELECT * FROM orders;`,
    expected: { all_orders: 'SELECT * FROM orders' },
  },
  {
    name: 'qualified star with an alias',
    sql: `${ORDERS_DDL}${printSink('all_orders', ORDER_COLS)}INSERT INTO all_orders SELECT o.* FROM orders AS o;`,
    expected: { all_orders: 'SELECT * FROM orders' },
  },
  {
    name: 'where with AND, OR and NOT',
    sql: `${ORDERS_DDL}${printSink('picked', 'order_id STRING, amount DOUBLE')}INSERT INTO picked
SELECT order_id, amount FROM orders
WHERE (status = 'paid' OR status = 'shipped') AND NOT (qty < 2) AND amount IS NOT NULL;`,
    expected: { picked: "SELECT order_id, amount FROM orders WHERE (status = 'paid' OR status = 'shipped') AND NOT (qty < 2) AND amount IS NOT NULL" },
  },
  {
    name: 'arithmetic and aliases',
    sql: `${ORDERS_DDL}${printSink('lines', 'order_id STRING, total DOUBLE, doubled INT, neg DOUBLE')}INSERT INTO lines
SELECT order_id, amount * qty AS total, qty * 2 + 1 AS doubled, -amount AS neg FROM orders;`,
    expected: { lines: 'SELECT order_id, amount * qty AS total, qty * 2 + 1 AS doubled, -amount AS neg FROM orders' },
  },
  {
    name: 'searched and simple CASE',
    sql: `${ORDERS_DDL}${printSink('sized', 'order_id STRING, size STRING, state STRING')}INSERT INTO sized
SELECT order_id,
  CASE WHEN amount >= 80 THEN 'large' WHEN amount >= 40 THEN 'medium' ELSE 'small' END AS size,
  CASE status WHEN 'paid' THEN 'P' WHEN 'shipped' THEN 'S' ELSE 'X' END AS state
FROM orders;`,
    expected: { sized: "SELECT order_id, CASE WHEN amount >= 80 THEN 'large' WHEN amount >= 40 THEN 'medium' ELSE 'small' END AS size, CASE status WHEN 'paid' THEN 'P' WHEN 'shipped' THEN 'S' ELSE 'X' END AS state FROM orders" },
  },
  {
    name: 'CAST to BIGINT, STRING and DECIMAL',
    sql: `${ORDERS_DDL}${printSink('casts', 'order_id STRING, whole BIGINT, label STRING, money DECIMAL(10, 1))')}INSERT INTO casts
SELECT order_id, CAST(amount AS BIGINT) AS whole, CAST(qty AS STRING) AS label, CAST(amount / 3 AS DECIMAL(10, 1)) AS money FROM orders;`.replace('DECIMAL(10, 1))', 'DECIMAL(10, 1)'),
    expected: { casts: 'SELECT order_id, CAST(amount AS INTEGER) AS whole, CAST(qty AS TEXT) AS label, ROUND(amount / 3, 1) AS money FROM orders' },
  },
  {
    name: 'TRY_CAST of a string',
    sql: `${CUSTOMERS_DDL}${printSink('ids', 'customer_id STRING, num BIGINT')}INSERT INTO ids
SELECT customer_id, TRY_CAST(SUBSTRING(customer_id, 2) AS BIGINT) AS num FROM customers;`,
    expected: { ids: 'SELECT customer_id, CAST(substr(customer_id, 2) AS INTEGER) AS num FROM customers' },
  },
  {
    name: 'COALESCE, NULLIF and IF',
    sql: `${ORDERS_DDL}${printSink('filled', 'order_id STRING, product STRING, amount DOUBLE, flag STRING, nz INT')}INSERT INTO filled
SELECT order_id, COALESCE(product, 'unknown') AS product, COALESCE(amount, 0) AS amount, IF(qty > 3, 'many', 'few') AS flag, NULLIF(qty, 1) AS nz
FROM orders;`,
    expected: { filled: "SELECT order_id, COALESCE(product, 'unknown') AS product, COALESCE(amount, 0) AS amount, CASE WHEN qty > 3 THEN 'many' ELSE 'few' END AS flag, NULLIF(qty, 1) AS nz FROM orders" },
  },
  {
    name: 'IS DISTINCT FROM and IS NOT DISTINCT FROM',
    sql: `${ORDERS_DDL}${printSink('d', 'order_id STRING, same BOOLEAN, differs BOOLEAN')}INSERT INTO d
SELECT order_id, product IS NOT DISTINCT FROM 'apple' AS same, product IS DISTINCT FROM 'apple' AS differs FROM orders;`,
    expected: { d: "SELECT order_id, (product IS 'apple') AS same, (product IS NOT 'apple') AS differs FROM orders" },
  },
  {
    name: 'BETWEEN, IN and NOT IN',
    sql: `${ORDERS_DDL}${printSink('ranged', 'order_id STRING, qty INT')}INSERT INTO ranged
SELECT order_id, qty FROM orders WHERE amount BETWEEN 20 AND 70 AND product IN ('apple', 'bread', 'eggs') AND currency NOT IN ('TWD');`,
    expected: { ranged: "SELECT order_id, qty FROM orders WHERE amount BETWEEN 20 AND 70 AND product IN ('apple', 'bread', 'eggs') AND currency NOT IN ('TWD')" },
  },
  {
    name: 'LIKE and NOT LIKE',
    sql: `${ORDERS_DDL}${printSink('liked', 'order_id STRING, product STRING')}INSERT INTO liked
SELECT order_id, product FROM orders WHERE product LIKE '%e%' AND product NOT LIKE 'ch%';`,
    expected: { liked: "SELECT order_id, product FROM orders WHERE product LIKE '%e%' AND product NOT LIKE 'ch%'" },
  },
  {
    name: 'string built-ins',
    sql: `${CUSTOMERS_DDL}${printSink('names', 'customer_id STRING, upper_name STRING, lower_city STRING, prefix STRING, name_len INT, full_label STRING, piped STRING')}INSERT INTO names
SELECT customer_id, UPPER(\`name\`) AS upper_name, LOWER(city) AS lower_city, SUBSTRING(\`name\`, 1, 4) AS prefix, CHAR_LENGTH(TRIM(\`name\`)) AS name_len,
  CONCAT(\`name\`, ' @ ', city) AS full_label, customer_id || '-' || tier AS piped
FROM customers;`,
    expected: { names: "SELECT customer_id, UPPER(name) AS upper_name, LOWER(city) AS lower_city, substr(name, 1, 4) AS prefix, length(trim(name)) AS name_len, name || ' @ ' || city AS full_label, customer_id || '-' || tier AS piped FROM customers" },
  },
  {
    name: 'math built-ins',
    sql: `${ORDERS_DDL}${printSink('m', 'order_id STRING, r DOUBLE, a DOUBLE, md INT, sq DOUBLE, hi DOUBLE, lo DOUBLE')}INSERT INTO m
SELECT order_id, ROUND(amount + 0.001, 1) AS r, ABS(amount - 50) AS a, MOD(qty, 2) AS md, POWER(qty, 2) AS sq, GREATEST(amount, 40) AS hi, LEAST(amount, 40) AS lo FROM orders;`,
    expected: { m: 'SELECT order_id, ROUND(amount + 0.001, 1) AS r, ABS(amount - 50) AS a, qty % 2 AS md, qty * qty AS sq, max(amount, 40) AS hi, min(amount, 40) AS lo FROM orders' },
  },
  {
    name: 'computed column in the source table',
    sql: `CREATE TABLE orders (
  order_id STRING, customer_id STRING, product STRING, amount DOUBLE, qty INT, currency STRING, status STRING,
  order_time TIMESTAMP(3),
  total AS amount * qty,
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'orders.jsonl', 'format' = 'json');
${printSink('totals', 'order_id STRING, total DOUBLE')}INSERT INTO totals SELECT order_id, total FROM orders WHERE total > 100;`,
    expected: { totals: 'SELECT order_id, amount * qty AS total FROM orders WHERE amount * qty > 100' },
  },
  {
    name: 'temporary view then insert',
    sql: `${ORDERS_DDL}CREATE TEMPORARY VIEW paid AS SELECT order_id, amount, qty FROM orders WHERE status = 'paid';
${printSink('paid_out', 'order_id STRING, amount DOUBLE')}INSERT INTO paid_out SELECT order_id, amount FROM paid WHERE qty >= 2;`,
    expected: { paid_out: "SELECT order_id, amount FROM orders WHERE status = 'paid' AND qty >= 2" },
  },
  {
    name: 'view over a view',
    sql: `${ORDERS_DDL}CREATE VIEW v1 AS SELECT order_id, amount * 2 AS a2 FROM orders;
CREATE VIEW v2 AS SELECT order_id, a2 + 1 AS a3 FROM v1 WHERE a2 > 60;
${printSink('o', 'order_id STRING, a3 DOUBLE')}INSERT INTO o SELECT * FROM v2;`,
    expected: { o: 'SELECT order_id, amount * 2 + 1 AS a3 FROM orders WHERE amount * 2 > 60' },
  },
  {
    name: 'WITH: two CTEs, one reading the other',
    sql: `${ORDERS_DDL}${printSink('o', 'order_id STRING, net DOUBLE')}INSERT INTO o
WITH valid AS (SELECT order_id, amount, status FROM orders WHERE amount IS NOT NULL),
     shipped AS (SELECT order_id, amount * 0.9 AS net FROM valid WHERE status = 'shipped')
SELECT order_id, net FROM shipped;`,
    expected: { o: "SELECT order_id, amount * 0.9 AS net FROM orders WHERE amount IS NOT NULL AND status = 'shipped'" },
  },
  {
    name: 'subquery in FROM with an alias',
    sql: `${ORDERS_DDL}${printSink('o', 'order_id STRING, big BOOLEAN')}INSERT INTO o
SELECT t.order_id, t.amount > 50 AS big FROM (SELECT order_id, amount FROM orders WHERE qty > 1) AS t;`,
    expected: { o: 'SELECT order_id, amount > 50 AS big FROM orders WHERE qty > 1' },
  },
  {
    name: 'UNION ALL of two filters',
    sql: `${ORDERS_DDL}${printSink('u', 'order_id STRING, kind STRING')}INSERT INTO u
SELECT order_id, 'cheap' AS kind FROM orders WHERE amount < 30
UNION ALL
SELECT order_id, 'dear' AS kind FROM orders WHERE amount > 90;`,
    expected: { u: "SELECT order_id, 'cheap' AS kind FROM orders WHERE amount < 30 UNION ALL SELECT order_id, 'dear' AS kind FROM orders WHERE amount > 90" },
  },
  {
    name: 'UNION ALL of two tables with different column names',
    sql: `${ORDERS_DDL}${CLICKS_DDL}${printSink('events', 'who STRING, what STRING')}INSERT INTO events
SELECT customer_id AS who, product AS what FROM orders
UNION ALL
SELECT user_id, url FROM clicks;`,
    expected: { events: 'SELECT customer_id AS who, product AS what FROM orders UNION ALL SELECT user_id, url FROM clicks' },
  },
  {
    name: 'two INSERTs share one source',
    sql: `${ORDERS_DDL}${printSink('cheap', 'order_id STRING')}${printSink('dear', 'order_id STRING')}INSERT INTO cheap SELECT order_id FROM orders WHERE amount < 30;
INSERT INTO dear SELECT order_id FROM orders WHERE amount > 90;`,
    expected: { cheap: 'SELECT order_id FROM orders WHERE amount < 30', dear: 'SELECT order_id FROM orders WHERE amount > 90' },
  },
  {
    name: 'EXECUTE STATEMENT SET',
    sql: `${ORDERS_DDL}${printSink('a', 'order_id STRING')}${printSink('b', 'order_id STRING, qty INT')}EXECUTE STATEMENT SET
BEGIN
  INSERT INTO a SELECT order_id FROM orders WHERE status = 'cancelled';
  INSERT INTO b SELECT order_id, qty FROM orders WHERE qty = 5;
END;`,
    expected: { a: "SELECT order_id FROM orders WHERE status = 'cancelled'", b: 'SELECT order_id, qty FROM orders WHERE qty = 5' },
  },
  {
    name: 'BEGIN STATEMENT SET … END',
    sql: `${ORDERS_DDL}${printSink('a', 'order_id STRING')}${printSink('b', 'order_id STRING')}BEGIN STATEMENT SET;
INSERT INTO a SELECT order_id FROM orders WHERE currency = 'USD';
INSERT INTO b SELECT order_id FROM orders WHERE currency = 'EUR';
END;`,
    expected: { a: "SELECT order_id FROM orders WHERE currency = 'USD'", b: "SELECT order_id FROM orders WHERE currency = 'EUR'" },
  },
  {
    name: 'two INSERTs into one sink',
    sql: `${ORDERS_DDL}${printSink('either_end', 'order_id STRING')}INSERT INTO either_end SELECT order_id FROM orders WHERE qty = 1;
INSERT INTO either_end SELECT order_id FROM orders WHERE qty = 5;`,
    expected: { either_end: 'SELECT order_id FROM orders WHERE qty = 1 OR qty = 5' },
  },
  {
    name: 'INSERT with a column list in another order',
    sql: `${ORDERS_DDL}${printSink('o', 'order_id STRING, qty INT')}INSERT INTO o (qty, order_id) SELECT qty, order_id FROM orders WHERE amount > 50;`,
    expected: { o: 'SELECT order_id, qty FROM orders WHERE amount > 50' },
  },
  {
    name: 'backtick-quoted names',
    sql: "CREATE TABLE `orders` (`order_id` STRING, `customer_id` STRING, `product` STRING, `amount` DOUBLE, `qty` INT, `currency` STRING, `status` STRING, `order_time` TIMESTAMP(3), WATERMARK FOR `order_time` AS `order_time` - INTERVAL '5' SECOND) WITH ('connector' = 'filesystem', 'path' = 'o.jsonl', 'format' = 'json');\nCREATE TABLE `out` (`id` STRING, `value` DOUBLE) WITH ('connector' = 'print');\nINSERT INTO `out` SELECT `order_id`, `amount` * `qty` FROM `orders` WHERE `status` = 'paid';",
    expected: { out: "SELECT order_id AS id, amount * qty AS value FROM orders WHERE status = 'paid'" },
  },
  {
    // Flink writes a DOUBLE as Java does: a whole amount keeps its '.0'; an INT has none. SQLite agrees.
    name: 'CAST of DOUBLE and INT columns to STRING, and a DOUBLE sum in a message',
    sql: `${ORDERS_DDL}${printSink('as_text', 'order_id STRING, amount_text STRING, qty_text STRING, note STRING')}INSERT INTO as_text
SELECT order_id, CAST(amount AS STRING), CAST(qty AS STRING), 'total ' || CAST(amount * qty AS STRING)
FROM orders WHERE amount IS NOT NULL;`,
    expected: { as_text: "SELECT order_id, CAST(amount AS TEXT) AS amount_text, CAST(qty AS TEXT) AS qty_text, 'total ' || CAST(amount * qty AS TEXT) AS note FROM orders WHERE amount IS NOT NULL" },
  },
];
