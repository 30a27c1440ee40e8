/**
 * The gallery's SQL examples: the statements of two blog posts about layered streaming pipelines
 * (a medallion silver/gold pipeline, and a materialised sales-by-store table written as CREATE TABLE
 * … AS SELECT), adapted only by giving their tables filesystem connectors. Shared with the gallery.
 */
import type { SqlOracleCase } from './oracleCase.ts';
import { MEDALLION_SQL, SALES_BY_STORE_SQL } from './seedScripts.ts';

const WIDE = `SELECT o.order_id, o.customer_id, c.city AS customer_city, o.product AS product_id, o.qty AS quantity, o.amount AS unit_price,
  p.paid_amount AS payment_amount, p.pay_method AS payment_method, p.pay_time AS paid_at, d.courier AS courier, o.order_time AS order_date
  FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id LEFT JOIN payments p ON o.order_id = p.order_id LEFT JOIN deliveries d ON o.order_id = d.order_id`;

export const seedCases: SqlOracleCase[] = [
  {
    name: 'medallion silver and gold (seed 004)',
    sql: MEDALLION_SQL,
    expected: {
      order_wide_table_silver: WIDE,
      city_sales_ranking: `SELECT window_start, window_end, city, total_sales, ranking FROM (
          SELECT window_start, window_end, city, total_sales, ROW_NUMBER() OVER (PARTITION BY window_start ORDER BY total_sales DESC) AS ranking FROM (
            SELECT (order_date / 3600000) * 3600000 AS window_start, (order_date / 3600000) * 3600000 + 3600000 AS window_end, customer_city AS city, SUM(payment_amount) AS total_sales
            FROM (${WIDE}) GROUP BY 1, 2, customer_city))
        WHERE ranking <= 10`,
      payment_method_stats: `SELECT (paid_at / 300000) * 300000 AS window_start, payment_method, SUM(CASE WHEN courier = 'fast' THEN 1 ELSE 0 END) AS success_count, COUNT(*) AS total_count,
          ROUND(SUM(CASE WHEN courier = 'fast' THEN 1 ELSE 0 END) * 100.0 / COUNT(*), 2) AS success_rate FROM (${WIDE}) WHERE paid_at IS NOT NULL GROUP BY 1, payment_method`,
      product_sales_analysis: `SELECT product_id, SUM(quantity) AS total_sold, AVG(unit_price) AS avg_price FROM (${WIDE}) GROUP BY product_id`,
    },
  },
  {
    name: 'sales by store as CREATE TABLE … AS SELECT (seed 001)',
    sql: SALES_BY_STORE_SQL,
    expected: { sales_by_store: 'SELECT store_id, SUM(total) AS total FROM transactions GROUP BY store_id' },
  },
];
