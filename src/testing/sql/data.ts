/**
 * The tables the Flink SQL oracle scripts read, as their filesystem/json files would hold them
 * (timestamps as epoch milliseconds). Rows are in file order; event time is out of order by at most
 * 4 s and every table's watermark allows 5 s, so no record is late and a streaming run ends with
 * the same table a batch query computes.
 */
export type Row = Record<string, unknown>;

export const START = 1_700_000_000_000 - (1_700_000_000_000 % 3_600_000);
const MIN = 60_000;

/** A small deterministic generator (an LCG), so that the data is the same on every run. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const rnd = lcg(7);
const jitter = () => Math.round((rnd() - 0.5) * 8000);
const PRODUCTS = ['apple', 'bread', 'cheese', 'dates', 'eggs'];
const STATUS = ['paid', 'paid', 'cancelled', 'shipped'];
const CURRENCY = ['USD', 'EUR', 'TWD'];

export const orders: Row[] = Array.from({ length: 60 }, (_, i) => ({
  order_id: `o${String(i).padStart(2, '0')}`,
  customer_id: `c${i % 9}`,
  product: i % 13 === 0 ? null : PRODUCTS[(i * 7) % 5],
  amount: i % 17 === 5 ? null : 10 + ((i * 37) % 97) + i / 100,
  qty: 1 + ((i * 3) % 5),
  currency: CURRENCY[i % 3],
  status: STATUS[(i * 5) % 4],
  order_time: START + i * 3 * MIN + jitter(),
}));

export const customers: Row[] = Array.from({ length: 8 }, (_, i) => ({
  customer_id: `c${i}`,
  name: `Customer ${i}`,
  city: i === 5 ? null : ['Taipei', 'Tainan', 'Kaohsiung'][i % 3],
  tier: i % 4 === 0 ? 'gold' : 'silver',
}));

export const payments: Row[] = orders
  .filter((_, i) => i % 4 !== 3)
  .map((o, j) => ({
    payment_id: `p${j}`,
    order_id: o.order_id,
    pay_method: ['card', 'cash', 'transfer'][j % 3],
    paid_amount: o.amount,
    pay_time: (o.order_time as number) + ((j * 7) % 40) * MIN + 500,
  }))
  .sort((a, b) => a.pay_time - b.pay_time);

export const rates: Row[] = [0, 1, 2]
  .flatMap((h) => CURRENCY.map((c, k) => ({ currency: c, rate: [1, 1.1, 0.031][k] * (1 + h / 10), rate_time: START + h * 60 * MIN - 30 * MIN + k * 1000 })))
  .sort((a, b) => a.rate_time - b.rate_time);

/** A dimension table of products; `cheese` is listed twice, and the later row is its current one. `eggs` has none. */
export const products: Row[] = [
  { product: 'apple', category: 'fruit' },
  { product: 'bread', category: 'bakery' },
  { product: 'cheese', category: 'dairy' },
  { product: 'dates', category: 'fruit' },
  { product: 'cheese', category: 'deli' },
];

const USERS = ['u1', 'u2', 'u3', 'u4'];
let clickAt = START;
export const clicks: Row[] = Array.from({ length: 48 }, (_, i) => {
  // Bursts of activity with quiet gaps, for session windows.
  clickAt += i % 8 === 7 ? 25 * MIN : Math.round(rnd() * 3 * MIN);
  return { user_id: USERS[(i * 3 + (i >> 3)) % 4], url: `/p/${i % 6}`, click_time: clickAt + jitter() };
});

export const deliveries: Row[] = orders
  .filter((_, i) => i % 3 !== 1)
  .map((o, j) => ({ delivery_id: `d${j}`, order_id: o.order_id, courier: ['fast', 'slow'][j % 2], delivered_at: (o.order_time as number) + 90 * MIN + j * 1000 }))
  .sort((a, b) => a.delivered_at - b.delivered_at);

/** Point-of-sale transactions per store (the orders, seen from the stores). */
export const transactions: Row[] = orders.map((o) => ({ store_id: `s${(o.customer_id as string).slice(1)}`, total: o.amount, tx_time: o.order_time }));

/** Page views as a tracker writes them: the event time as a BIGINT of epoch milliseconds. */
export const pageviews: Row[] = clicks.map((c, i) => ({ user_id: c.user_id, page: c.url, duration_ms: 200 + ((i * 131) % 900), ts_ms: c.click_time }));

/** The orders as an application log writes them: the time as zone-less UTC text, as local-format text and as epoch seconds. */
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export const events: Row[] = orders.map((o) => {
  const d = new Date(Math.floor((o.order_time as number) / 1000) * 1000);
  const ymd = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const hms = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return {
    event_id: o.order_id,
    user_id: o.customer_id,
    amount: o.amount,
    event_text: `${ymd} ${hms}`,
    event_local: `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${hms}`,
    event_sec: d.getTime() / 1000,
  };
});

/**
 * Sensor readings small enough to work the OVER functions out by hand: NULL readings, two readings
 * of s1 at one time (30 s), and s1's 17 s reading arriving after its 20 s one.
 */
export const readings: Row[] = (
  [
    ['s1', 20, 10],
    ['s2', 15, 12],
    ['s1', null, 20],
    ['s1', 22, 17],
    ['s2', 16, 25],
    ['s1', 25, 30],
    ['s1', 26, 30],
    ['s3', null, 31],
    ['s2', null, 33],
    ['s1', 24, 40],
    ['s3', 30, 41],
  ] as const
).map(([sensor, temp, s]) => ({ sensor, temp, ts: START + s * 1000 }));

/** Shopping carts with collection columns (ARRAY of strings, ARRAY of rows, MAP), for UNNEST: empty, NULL and NULL-element cases included. */
const TAGS = ['gift', 'promo', 'bulk', 'express'];
export const carts: Row[] = Array.from({ length: 24 }, (_, i) => ({
  cart_id: `k${String(i).padStart(2, '0')}`,
  customer_id: `c${i % 5}`,
  tags: i % 7 === 3 ? null : i % 5 === 4 ? [] : i % 11 === 2 ? ['gift', null] : TAGS.slice(i % 3, (i % 3) + 1 + (i % 2)),
  items: i % 6 === 5 ? [] : Array.from({ length: 1 + (i % 3) }, (_, j) => ({ sku: PRODUCTS[(i + j * 2) % 5], qty: 1 + ((i * (j + 1)) % 4), price: 2 + ((i + j) % 7) / 2 })),
  attrs: i % 8 === 7 ? null : { weight: 1 + (i % 4) / 4, ...(i % 3 === 0 ? { volume: 0.5 + (i % 5) } : {}) },
  cart_time: START + i * 2 * MIN + jitter(),
}));

export const TABLES: Record<string, Row[]> = { orders, customers, payments, rates, clicks, deliveries, transactions, pageviews, events, readings, products, carts };

export const ORDERS_DDL = `CREATE TABLE orders (
  order_id STRING,
  customer_id STRING,
  product STRING,
  amount DOUBLE,
  qty INT,
  currency STRING,
  status STRING,
  order_time TIMESTAMP(3),
  WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = 'file:///data/orders.jsonl',
  'format' = 'json'
);
`;

/** The orders table with a processing-time attribute, as a lookup join's probe side. */
export const ORDERS_PROCTIME_DDL = ORDERS_DDL.replace('  WATERMARK FOR', '  proc_time AS PROCTIME(),\n  WATERMARK FOR');

/** The products dimension table in a database, as Flink users declare one for lookup joins. */
export const PRODUCTS_DDL = `CREATE TABLE products (
  product STRING,
  category STRING,
  PRIMARY KEY (product) NOT ENFORCED
) WITH ('connector' = 'jdbc', 'url' = 'jdbc:mysql://db:3306/shop', 'table-name' = 'products');
`;

export const CUSTOMERS_DDL = `CREATE TABLE customers (
  customer_id STRING,
  name STRING,
  city STRING,
  tier STRING,
  PRIMARY KEY (customer_id) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/customers.jsonl', 'format' = 'json');
`;

export const PAYMENTS_DDL = `CREATE TABLE payments (
  payment_id STRING,
  order_id STRING,
  pay_method STRING,
  paid_amount DOUBLE,
  pay_time TIMESTAMP(3),
  WATERMARK FOR pay_time AS pay_time - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/payments.jsonl', 'format' = 'json');
`;

export const RATES_DDL = `CREATE TABLE rates (
  currency STRING,
  rate DOUBLE,
  rate_time TIMESTAMP(3),
  WATERMARK FOR rate_time AS rate_time - INTERVAL '5' SECOND,
  PRIMARY KEY (currency) NOT ENFORCED
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/rates.jsonl', 'format' = 'json');
`;

export const CLICKS_DDL = `CREATE TABLE clicks (
  user_id STRING,
  url STRING,
  click_time TIMESTAMP(3),
  WATERMARK FOR click_time AS click_time - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/clicks.jsonl', 'format' = 'json');
`;

export const PAGEVIEWS_DDL = `CREATE TABLE pageviews (
  user_id STRING,
  page STRING,
  duration_ms INT,
  ts_ms BIGINT,
  ts AS TO_TIMESTAMP_LTZ(ts_ms, 3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/pageviews.jsonl', 'format' = 'json');
`;

export const READINGS_DDL = `CREATE TABLE readings (
  sensor STRING,
  temp DOUBLE,
  ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/readings.jsonl', 'format' = 'json');
`;

export const CARTS_DDL = `CREATE TABLE carts (
  cart_id STRING,
  customer_id STRING,
  tags ARRAY<STRING>,
  items ARRAY<ROW<sku STRING, qty INT, price DOUBLE>>,
  attrs MAP<STRING, DOUBLE>,
  cart_time TIMESTAMP(3),
  WATERMARK FOR cart_time AS cart_time - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/carts.jsonl', 'format' = 'json');
`;
