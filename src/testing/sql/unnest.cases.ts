/**
 * Oracle scripts: UNNEST as Flink writes it (CROSS JOIN UNNEST, the comma form, LEFT JOIN …
 * ON TRUE) over ARRAY<STRING>, ARRAY<ROW<…>> and MAP columns, checked against SQLite's json_each
 * over the same values; then aggregated, windowed and over an updating input, worked out by hand.
 */
import { CARTS_DDL, carts } from './data.ts';
import type { Row } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';
import { groupWindows, windowsOf } from './oracleCase.ts';

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;
const upsert = (name: string, cols: string, key: string) =>
  `CREATE TABLE ${name} (${cols}, PRIMARY KEY (${key}) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '${name}', 'key.format' = 'json', 'value.format' = 'json');\n`;

type Item = { sku: string; qty: number; price: number };
const itemsOf = (c: Row): Item[] => (c.items as Item[] | null) ?? [];

/** SUM(qty) and SUM(qty * price) per sku over the items of these carts. */
function perSku(cs: readonly Row[]): Row[] {
  const out = new Map<string, Row>();
  for (const c of cs) {
    for (const it of itemsOf(c)) {
      const r = out.get(it.sku) ?? { sku: it.sku, units: 0, revenue: 0 };
      r.units = (r.units as number) + it.qty;
      r.revenue = (r.revenue as number) + it.qty * it.price;
      out.set(it.sku, r);
    }
  }
  return [...out.values()];
}

export const unnestCases: SqlOracleCase[] = [
  {
    name: "array functions: ARRAY_CONTAINS, ARRAY_POSITION, ARRAY_JOIN with and without a NULL replacement, ARRAY_CONTAINS over MAP_KEYS",
    sql: `${CARTS_DDL}${printSink('cart_tags_fn', 'cart_id STRING, is_gift BOOLEAN, promo_at INT, joined STRING, joined_q STRING, has_volume BOOLEAN')}INSERT INTO cart_tags_fn
SELECT cart_id, ARRAY_CONTAINS(tags, 'gift'), ARRAY_POSITION(tags, 'promo'), ARRAY_JOIN(tags, '|'), ARRAY_JOIN(tags, '|', '?'), ARRAY_CONTAINS(MAP_KEYS(attrs), 'volume') FROM carts;`,
    expected: {
      cart_tags_fn: `SELECT cart_id,
  CASE WHEN tags IS NULL THEN NULL ELSE EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'gift') END AS is_gift,
  CASE WHEN tags IS NULL THEN NULL ELSE COALESCE((SELECT MIN(key) + 1 FROM json_each(tags) WHERE value = 'promo'), 0) END AS promo_at,
  CASE WHEN tags IS NULL THEN NULL ELSE COALESCE((SELECT group_concat(value, '|') FROM (SELECT value FROM json_each(tags) WHERE value IS NOT NULL ORDER BY key)), '') END AS joined,
  CASE WHEN tags IS NULL THEN NULL ELSE COALESCE((SELECT group_concat(COALESCE(value, '?'), '|') FROM (SELECT value FROM json_each(tags) ORDER BY key)), '') END AS joined_q,
  CASE WHEN attrs IS NULL THEN NULL ELSE json_extract(attrs, '$.volume') IS NOT NULL END AS has_volume
FROM carts`,
    },
  },
  {
    name: 'element access and CARDINALITY: tags[1], tags[2], attrs[key] and the sizes of an ARRAY and a MAP, NULL where missing',
    sql: `${CARTS_DDL}${printSink('cart_shape', 'cart_id STRING, n_tags INT, first_tag STRING, second_tag STRING, n_attrs INT, weight DOUBLE')}INSERT INTO cart_shape
SELECT cart_id, CARDINALITY(tags), tags[1], tags[2], CARDINALITY(attrs), attrs['weight'] FROM carts;`,
    expected: {
      cart_shape: `SELECT cart_id, json_array_length(tags) AS n_tags, json_extract(tags, '$[0]') AS first_tag, json_extract(tags, '$[1]') AS second_tag,
  (SELECT COUNT(*) FROM json_each(attrs)) * (CASE WHEN attrs IS NULL THEN NULL ELSE 1 END) AS n_attrs, json_extract(attrs, '$.weight') AS weight FROM carts`,
    },
  },
  {
    name: 'ARRAY[…] and MAP[…] constructors: element access, CARDINALITY, ARRAY_CONTAINS over a constant array, UNNEST of a built array',
    sql: `${CARTS_DDL}${printSink('cart_built', 'cart_id STRING, who STRING, n INT, vip BOOLEAN, w DOUBLE')}${printSink('cart_ids', 'cart_id STRING, id STRING')}INSERT INTO cart_built
SELECT cart_id, ARRAY[customer_id, cart_id][1], CARDINALITY(ARRAY[1, 2, 3]), ARRAY_CONTAINS(ARRAY['c1', 'c3'], customer_id), MAP['w', attrs['weight'], 'v', 1.0]['w'] FROM carts;
INSERT INTO cart_ids
SELECT cart_id, id FROM carts CROSS JOIN UNNEST(ARRAY[cart_id, customer_id]) AS u (id);`,
    expected: {
      cart_built: `SELECT cart_id, customer_id AS who, 3 AS n, CASE WHEN customer_id IS NULL THEN NULL ELSE customer_id IN ('c1', 'c3') END AS vip, json_extract(attrs, '$.weight') AS w FROM carts`,
      cart_ids: `SELECT cart_id, cart_id AS id FROM carts UNION ALL SELECT cart_id, customer_id AS id FROM carts`,
    },
  },
  {
    name: 'CROSS JOIN UNNEST of an ARRAY<STRING>: one row per tag, NULL elements kept, NULL and empty arrays give none',
    sql: `${CARTS_DDL}${printSink('cart_tags', 'cart_id STRING, tag STRING')}INSERT INTO cart_tags
SELECT c.cart_id, t.tag FROM carts AS c CROSS JOIN UNNEST(c.tags) AS t (tag);`,
    expected: { cart_tags: 'SELECT c.cart_id, j.value AS tag FROM carts c, json_each(c.tags) j' },
  },
  {
    name: 'LEFT JOIN UNNEST(…) ON TRUE of an ARRAY<ROW<…>>: a cart without items is kept once with NULLs',
    sql: `${CARTS_DDL}${printSink('cart_lines', 'cart_id STRING, sku STRING, qty INT, line_total DOUBLE')}INSERT INTO cart_lines
SELECT cart_id, sku, qty, qty * price AS line_total FROM carts LEFT JOIN UNNEST(items) AS i (sku, qty, price) ON TRUE;`,
    expected: {
      cart_lines: `SELECT c.cart_id, json_extract(j.value, '$.sku') AS sku, json_extract(j.value, '$.qty') AS qty,
        json_extract(j.value, '$.qty') * json_extract(j.value, '$.price') AS line_total
        FROM carts c LEFT JOIN json_each(c.items) j`,
    },
  },
  {
    name: 'UNNEST of a MAP in the comma form, the WHERE filtering the entries; row fields named by the ROW type',
    sql: `${CARTS_DDL}${printSink('heavy', 'cart_id STRING, attr STRING, val DOUBLE')}${printSink('skus', 'cart_id STRING, sku STRING, qty INT')}INSERT INTO heavy
SELECT cart_id, attr, val FROM carts, UNNEST(attrs) AS a (attr, val) WHERE val >= 1.5;
INSERT INTO skus SELECT cart_id, sku, qty FROM carts CROSS JOIN UNNEST(items);`,
    expected: {
      heavy: 'SELECT c.cart_id, j.key AS attr, j.value AS val FROM carts c, json_each(c.attrs) j WHERE j.value >= 1.5',
      skus: "SELECT c.cart_id, json_extract(j.value, '$.sku') AS sku, json_extract(j.value, '$.qty') AS qty FROM carts c, json_each(c.items) j",
    },
  },
  {
    name: 'GROUP BY over unnested items: units and revenue per sku',
    sql: `${CARTS_DDL}${upsert('sku_totals', 'sku STRING, units BIGINT, revenue DOUBLE', 'sku')}INSERT INTO sku_totals
SELECT sku, SUM(qty) AS units, SUM(qty * price) AS revenue FROM carts CROSS JOIN UNNEST(items) AS i (sku, qty, price) GROUP BY sku;`,
    expected: { sku_totals: () => perSku(carts) },
  },
  {
    name: 'unnested rows keep the event time: a TUMBLE window table function counts tags per 10 minutes',
    sql: `${CARTS_DDL}CREATE VIEW tagged AS SELECT cart_time, tag FROM carts CROSS JOIN UNNEST(tags) AS t (tag);
${printSink('tags_per_window', 'window_start TIMESTAMP(3), window_end TIMESTAMP(3), tag STRING, n BIGINT')}INSERT INTO tags_per_window
SELECT window_start, window_end, tag, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE tagged, DESCRIPTOR(cart_time), INTERVAL '10' MINUTES))
WHERE tag IS NOT NULL GROUP BY window_start, window_end, tag;`,
    expected: {
      tags_per_window: () => {
        const rows = carts.flatMap((c) => ((c.tags as (string | null)[] | null) ?? []).filter((t) => t !== null).map((tag) => ({ tag, cart_time: c.cart_time })));
        const out: Row[] = [];
        for (const tag of new Set(rows.map((r) => r.tag))) {
          for (const g of groupWindows(rows.filter((r) => r.tag === tag), 'cart_time', null, (ts) => windowsOf(ts, { type: 'tumble', size: 600_000 }))) {
            out.push({ window_start: g.start, window_end: g.end, tag, n: g.rows.length });
          }
        }
        return out;
      },
    },
  },
  {
    name: 'UNNEST over an updating input: each customer\'s latest cart, its items summed; a replaced cart retracts its lines',
    sql: `${CARTS_DDL}CREATE VIEW latest AS SELECT cart_id, customer_id, items FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY cart_time DESC) AS rn FROM carts
) WHERE rn = 1;
${upsert('open_units', 'sku STRING, units BIGINT, revenue DOUBLE', 'sku')}INSERT INTO open_units
SELECT sku, SUM(qty) AS units, SUM(qty * price) AS revenue FROM latest CROSS JOIN UNNEST(items) AS i (sku, qty, price) GROUP BY sku;`,
    expected: {
      open_units: () => {
        const latest = new Map<unknown, Row>();
        for (const c of carts) if (!latest.has(c.customer_id) || (latest.get(c.customer_id)!.cart_time as number) < (c.cart_time as number)) latest.set(c.customer_id, c);
        return perSku([...latest.values()]).filter((r) => (r.units as number) > 0);
      },
    },
  },
];
