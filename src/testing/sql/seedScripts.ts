/**
 * Two blog posts' Flink SQL, as scripts: each table is given a filesystem (source) or print / upsert
 * (sink) connector; the statements are as the posts write them. The gallery shows them as examples.
 */
import { CUSTOMERS_DDL, ORDERS_DDL, PAYMENTS_DDL } from './data.ts';

/** Bronze → silver → gold: a wide table from LEFT JOINs, then windowed, ranked and plain aggregates over it. */
export const MEDALLION_SQL = `-- Bronze: the raw streams, as files.
${ORDERS_DDL}
${CUSTOMERS_DDL}
${PAYMENTS_DDL}
CREATE TABLE deliveries (
  delivery_id STRING,
  order_id STRING,
  courier STRING,
  delivered_at TIMESTAMP(3),
  WATERMARK FOR delivered_at AS delivered_at - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/deliveries.jsonl', 'format' = 'json');

-- Silver: the wide table, one row per order.
CREATE TABLE order_wide_table_silver (
  order_id STRING,
  customer_id STRING,
  customer_city STRING,
  product_id STRING,
  quantity INT,
  unit_price DOUBLE,
  payment_amount DOUBLE,
  payment_method STRING,
  paid_at TIMESTAMP(3),
  courier STRING,
  order_date TIMESTAMP(3),
  PRIMARY KEY (order_id, payment_method, courier) NOT ENFORCED
) WITH ('connector' = 'upsert-kafka', 'topic' = 'order_wide_table_silver', 'key.format' = 'json', 'value.format' = 'json');

INSERT INTO order_wide_table_silver
SELECT o.order_id, o.customer_id, c.city AS customer_city, o.product AS product_id, o.qty AS quantity, o.amount AS unit_price,
  p.paid_amount AS payment_amount, p.pay_method AS payment_method, p.pay_time AS paid_at, d.courier, o.order_time AS order_date
FROM orders o
LEFT JOIN customers c ON o.customer_id = c.customer_id
LEFT JOIN payments p ON o.order_id = p.order_id
LEFT JOIN deliveries d ON o.order_id = d.order_id;

-- Gold 1: the cities ranked by sales, per hour.
CREATE TABLE city_sales_ranking (
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  city STRING,
  total_sales DECIMAL(10, 2),
  ranking BIGINT
) WITH ('connector' = 'print');

INSERT INTO city_sales_ranking
SELECT
    window_start,
    window_end,
    city,
    total_sales,
    ROW_NUMBER() OVER (PARTITION BY window_start ORDER BY total_sales DESC) as ranking
FROM (
    SELECT
        TUMBLE_START(order_date, INTERVAL '1' HOUR) as window_start,
        TUMBLE_END(order_date, INTERVAL '1' HOUR) as window_end,
        customer_city as city,
        SUM(payment_amount) as total_sales
    FROM order_wide_table_silver
    GROUP BY
        TUMBLE(order_date, INTERVAL '1' HOUR),
        customer_city
)
WHERE ranking <= 10;

-- Gold 2: payment methods, every five minutes.
CREATE TABLE payment_method_stats (
  window_start TIMESTAMP(3),
  payment_method STRING,
  success_count BIGINT,
  total_count BIGINT,
  success_rate DECIMAL(5, 2)
) WITH ('connector' = 'print');

INSERT INTO payment_method_stats
SELECT
    TUMBLE_START(paid_at, INTERVAL '5' MINUTE) as window_start,
    payment_method,
    SUM(CASE WHEN courier = 'fast' THEN 1 ELSE 0 END) as success_count,
    COUNT(*) as total_count,
    CAST(SUM(CASE WHEN courier = 'fast' THEN 1 ELSE 0 END) * 100.0 / COUNT(*) AS DECIMAL(5,2)) as success_rate
FROM order_wide_table_silver
WHERE paid_at IS NOT NULL
GROUP BY
    TUMBLE(paid_at, INTERVAL '5' MINUTE),
    payment_method;

-- Gold 3: sales per product, from the same silver table.
CREATE TABLE product_sales_analysis (
  product_id STRING,
  total_sold BIGINT,
  avg_price DOUBLE,
  PRIMARY KEY (product_id) NOT ENFORCED
) WITH ('connector' = 'upsert-kafka', 'topic' = 'product_sales', 'key.format' = 'json', 'value.format' = 'json');

INSERT INTO product_sales_analysis
SELECT
    product_id,
    SUM(quantity) as total_sold,
    AVG(unit_price) as avg_price
FROM order_wide_table_silver
GROUP BY product_id;
`;

/** A materialised table of total sales per store, kept up to date: CREATE TABLE … AS SELECT. */
export const SALES_BY_STORE_SQL = `CREATE TABLE transactions (
  store_id STRING,
  total DOUBLE,
  tx_time TIMESTAMP(3),
  WATERMARK FOR tx_time AS tx_time - INTERVAL '5' SECOND
) WITH ('connector' = 'filesystem', 'path' = 'file:///data/transactions.jsonl', 'format' = 'json');

CREATE TABLE sales_by_store WITH ('connector' = 'upsert-kafka', 'topic' = 'sales_by_store', 'key.format' = 'json', 'value.format' = 'json') AS
SELECT store_id, SUM(total) AS total
FROM transactions
GROUP BY store_id;
`;
