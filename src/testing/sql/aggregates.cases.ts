/** Oracle scripts: GROUP BY … HAVING, DISTINCT, FILTER, group windows and window table functions. */
import { CLICKS_DDL, ORDERS_DDL, orders, clicks } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { groupWindows, sessions, windowsOf } from './oracleCase.ts';

const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;
const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const H = 3_600_000;
const M = 60_000;
const sum = (xs: unknown[]) => (xs.some((x) => x !== null) ? xs.reduce<number>((a, x) => a + ((x as number) ?? 0), 0) : null);
/** Two-pass variance (mean first, then squared deviations): not the planner's one-pass formula. */
function spread(xs: unknown[], sample: boolean): number | null {
  const v = xs.filter((x): x is number => typeof x === 'number');
  if (v.length < (sample ? 2 : 1)) return null;
  const mean = v.reduce((a, x) => a + x, 0) / v.length;
  return v.reduce((a, x) => a + (x - mean) ** 2, 0) / (v.length - (sample ? 1 : 0));
}
const root = (x: number | null) => (x === null ? null : Math.sqrt(x));
const tumbleSql = (col: string, size: number) => `(${col} / ${size}) * ${size}`;

export const aggregateCases: SqlOracleCase[] = [
  {
    name: 'GROUP BY with COUNT(*), SUM, AVG, MIN, MAX',
    sql: `${ORDERS_DDL}${upsert('by_product', 'product STRING, n BIGINT, total DOUBLE, avg_amount DOUBLE, lo DOUBLE, hi DOUBLE', 'product')}INSERT INTO by_product
SELECT product, COUNT(*) AS n, SUM(amount) AS total, AVG(amount) AS avg_amount, MIN(amount) AS lo, MAX(amount) AS hi
FROM orders GROUP BY product;`,
    expected: { by_product: 'SELECT product, COUNT(*) AS n, SUM(amount) AS total, AVG(amount) AS avg_amount, MIN(amount) AS lo, MAX(amount) AS hi FROM orders GROUP BY product' },
  },
  {
    name: 'GROUP BY two keys, COUNT of a column ignores NULLs',
    sql: `${ORDERS_DDL}${upsert('s', 'status STRING, currency STRING, n BIGINT, priced BIGINT', 'status, currency')}INSERT INTO s
SELECT status, currency, COUNT(*) AS n, COUNT(amount) AS priced FROM orders GROUP BY status, currency;`,
    expected: { s: 'SELECT status, currency, COUNT(*) AS n, COUNT(amount) AS priced FROM orders GROUP BY status, currency' },
  },
  {
    name: 'global aggregate without GROUP BY',
    sql: `${ORDERS_DDL}${printSink('totals', 'n BIGINT, total DOUBLE, units BIGINT')}INSERT INTO totals SELECT COUNT(*) AS n, SUM(amount) AS total, SUM(qty) AS units FROM orders;`,
    expected: { totals: 'SELECT COUNT(*) AS n, SUM(amount) AS total, SUM(qty) AS units FROM orders' },
  },
  {
    name: 'WHERE before GROUP BY and HAVING after it',
    sql: `${ORDERS_DDL}${upsert('busy', 'customer_id STRING, n BIGINT, total DOUBLE', 'customer_id')}INSERT INTO busy
SELECT customer_id, COUNT(*) AS n, SUM(amount) AS total FROM orders
WHERE status <> 'cancelled'
GROUP BY customer_id
HAVING COUNT(*) >= 5 AND SUM(amount) > 200;`,
    expected: { busy: "SELECT customer_id, COUNT(*) AS n, SUM(amount) AS total FROM orders WHERE status <> 'cancelled' GROUP BY customer_id HAVING COUNT(*) >= 5 AND SUM(amount) > 200" },
  },
  {
    name: 'STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP, STDDEV and VARIANCE ignore NULLs; a one-row group has no sample spread',
    sql: `${ORDERS_DDL}${upsert('spread', 'product STRING, sd_pop DOUBLE, sd_samp DOUBLE, v_pop DOUBLE, v_samp DOUBLE, sd DOUBLE, v DOUBLE, sd_paid DOUBLE', 'product')}INSERT INTO spread
SELECT product, STDDEV_POP(amount) AS sd_pop, STDDEV_SAMP(amount) AS sd_samp, VAR_POP(amount) AS v_pop, VAR_SAMP(amount) AS v_samp,
  STDDEV(amount) AS sd, VARIANCE(qty) AS v, STDDEV_POP(amount) FILTER (WHERE status = 'paid') AS sd_paid
FROM orders GROUP BY product;`,
    expected: {
      spread: () => {
        const groups = new Map<unknown, typeof orders>();
        for (const o of orders) groups.set(o.product, [...(groups.get(o.product) ?? []), o]);
        return [...groups].map(([product, os]) => {
          const amounts = os.map((o) => o.amount);
          return {
            product,
            sd_pop: root(spread(amounts, false)),
            sd_samp: root(spread(amounts, true)),
            v_pop: spread(amounts, false),
            v_samp: spread(amounts, true),
            sd: root(spread(amounts, true)),
            v: spread(os.map((o) => o.qty), true),
            sd_paid: root(spread(os.filter((o) => o.status === 'paid').map((o) => o.amount), false)),
          };
        });
      },
    },
  },
  {
    name: 'VAR_POP over an updating aggregate: retractions take their values back out',
    sql: `${ORDERS_DDL}${printSink('counts_spread', 'v DOUBLE, sd DOUBLE')}INSERT INTO counts_spread
SELECT VAR_POP(n) AS v, STDDEV_SAMP(n) AS sd FROM (SELECT customer_id, COUNT(*) AS n FROM orders WHERE status <> 'cancelled' GROUP BY customer_id);`,
    expected: {
      counts_spread: () => {
        const n = new Map<unknown, number>();
        for (const o of orders) if (o.status !== 'cancelled') n.set(o.customer_id, (n.get(o.customer_id) ?? 0) + 1);
        return [{ v: spread([...n.values()], false), sd: root(spread([...n.values()], true)) }];
      },
    },
  },
  {
    name: 'COUNT(DISTINCT …)',
    sql: `${ORDERS_DDL}${upsert('variety', 'customer_id STRING, products BIGINT, currencies BIGINT', 'customer_id')}INSERT INTO variety
SELECT customer_id, COUNT(DISTINCT product) AS products, COUNT(DISTINCT currency) AS currencies FROM orders GROUP BY customer_id;`,
    expected: { variety: 'SELECT customer_id, COUNT(DISTINCT product) AS products, COUNT(DISTINCT currency) AS currencies FROM orders GROUP BY customer_id' },
  },
  {
    name: 'SUM(DISTINCT …) and AVG(DISTINCT …) add each value once, with FILTER, and in a window',
    sql: `${ORDERS_DDL}${upsert('distinct_sums', 'customer_id STRING, qtys BIGINT, mean_qty DOUBLE, paid_qtys BIGINT, all_qtys BIGINT', 'customer_id')}INSERT INTO distinct_sums
SELECT customer_id, SUM(DISTINCT qty) AS qtys, AVG(DISTINCT CAST(qty AS DOUBLE)) AS mean_qty, SUM(DISTINCT qty) FILTER (WHERE status = 'paid') AS paid_qtys, SUM(qty) AS all_qtys
FROM orders GROUP BY customer_id;
${printSink('hourly_distinct', 'window_start TIMESTAMP(3), qtys BIGINT, products BIGINT')}INSERT INTO hourly_distinct
SELECT window_start, SUM(DISTINCT qty) AS qtys, COUNT(DISTINCT product) AS products
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR)) GROUP BY window_start, window_end;`,
    expected: {
      distinct_sums: "SELECT customer_id, SUM(DISTINCT qty) AS qtys, AVG(DISTINCT CAST(qty AS REAL)) AS mean_qty, SUM(DISTINCT CASE WHEN status = 'paid' THEN qty END) AS paid_qtys, SUM(qty) AS all_qtys FROM orders GROUP BY customer_id",
      hourly_distinct: `SELECT ${tumbleSql('order_time', H)} AS window_start, SUM(DISTINCT qty) AS qtys, COUNT(DISTINCT product) AS products FROM orders GROUP BY 1`,
    },
  },
  {
    name: 'SUM(DISTINCT …) over an updating aggregate: a count leaves the sum when its last customer moves on',
    sql: `${ORDERS_DDL}CREATE VIEW per_customer AS SELECT customer_id, COUNT(*) AS n FROM orders WHERE status <> 'cancelled' GROUP BY customer_id;
${printSink('distinct_counts', 'total BIGINT, mean DOUBLE, kinds BIGINT')}INSERT INTO distinct_counts SELECT SUM(DISTINCT n) AS total, AVG(DISTINCT CAST(n AS DOUBLE)) AS mean, COUNT(DISTINCT n) AS kinds FROM per_customer;`,
    expected: { distinct_counts: "SELECT SUM(DISTINCT n) AS total, AVG(DISTINCT CAST(n AS REAL)) AS mean, COUNT(DISTINCT n) AS kinds FROM (SELECT customer_id, COUNT(*) AS n FROM orders WHERE status <> 'cancelled' GROUP BY customer_id)" },
  },
  {
    name: "AVG of an integer column is an integer, the mean truncated toward zero (Flink's IntAvgAggFunction); AVG of a DOUBLE is not",
    sql: `${ORDERS_DDL}${upsert('mean_qty', 'customer_id STRING, int_mean INT, as_double DOUBLE, real_mean DOUBLE, distinct_mean BIGINT', 'customer_id')}INSERT INTO mean_qty
SELECT customer_id, AVG(qty) AS int_mean, AVG(qty) AS as_double, AVG(CAST(qty AS DOUBLE)) AS real_mean, AVG(DISTINCT qty * 3) AS distinct_mean
FROM orders GROUP BY customer_id HAVING AVG(qty) >= 3;
${printSink('mean_qty_rows', 'order_id STRING, mean3 INT')}INSERT INTO mean_qty_rows
SELECT order_id, AVG(qty) OVER (PARTITION BY customer_id ORDER BY order_time ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS mean3 FROM orders;`,
    expected: {
      mean_qty: 'SELECT customer_id, CAST(AVG(qty) AS INTEGER) AS int_mean, CAST(AVG(qty) AS INTEGER) AS as_double, AVG(qty) AS real_mean, CAST(AVG(DISTINCT qty * 3) AS INTEGER) AS distinct_mean FROM orders GROUP BY customer_id HAVING CAST(AVG(qty) AS INTEGER) >= 3',
      mean_qty_rows: 'SELECT order_id, CAST(AVG(qty) OVER (PARTITION BY customer_id ORDER BY order_time ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS INTEGER) AS mean3 FROM orders',
    },
  },
  {
    name: 'HAVING into an upsert table: a group whose new value fails HAVING leaves the table (its -U deletes the key)',
    sql: `${ORDERS_DDL}${upsert('steady', 'customer_id STRING, mean DOUBLE, n BIGINT', 'customer_id')}INSERT INTO steady
SELECT customer_id, AVG(CAST(qty AS DOUBLE)) AS mean, COUNT(*) AS n FROM orders GROUP BY customer_id HAVING AVG(CAST(qty AS DOUBLE)) >= 3;
${upsert('paid_customers', 'customer_id STRING, n BIGINT', 'customer_id')}INSERT INTO paid_customers
SELECT customer_id, n FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) WHERE n < 7;`,
    expected: {
      steady: 'SELECT customer_id, AVG(qty) AS mean, COUNT(*) AS n FROM orders GROUP BY customer_id HAVING AVG(qty) >= 3',
      paid_customers: 'SELECT customer_id, n FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) WHERE n < 7',
    },
  },
  {
    name: 'FILTER (WHERE …) on aggregates',
    sql: `${ORDERS_DDL}${upsert('f', 'product STRING, paid BIGINT, paid_total DOUBLE, big BIGINT', 'product')}INSERT INTO f
SELECT product,
  COUNT(*) FILTER (WHERE status = 'paid') AS paid,
  SUM(amount) FILTER (WHERE status = 'paid') AS paid_total,
  COUNT(DISTINCT customer_id) FILTER (WHERE amount > 50) AS big
FROM orders GROUP BY product;`,
    expected: { f: "SELECT product, SUM(CASE WHEN status = 'paid' THEN 1 ELSE 0 END) AS paid, SUM(CASE WHEN status = 'paid' THEN amount END) AS paid_total, COUNT(DISTINCT CASE WHEN amount > 50 THEN customer_id END) AS big FROM orders GROUP BY product" },
  },
  {
    name: 'SUM(CASE …) pivot',
    sql: `${ORDERS_DDL}${upsert('pivoted', 'customer_id STRING, usd DOUBLE, eur DOUBLE, other BIGINT', 'customer_id')}INSERT INTO pivoted
SELECT customer_id,
  SUM(CASE WHEN currency = 'USD' THEN amount ELSE 0 END) AS usd,
  SUM(CASE WHEN currency = 'EUR' THEN amount ELSE 0 END) AS eur,
  SUM(CASE WHEN currency NOT IN ('USD', 'EUR') THEN 1 ELSE 0 END) AS other
FROM orders GROUP BY customer_id;`,
    expected: { pivoted: "SELECT customer_id, SUM(CASE WHEN currency = 'USD' THEN COALESCE(amount, 0) ELSE 0 END) AS usd, SUM(CASE WHEN currency = 'EUR' THEN COALESCE(amount, 0) ELSE 0 END) AS eur, SUM(CASE WHEN currency NOT IN ('USD', 'EUR') THEN 1 ELSE 0 END) AS other FROM orders GROUP BY customer_id" },
  },
  {
    name: 'GROUP BY an expression, aggregate of an expression, arithmetic over aggregates',
    sql: `${ORDERS_DDL}${upsert('e', 'bucket STRING, revenue DOUBLE, share DOUBLE', 'bucket')}INSERT INTO e
SELECT UPPER(status) AS bucket, SUM(amount * qty) AS revenue, SUM(amount) / COUNT(*) AS share
FROM orders GROUP BY UPPER(status);`,
    expected: { e: 'SELECT UPPER(status) AS bucket, SUM(amount * qty) AS revenue, SUM(amount) * 1.0 / COUNT(*) AS share FROM orders GROUP BY UPPER(status)' },
  },
  {
    name: 'SELECT DISTINCT',
    sql: `${ORDERS_DDL}${printSink('pairs', 'customer_id STRING, currency STRING')}INSERT INTO pairs SELECT DISTINCT customer_id, currency FROM orders;`,
    expected: { pairs: 'SELECT DISTINCT customer_id, currency FROM orders' },
  },
  {
    name: 'aggregate over an aggregate (updating input)',
    sql: `${ORDERS_DDL}CREATE VIEW per_customer AS SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id;
${upsert('histogram', 'n BIGINT, customers BIGINT', 'n')}INSERT INTO histogram SELECT n, COUNT(*) AS customers FROM per_customer GROUP BY n;`,
    expected: { histogram: 'SELECT n, COUNT(*) AS customers FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) GROUP BY n' },
  },
  {
    name: 'group window: TUMBLE with _START and _END',
    sql: `${ORDERS_DDL}${printSink('hourly', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), currency STRING, n BIGINT, total DOUBLE')}INSERT INTO hourly
SELECT TUMBLE_START(order_time, INTERVAL '1' HOUR) AS window_start, TUMBLE_END(order_time, INTERVAL '1' HOUR) AS window_end, currency, COUNT(*) AS n, SUM(amount) AS total
FROM orders GROUP BY TUMBLE(order_time, INTERVAL '1' HOUR), currency;`,
    expected: { hourly: `SELECT ${tumbleSql('order_time', H)} AS window_start, ${tumbleSql('order_time', H)} + ${H} AS window_end, currency, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY 1, currency` },
  },
  {
    name: 'group window: TUMBLE_ROWTIME',
    sql: `${ORDERS_DDL}${printSink('t', 'rt TIMESTAMP(3), n BIGINT')}INSERT INTO t
SELECT TUMBLE_ROWTIME(order_time, INTERVAL '30' MINUTE) AS rt, COUNT(*) AS n FROM orders GROUP BY TUMBLE(order_time, INTERVAL '30' MINUTE);`,
    expected: { t: `SELECT ${tumbleSql('order_time', 30 * M)} + ${30 * M - 1} AS rt, COUNT(*) AS n FROM orders GROUP BY 1` },
  },
  {
    name: 'group window: HOP',
    sql: `${ORDERS_DDL}${printSink('h', 'ws TIMESTAMP(3), we TIMESTAMP(3), n BIGINT, units BIGINT')}INSERT INTO h
SELECT HOP_START(order_time, INTERVAL '30' MINUTE, INTERVAL '1' HOUR) AS ws, HOP_END(order_time, INTERVAL '30' MINUTE, INTERVAL '1' HOUR) AS we, COUNT(*) AS n, SUM(qty) AS units
FROM orders GROUP BY HOP(order_time, INTERVAL '30' MINUTE, INTERVAL '1' HOUR);`,
    expected: {
      h: () => groupWindows(orders, 'order_time', null, (t) => windowsOf(t, { type: 'hop', size: H, slide: 30 * M })).map((g) => ({ ws: g.start, we: g.end, n: g.rows.length, units: sum(g.rows.map((r) => r.qty)) })),
    },
  },
  {
    name: 'group window: SESSION per user',
    sql: `${CLICKS_DDL}${printSink('s', 'user_id STRING, ss TIMESTAMP(3), se TIMESTAMP(3), clicks BIGINT')}INSERT INTO s
SELECT user_id, SESSION_START(click_time, INTERVAL '10' MINUTE) AS ss, SESSION_END(click_time, INTERVAL '10' MINUTE) AS se, COUNT(*) AS clicks
FROM clicks GROUP BY user_id, SESSION(click_time, INTERVAL '10' MINUTE);`,
    expected: { s: () => sessions(clicks, 'click_time', 'user_id', 10 * M).map((g) => ({ user_id: g.key, ss: g.start, se: g.end, clicks: g.rows.length })) },
  },
  {
    name: 'window TVF: TUMBLE',
    sql: `${ORDERS_DDL}${printSink('w', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), product STRING, total DOUBLE')}INSERT INTO w
SELECT window_start, window_end, product, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
GROUP BY window_start, window_end, product;`,
    expected: { w: `SELECT ${tumbleSql('order_time', H)} AS window_start, ${tumbleSql('order_time', H)} + ${H} AS window_end, product, SUM(amount) AS total FROM orders GROUP BY 1, 2, product` },
  },
  {
    name: 'window TVF: TUMBLE with an offset and named arguments',
    sql: `${ORDERS_DDL}${printSink('w', 'window_start TIMESTAMP(3), n BIGINT')}INSERT INTO w
SELECT window_start, COUNT(*) AS n
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR, INTERVAL '15' MINUTE))
GROUP BY window_start, window_end;`,
    expected: { w: () => groupWindows(orders, 'order_time', null, (t) => windowsOf(t, { type: 'tumble', size: H, offset: 15 * M })).map((g) => ({ window_start: g.start, n: g.rows.length })) },
  },
  {
    name: 'window TVF: HOP',
    sql: `${ORDERS_DDL}${printSink('w', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), status STRING, n BIGINT')}INSERT INTO w
SELECT window_start, window_end, status, COUNT(*) AS n
FROM TABLE(HOP(TABLE orders, DESCRIPTOR(order_time), INTERVAL '20' MINUTE, INTERVAL '1' HOUR))
GROUP BY window_start, window_end, status;`,
    expected: { w: () => groupWindows(orders, 'order_time', 'status', (t) => windowsOf(t, { type: 'hop', size: H, slide: 20 * M })).map((g) => ({ window_start: g.start, window_end: g.end, status: g.key, n: g.rows.length })) },
  },
  {
    name: 'window TVF: CUMULATE',
    sql: `${ORDERS_DDL}${printSink('w', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), units BIGINT')}INSERT INTO w
SELECT window_start, window_end, SUM(qty) AS units
FROM TABLE(CUMULATE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '30' MINUTE, INTERVAL '2' HOUR))
GROUP BY window_start, window_end;`,
    expected: { w: () => groupWindows(orders, 'order_time', null, (t) => windowsOf(t, { type: 'cumulate', size: 2 * H, step: 30 * M })).map((g) => ({ window_start: g.start, window_end: g.end, units: sum(g.rows.map((r) => r.qty)) })) },
  },
  {
    name: 'window TVF with WHERE and HAVING',
    sql: `${ORDERS_DDL}${printSink('w', 'window_start TIMESTAMP(3), customer_id STRING, total DOUBLE')}INSERT INTO w
SELECT window_start, customer_id, SUM(amount) AS total
FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR))
WHERE status <> 'cancelled'
GROUP BY window_start, window_end, customer_id
HAVING SUM(amount) > 60;`,
    expected: { w: `SELECT ${tumbleSql('order_time', H)} AS window_start, customer_id, SUM(amount) AS total FROM orders WHERE status <> 'cancelled' GROUP BY 1, customer_id HAVING SUM(amount) > 60` },
  },
  {
    name: 'window aggregate, then a regular aggregate over its results',
    sql: `${ORDERS_DDL}CREATE VIEW hourly AS
SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' HOUR)) GROUP BY window_start, window_end;
${printSink('peak', 'most BIGINT, hours BIGINT')}INSERT INTO peak SELECT MAX(n) AS most, COUNT(*) AS hours FROM hourly;`,
    expected: { peak: `SELECT MAX(n) AS most, COUNT(*) AS hours FROM (SELECT COUNT(*) AS n FROM orders GROUP BY ${tumbleSql('order_time', H)})` },
  },
];
