/**
 * Oracle scripts for Flink's built-in functions, written as Flink users write them: temporal
 * (DATE_FORMAT, EXTRACT, FLOOR … TO, TIMESTAMPADD/DIFF, epoch and text conversions, DATE and
 * TIMESTAMP literals), string (padding, casing, searching, trimming, regular expressions), math,
 * conditional, JSON, hashing and encoding. Where SQLite has the same function the expectation is a
 * SQLite query; otherwise it is computed here from Flink's documented semantics (node:crypto for
 * the digests). Timestamps are UTC, Weir's session time zone.
 */
import { createHash } from 'node:crypto';
import { CUSTOMERS_DDL, ORDERS_DDL, PAYMENTS_DDL, customers, orders } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;
/** SQLite's view of an epoch-ms column as a UTC time. */
const utc = (col: string) => `${col} / 1000, 'unixepoch'`;
const hash = (algo: string, s: string) => createHash(algo).update(s, 'utf8').digest('hex');
const str = (v: unknown) => v as string;

export const functionCases: SqlOracleCase[] = [
  {
    name: 'functions: LIKE … ESCAPE makes % and _ literal; SIMILAR TO reads alternatives, classes and repetition over the whole value',
    sql: `${ORDERS_DDL}${printSink('patterns', 'order_id STRING, tag STRING, eur BOOLEAN, pct BOOLEAN, active BOOLEAN, fruit BOOLEAN, two_digits BOOLEAN')}INSERT INTO patterns
SELECT order_id, tag, tag LIKE '%!_EUR' ESCAPE '!' AS eur, tag NOT LIKE '%#%%' ESCAPE '#' AS pct,
  status SIMILAR TO '(paid|shipped)' AS active, product SIMILAR TO '[a-c]%(s|e)' AS fruit, order_id SIMILAR TO 'o[0-9]{2}' AS two_digits
FROM (SELECT *, CASE WHEN qty > 3 THEN status || '%' || currency ELSE status || '_' || currency END AS tag FROM orders);`,
    expected: {
      patterns: () =>
        orders.map((o) => {
          const tag = `${o.status}${(o.qty as number) > 3 ? '%' : '_'}${o.currency}`;
          const p = o.product as string | null;
          return {
            order_id: o.order_id,
            tag,
            eur: tag.endsWith('_EUR'),
            pct: !tag.includes('%'),
            active: o.status === 'paid' || o.status === 'shipped',
            // apple, bread, cheese: start with a to c and end in s or e; dates starts with d.
            fruit: p === null ? null : p === 'apple' || p === 'cheese',
            two_digits: true,
          };
        }),
    },
  },
  {
    name: 'functions: integer / integer divides as integers, truncated toward zero, as in Flink; a DOUBLE on either side divides exactly',
    sql: `${ORDERS_DDL}${printSink('halves', 'order_id STRING, half INT, neg_half BIGINT, per_unit DOUBLE, exact DOUBLE, mixed DOUBLE')}INSERT INTO halves
SELECT order_id, qty / 2 AS half, CAST((1 - qty) / 2 AS BIGINT) AS neg_half, amount / qty AS per_unit, qty / 2.0 AS exact, CAST(qty AS DOUBLE) / 4 AS mixed FROM orders;`,
    expected: { halves: 'SELECT order_id, qty / 2 AS half, (1 - qty) / 2 AS neg_half, amount / qty AS per_unit, qty / 2.0 AS exact, CAST(qty AS REAL) / 4 AS mixed FROM orders' },
  },
  {
    name: 'functions: DATE_FORMAT, HOUR, MINUTE, DAYOFWEEK and EXTRACT of the order time',
    sql: `${ORDERS_DDL}${printSink('order_times', 'order_id STRING, at_minute STRING, h BIGINT, m BIGINT, dow BIGINT, d BIGINT, y BIGINT')}INSERT INTO order_times
SELECT order_id,
  DATE_FORMAT(order_time, 'yyyy-MM-dd HH:mm') AS at_minute,
  HOUR(order_time) AS h,
  MINUTE(order_time) AS m,
  DAYOFWEEK(order_time) AS dow,
  EXTRACT(DAY FROM order_time) AS d,
  extract(year from order_time) AS y
FROM orders;`,
    expected: {
      order_times: `SELECT order_id, strftime('%Y-%m-%d %H:%M', ${utc('order_time')}) AS at_minute, CAST(strftime('%H', ${utc('order_time')}) AS INTEGER) AS h,
        CAST(strftime('%M', ${utc('order_time')}) AS INTEGER) AS m, CAST(strftime('%w', ${utc('order_time')}) AS INTEGER) + 1 AS dow,
        CAST(strftime('%d', ${utc('order_time')}) AS INTEGER) AS d, CAST(strftime('%Y', ${utc('order_time')}) AS INTEGER) AS y FROM orders`,
    },
  },
  {
    name: 'functions: orders per hour, grouped by FLOOR(order_time TO HOUR)',
    sql: `${ORDERS_DDL}${upsert('per_hour', 'hour_start TIMESTAMP(3), n BIGINT, units INT', 'hour_start')}INSERT INTO per_hour
SELECT FLOOR(order_time TO HOUR) AS hour_start, COUNT(*) AS n, SUM(qty) AS units
FROM orders
GROUP BY FLOOR(order_time TO HOUR);`,
    expected: { per_hour: 'SELECT (order_time / 3600000) * 3600000 AS hour_start, COUNT(*) AS n, SUM(qty) AS units FROM orders GROUP BY 1' },
  },
  {
    name: 'functions: TIMESTAMPDIFF and TIMESTAMPADD between an order and its payment, CEIL(… TO DAY)',
    sql: `${ORDERS_DDL}${PAYMENTS_DDL}${printSink('pay_delays', 'order_id STRING, minutes INT, seconds INT, due TIMESTAMP(3), day_end TIMESTAMP(3)')}INSERT INTO pay_delays
SELECT o.order_id,
  TIMESTAMPDIFF(MINUTE, o.order_time, p.pay_time) AS minutes,
  TIMESTAMPDIFF(SECOND, o.order_time, p.pay_time) AS seconds,
  TIMESTAMPADD(HOUR, 1, o.order_time) AS due,
  CEIL(p.pay_time TO DAY) AS day_end
FROM orders o
JOIN payments p ON o.order_id = p.order_id;`,
    expected: {
      pay_delays: `SELECT o.order_id, (p.pay_time - o.order_time) / 60000 AS minutes, (p.pay_time - o.order_time) / 1000 AS seconds, o.order_time + 3600000 AS due,
        ((p.pay_time + 86399999) / 86400000) * 86400000 AS day_end FROM orders o JOIN payments p ON o.order_id = p.order_id`,
    },
  },
  {
    name: 'functions: padding and casing (LPAD, RPAD, INITCAP, REPEAT, REVERSE, LEFT, RIGHT)',
    sql: `${CUSTOMERS_DDL}${printSink('styled', 'customer_id STRING, padded STRING, tier_dots STRING, title STRING, city_title STRING, stars STRING, backwards STRING, head STRING, tail STRING')}INSERT INTO styled
SELECT customer_id,
  LPAD(customer_id, 5, '0') AS padded,
  RPAD(tier, 8, '.') AS tier_dots,
  INITCAP(LOWER(name)) AS title,
  INITCAP(UPPER(city)) AS city_title,
  REPEAT('*', CHAR_LENGTH(tier)) AS stars,
  REVERSE(name) AS backwards,
  LEFT(name, 3) AS head,
  RIGHT(name, 2) AS tail
FROM customers;`,
    expected: {
      styled: () =>
        customers.map((c) => ({
          customer_id: c.customer_id,
          padded: str(c.customer_id).padStart(5, '0'),
          tier_dots: str(c.tier).padEnd(8, '.'),
          title: str(c.name),
          city_title: c.city === null ? null : str(c.city)[0] + str(c.city).slice(1).toLowerCase(),
          stars: '*'.repeat(str(c.tier).length),
          backwards: [...str(c.name)].reverse().join(''),
          head: str(c.name).slice(0, 3),
          tail: str(c.name).slice(-2),
        })),
    },
  },
  {
    name: 'functions: searching and replacing (REPLACE, CONCAT_WS, POSITION, LOCATE, INSTR)',
    sql: `${CUSTOMERS_DDL}${printSink('found', 'customer_id STRING, short STRING, path STRING, first_o INT, e_after INT, tom INT, no_z INT')}INSERT INTO found
SELECT customer_id,
  REPLACE(name, 'Customer', 'C') AS short,
  CONCAT_WS('/', city, tier, customer_id) AS path,
  POSITION('o' IN name) AS first_o,
  LOCATE('e', name, 6) AS e_after,
  INSTR(name, 'tom') AS tom,
  POSITION('z' IN name) AS no_z
FROM customers;`,
    expected: {
      found: `SELECT customer_id, replace(name, 'Customer', 'C') AS short, COALESCE(city || '/', '') || tier || '/' || customer_id AS path, instr(name, 'o') AS first_o,
        CASE WHEN instr(substr(name, 6), 'e') > 0 THEN instr(substr(name, 6), 'e') + 5 ELSE 0 END AS e_after, instr(name, 'tom') AS tom, 0 AS no_z FROM customers`,
    },
  },
  {
    name: 'functions: TRIM(LEADING | TRAILING | BOTH … FROM …), LTRIM and RTRIM',
    sql: `${ORDERS_DDL}${printSink('trimmed', 'order_id STRING, num STRING, no_zero STRING, both_o STRING, l STRING, r STRING')}INSERT INTO trimmed
SELECT order_id,
  TRIM(LEADING 'o0' FROM order_id) AS num,
  TRIM(TRAILING '0' FROM order_id) AS no_zero,
  trim(both 'o' from order_id) AS both_o,
  LTRIM(CONCAT('  ', status)) AS l,
  RTRIM(CONCAT(status, '  ')) AS r
FROM orders;`,
    expected: { trimmed: "SELECT order_id, ltrim(order_id, 'o0') AS num, rtrim(order_id, '0') AS no_zero, trim(order_id, 'o') AS both_o, status AS l, status AS r FROM orders" },
  },
  {
    name: 'functions: regular expressions and SPLIT_INDEX in SELECT and WHERE',
    sql: `${CUSTOMERS_DDL}${printSink('parsed_names', 'customer_id STRING, num STRING, word STRING, masked STRING, part2 STRING')}INSERT INTO parsed_names
SELECT customer_id,
  REGEXP_EXTRACT(name, '([A-Za-z]+) (\\d+)', 2) AS num,
  REGEXP_EXTRACT(name, '[A-Z][a-z]+') AS word,
  REGEXP_REPLACE(name, '[aeiou]', '_') AS masked,
  SPLIT_INDEX(name, ' ', 1) AS part2
FROM customers
WHERE REGEXP(tier, '^s') OR city IS NULL;`,
    expected: {
      parsed_names: () =>
        customers
          .filter((c) => /^s/.test(str(c.tier)) || c.city === null)
          .map((c) => ({ customer_id: c.customer_id, num: str(c.name).split(' ')[1], word: 'Customer', masked: str(c.name).replace(/[aeiou]/g, '_'), part2: str(c.name).split(' ')[1] })),
    },
  },
  {
    name: 'functions: math built-ins (LN, LOG10, LOG, EXP, SIGN, TRUNCATE, PI, DEGREES)',
    sql: `${ORDERS_DDL}${printSink('maths2', 'order_id STRING, ln_a DOUBLE, lg DOUBLE, lg2 DOUBLE, e DOUBLE, s DOUBLE, t1 DOUBLE, t0 DOUBLE, circle DOUBLE, deg DOUBLE')}INSERT INTO maths2
SELECT order_id,
  LN(amount) AS ln_a,
  LOG10(amount) AS lg,
  LOG(2, qty) AS lg2,
  EXP(qty) AS e,
  SIGN(amount - 50) AS s,
  TRUNCATE(amount, 1) AS t1,
  TRUNCATE(amount * -1) AS t0,
  ROUND(PI() * qty, 3) AS circle,
  DEGREES(qty) AS deg
FROM orders
WHERE amount IS NOT NULL;`,
    expected: {
      maths2: () =>
        orders
          .filter((o) => o.amount !== null)
          .map((o) => {
            const a = o.amount as number;
            const q = o.qty as number;
            return { order_id: o.order_id, ln_a: Math.log(a), lg: Math.log10(a), lg2: Math.log2(q), e: Math.exp(q), s: Math.sign(a - 50), t1: Math.trunc(Math.round(a * 1000) / 100) / 10, t0: -Math.trunc(a), circle: Math.round(Math.PI * q * 1000) / 1000, deg: (q * 180) / Math.PI };
          }),
    },
  },
  {
    name: 'functions: NULLIF, IFNULL, GREATEST, LEAST, IS TRUE and IS NOT FALSE',
    sql: `${ORDERS_DDL}${printSink('flags', 'order_id STRING, live_status STRING, product STRING, at_least_3 INT, capped DOUBLE, big BOOLEAN, big_or_unknown BOOLEAN, not_big BOOLEAN')}INSERT INTO flags
SELECT order_id,
  NULLIF(status, 'cancelled') AS live_status,
  IFNULL(product, 'n/a') AS product,
  GREATEST(qty, 3) AS at_least_3,
  LEAST(amount, 50) AS capped,
  (amount > 50) IS TRUE AS big,
  (amount > 50) IS NOT FALSE AS big_or_unknown,
  amount > 50 IS FALSE AS not_big
FROM orders;`,
    expected: {
      flags: `SELECT order_id, NULLIF(status, 'cancelled') AS live_status, IFNULL(product, 'n/a') AS product, MAX(qty, 3) AS at_least_3, MIN(amount, 50) AS capped,
        (amount > 50) IS TRUE AS big, (amount > 50) IS NOT FALSE AS big_or_unknown, (amount > 50) IS FALSE AS not_big FROM orders`,
    },
  },
  {
    name: 'functions: MD5, SHA1, SHA256 and SHA2 digests of keys',
    sql: `${CUSTOMERS_DDL}${printSink('digests', 'customer_id STRING, md5_id STRING, sha1_name STRING, sha_key STRING, sha512_name STRING, sha224_tier STRING')}INSERT INTO digests
SELECT customer_id,
  MD5(customer_id) AS md5_id,
  SHA1(name) AS sha1_name,
  SHA256(CONCAT(customer_id, ':', tier)) AS sha_key,
  SHA2(name, 512) AS sha512_name,
  SHA224(tier) AS sha224_tier
FROM customers;`,
    expected: {
      digests: () =>
        customers.map((c) => ({
          customer_id: c.customer_id,
          md5_id: hash('md5', str(c.customer_id)),
          sha1_name: hash('sha1', str(c.name)),
          sha_key: hash('sha256', `${str(c.customer_id)}:${str(c.tier)}`),
          sha512_name: hash('sha512', str(c.name)),
          sha224_tier: hash('sha224', str(c.tier)),
        })),
    },
  },
  {
    name: 'functions: JSON_VALUE, JSON_QUERY, JSON_EXISTS and IS JSON over JSON text built in a view',
    sql: `${ORDERS_DDL}${printSink('from_json', 'order_id STRING, product STRING, qty INT, tags STRING, first_tag STRING, has_missing BOOLEAN, is_obj BOOLEAN, is_arr BOOLEAN')}CREATE TEMPORARY VIEW order_docs AS
SELECT order_id, CONCAT('{"product":"', IFNULL(product, ''), '","qty":', CAST(qty AS STRING), ',"tags":["', status, '"]}') AS doc
FROM orders;

INSERT INTO from_json
SELECT order_id,
  JSON_VALUE(doc, '$.product') AS product,
  CAST(JSON_VALUE(doc, '$.qty') AS INT) AS qty,
  JSON_QUERY(doc, '$.tags') AS tags,
  JSON_VALUE(doc, '$.tags[0]') AS first_tag,
  JSON_EXISTS(doc, '$.missing') AS has_missing,
  doc IS JSON OBJECT AS is_obj,
  doc IS JSON ARRAY AS is_arr
FROM order_docs;`,
    expected: {
      from_json: `SELECT order_id, IFNULL(product, '') AS product, qty, '["' || status || '"]' AS tags, status AS first_tag, 0 AS has_missing, 1 AS is_obj, 0 AS is_arr FROM orders`,
    },
  },
  {
    name: 'functions: JSON_VALUE with RETURNING and DEFAULT … ON EMPTY / ON ERROR tells a missing or null value from an object, bad text or a failed conversion',
    sql: `${ORDERS_DDL}${printSink('json_defaults', 'order_id STRING, q INT, p STRING, q_text STRING')}CREATE TEMPORARY VIEW order_docs AS
SELECT order_id, CASE status
  WHEN 'paid' THEN CONCAT('{"q":', CAST(qty AS STRING), ',"p":', CASE WHEN product IS NULL THEN 'null' ELSE CONCAT('"', product, '"') END, '}')
  WHEN 'cancelled' THEN '{"q":{"x":1}}'
  ELSE CASE WHEN qty > 2 THEN '{"q":"many"}' ELSE 'not json' END END AS doc
FROM orders;

INSERT INTO json_defaults
SELECT order_id,
  JSON_VALUE(doc, '$.q' RETURNING INT DEFAULT -1 ON EMPTY DEFAULT -2 ON ERROR) AS q,
  JSON_VALUE(doc, '$.p' DEFAULT 'none' ON EMPTY) AS p,
  JSON_VALUE(doc, '$.q' DEFAULT 'bad' ON ERROR) AS q_text
FROM order_docs;`,
    expected: {
      json_defaults: `SELECT order_id,
  CASE WHEN status = 'paid' THEN qty ELSE -2 END AS q,
  CASE WHEN status = 'paid' THEN IFNULL(product, 'none') WHEN status = 'cancelled' OR qty > 2 THEN 'none' END AS p,
  CASE WHEN status = 'paid' THEN CAST(qty AS TEXT) WHEN status = 'shipped' AND qty > 2 THEN 'many' ELSE 'bad' END AS q_text
FROM orders`,
    },
  },
  {
    name: 'functions: JSON_OBJECT and JSON_ARRAY with their NULL clauses, nested, against SQLite json_object / json_array',
    sql: `${ORDERS_DDL}${printSink('json_built', 'order_id STRING, obj STRING, sparse STRING, arr STRING, arr_null STRING, nested STRING')}INSERT INTO json_built
SELECT order_id,
  JSON_OBJECT(KEY 'id' VALUE order_id, KEY 'product' VALUE product, KEY 'qty' VALUE qty) AS obj,
  JSON_OBJECT('product' VALUE product ABSENT ON NULL) AS sparse,
  JSON_ARRAY(customer_id, product, qty) AS arr,
  JSON_ARRAY(product NULL ON NULL) AS arr_null,
  JSON_OBJECT(KEY 'o' VALUE JSON_OBJECT(KEY 'q' VALUE qty), KEY 'a' VALUE JSON_ARRAY(status)) AS nested
FROM orders;`,
    expected: {
      // SQLite's json_array keeps NULLs, so Flink's default ABSENT ON NULL is spelled out with CASE.
      json_built: `SELECT order_id, json_object('id', order_id, 'product', product, 'qty', qty) AS obj,
  CASE WHEN product IS NULL THEN '{}' ELSE json_object('product', product) END AS sparse,
  CASE WHEN product IS NULL THEN json_array(customer_id, qty) ELSE json_array(customer_id, product, qty) END AS arr,
  json_array(product) AS arr_null,
  json_object('o', json_object('q', qty), 'a', json_array(status)) AS nested
FROM orders`,
    },
  },
  {
    name: 'functions: epoch seconds and text timestamps (UNIX_TIMESTAMP, FROM_UNIXTIME, TO_TIMESTAMP, TO_DATE, CAST … AS DATE / STRING)',
    sql: `${ORDERS_DDL}${printSink('reparsed', 'order_id STRING, epoch_s BIGINT, hhmm STRING, back TIMESTAMP(3), d1 DATE, d2 DATE, text3 STRING')}CREATE TEMPORARY VIEW stamped AS
SELECT order_id, order_time, DATE_FORMAT(order_time, 'yyyy-MM-dd HH:mm:ss') AS ts_text FROM orders;

INSERT INTO reparsed
SELECT order_id,
  UNIX_TIMESTAMP(ts_text) AS epoch_s,
  FROM_UNIXTIME(UNIX_TIMESTAMP(ts_text), 'HH:mm') AS hhmm,
  TO_TIMESTAMP(ts_text) AS back,
  TO_DATE(ts_text, 'yyyy-MM-dd HH:mm:ss') AS d1,
  CAST(order_time AS DATE) AS d2,
  CAST(order_time AS STRING) AS text3
FROM stamped;`,
    expected: {
      reparsed: `SELECT order_id, order_time / 1000 AS epoch_s, strftime('%H:%M', ${utc('order_time')}) AS hhmm, (order_time / 1000) * 1000 AS back, date(${utc('order_time')}) AS d1,
        date(${utc('order_time')}) AS d2, strftime('%Y-%m-%d %H:%M:%S', ${utc('order_time')}) || '.' || printf('%03d', order_time % 1000) AS text3 FROM orders`,
    },
  },
  {
    name: 'functions: DATE and TIMESTAMP literals and BETWEEN SYMMETRIC in WHERE',
    sql: `${ORDERS_DDL}${printSink('early', 'order_id STRING, amount DOUBLE')}INSERT INTO early
SELECT order_id, amount FROM orders
WHERE CAST(order_time AS DATE) >= DATE '2023-11-14'
  AND order_time < TIMESTAMP '2023-11-15 00:00:00'
  AND qty BETWEEN SYMMETRIC 4 AND 2;`,
    expected: { early: 'SELECT order_id, amount FROM orders WHERE order_time < 1700006400000 AND qty BETWEEN 2 AND 4' },
  },
  {
    name: 'functions: revenue per hour of the day, grouped by DATE_FORMAT, with IFNULL inside SUM',
    sql: `${ORDERS_DDL}${upsert('by_hour_of_day', 'hour_of_day STRING, revenue DOUBLE, buyers BIGINT', 'hour_of_day')}INSERT INTO by_hour_of_day
SELECT DATE_FORMAT(order_time, 'HH') AS hour_of_day, SUM(IFNULL(amount, 0)) AS revenue, COUNT(DISTINCT customer_id) AS buyers
FROM orders
GROUP BY DATE_FORMAT(order_time, 'HH');`,
    expected: { by_hour_of_day: `SELECT strftime('%H', ${utc('order_time')}) AS hour_of_day, SUM(IFNULL(amount, 0)) AS revenue, COUNT(DISTINCT customer_id) AS buyers FROM orders GROUP BY 1` },
  },
  {
    name: 'functions: a window TVF labelled with DATE_FORMAT(window_start) and TIMESTAMPDIFF of its bounds',
    sql: `${ORDERS_DDL}${printSink('slots', 'slot STRING, width BIGINT, n BIGINT')}INSERT INTO slots
SELECT DATE_FORMAT(window_start, 'HH:mm') AS slot, TIMESTAMPDIFF(MINUTE, window_start, window_end) AS width, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '30' MINUTE))
GROUP BY window_start, window_end;`,
    expected: { slots: `SELECT strftime('%H:%M', ((order_time / 1800000) * 1800000) / 1000, 'unixepoch') AS slot, 30 AS width, COUNT(*) AS n FROM orders GROUP BY order_time / 1800000` },
  },
  {
    name: 'functions: POSITION, SUBSTR and LEFT across a join',
    sql: `${ORDERS_DDL}${CUSTOMERS_DDL}${printSink('numbered', 'order_id STRING, name STRING, num STRING')}INSERT INTO numbered
SELECT o.order_id, c.name, SUBSTR(c.name, POSITION(' ' IN c.name) + 1) AS num
FROM orders o
JOIN customers c ON o.customer_id = c.customer_id
WHERE POSITION('1' IN o.order_id) > 0 AND LEFT(c.tier, 1) = 's';`,
    expected: {
      numbered: `SELECT o.order_id, c.name, substr(c.name, instr(c.name, ' ') + 1) AS num FROM orders o JOIN customers c ON o.customer_id = c.customer_id
        WHERE instr(o.order_id, '1') > 0 AND substr(c.tier, 1, 1) = 's'`,
    },
  },
  {
    name: 'functions: HEX, TO_BASE64, FROM_BASE64, ASCII and CHR',
    sql: `${CUSTOMERS_DDL}${printSink('encoded', 'customer_id STRING, hx STRING, b64 STRING, same STRING, first_code INT, init STRING')}INSERT INTO encoded
SELECT customer_id,
  HEX(customer_id) AS hx,
  TO_BASE64(name) AS b64,
  FROM_BASE64(TO_BASE64(name)) AS same,
  ASCII(tier) AS first_code,
  CHR(ASCII(tier) - 32) AS init
FROM customers;`,
    expected: {
      encoded: () =>
        customers.map((c) => ({
          customer_id: c.customer_id,
          hx: Buffer.from(str(c.customer_id), 'utf8').toString('hex').toUpperCase(),
          b64: Buffer.from(str(c.name), 'utf8').toString('base64'),
          same: c.name,
          first_code: str(c.tier).charCodeAt(0),
          init: str(c.tier)[0].toUpperCase(),
        })),
    },
  },
  {
    name: 'functions: computed columns with built-ins in CREATE TABLE, grouped',
    sql: `${ORDERS_DDL.replace('  order_time TIMESTAMP(3),\n', "  order_time TIMESTAMP(3),\n  order_day AS DATE_FORMAT(order_time, 'yyyy-MM-dd'),\n  hour_of_day AS HOUR(order_time),\n")}${upsert('per_day_hour', 'order_day STRING, hour_of_day BIGINT, n BIGINT', 'order_day, hour_of_day')}INSERT INTO per_day_hour
SELECT order_day, hour_of_day, COUNT(*) AS n
FROM orders
GROUP BY order_day, hour_of_day;`,
    expected: { per_day_hour: `SELECT date(${utc('order_time')}) AS order_day, CAST(strftime('%H', ${utc('order_time')}) AS INTEGER) AS hour_of_day, COUNT(*) AS n FROM orders GROUP BY 1, 2` },
  },
  {
    name: 'functions: TRY_CAST of text to numbers and CAST of built text to a timestamp',
    sql: `${ORDERS_DDL}${printSink('casted', 'order_id STRING, num INT, bad INT, at_hour TIMESTAMP(3)')}INSERT INTO casted
SELECT order_id,
  TRY_CAST(SUBSTR(order_id, 2) AS INT) AS num,
  TRY_CAST(status AS INT) AS bad,
  CAST(CONCAT('2023-11-14 ', LPAD(CAST(qty AS STRING), 2, '0'), ':00:00') AS TIMESTAMP(3)) AS at_hour
FROM orders;`,
    expected: { casted: "SELECT order_id, CAST(substr(order_id, 2) AS INTEGER) AS num, 1699920000000 + qty * 3600000 AS at_hour FROM orders" },
  },
  {
    name: 'functions: a DATE shifted by an INTERVAL stays a DATE (the day after and the day before each order)',
    sql: `${ORDERS_DDL}${printSink('days', 'order_id STRING, next_day DATE, day_before DATE')}INSERT INTO days
SELECT order_id, CAST(order_time AS DATE) + INTERVAL '1' DAY, CAST(order_time AS DATE) - INTERVAL '1' DAY FROM orders;`,
    expected: { days: `SELECT order_id, date(${utc('order_time')}, '+1 day') AS next_day, date(${utc('order_time')}, '-1 day') AS day_before FROM orders` },
  },
  {
    // Flink casts the text to TIMESTAMP; the day boundary falls inside the orders' time range.
    name: 'functions: a timestamp compared with a DATE literal and with timestamp text',
    sql: `${ORDERS_DDL}${printSink('late_day', 'order_id STRING, on_or_after BOOLEAN, before_text BOOLEAN, is_day BOOLEAN')}INSERT INTO late_day
SELECT order_id, order_time >= DATE '2023-11-15', order_time < '2023-11-15 00:30:00', order_time BETWEEN DATE '2023-11-15' AND '2023-11-15 01:00:00'
FROM orders WHERE order_time <> DATE '2023-11-15';`,
    expected: {
      late_day: `SELECT order_id, order_time >= ${Date.UTC(2023, 10, 15)} AS on_or_after, order_time < ${Date.UTC(2023, 10, 15, 0, 30)} AS before_text,
        order_time BETWEEN ${Date.UTC(2023, 10, 15)} AND ${Date.UTC(2023, 10, 15, 1)} AS is_day FROM orders`,
    },
  },
  {
    name: 'functions: TIME, the time of day of a timestamp, compared with a TIME literal',
    sql: `${ORDERS_DDL}${printSink('times', 'order_id STRING, at_time TIME(0), after_eleven BOOLEAN')}INSERT INTO times
SELECT order_id, CAST(order_time AS TIME), CAST(order_time AS TIME) >= TIME '23:00:00' FROM orders;`,
    expected: { times: `SELECT order_id, strftime('%H:%M:%S', ${utc('order_time')}) AS at_time, strftime('%H:%M:%S', ${utc('order_time')}) >= '23:00:00' AS after_eleven FROM orders` },
  },
];
