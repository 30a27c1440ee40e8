// Import time of a 50-statement Flink SQL script (planner + pipeline compile), median of repeated
// runs after a warm-up: in Node (bench/node/sqlImport.ts) and in a Chromium worker of the bench page.
import { planFlinkSql } from '../../src/import/flinkSql/index.ts';
import { CUSTOMERS_DDL, ORDERS_DDL, PAYMENTS_DDL, RATES_DDL, CLICKS_DDL } from '../../src/testing/sql/data.ts';
import { now } from '../lib/stats.ts';

/** 5 tables, 15 sinks, 15 views and 15 INSERTs: filters, aggregates, windows, joins, Top-N. */
export function fiftyStatementScript(): string {
  const parts = [ORDERS_DDL, CUSTOMERS_DDL, PAYMENTS_DDL, RATES_DDL, CLICKS_DDL];
  const queries = [
    (i: number) => `SELECT order_id, amount * ${i} AS v FROM orders WHERE qty > ${i % 5}`,
    (i: number) => `SELECT customer_id, SUM(amount) AS v FROM orders WHERE status <> 'x${i}' GROUP BY customer_id`,
    (i: number) => `SELECT CAST(window_start AS STRING) AS order_id, SUM(amount) AS v FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '${i + 1}' MINUTE)) GROUP BY window_start, window_end`,
    (i: number) => `SELECT o.order_id, p.paid_amount + ${i} AS v FROM orders o JOIN payments p ON o.order_id = p.order_id AND p.pay_time BETWEEN o.order_time AND o.order_time + INTERVAL '${i + 1}' MINUTE`,
    (i: number) => `SELECT order_id, amount AS v FROM (SELECT order_id, currency, amount, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= ${i + 1}`,
  ];
  for (let i = 0; i < 15; i++) {
    parts.push(`CREATE TEMPORARY VIEW v${i} AS ${queries[i % 5](i)};\n`);
    parts.push(`CREATE TABLE s${i} (k STRING, v DOUBLE) WITH ('connector' = 'print');\n`);
    parts.push(`INSERT INTO s${i} SELECT * FROM v${i};\n`);
  }
  return parts.join('\n');
}

/** `<prefix>.fiftyStatementsMs` and `<prefix>.fiftyStatementsP90Ms`. */
export function measureSqlImport(runs = 30, prefix = 'sqlImport'): Record<string, number> {
  const sql = fiftyStatementScript();
  for (let i = 0; i < 5; i++) planFlinkSql(sql);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = now();
    const r = planFlinkSql(sql);
    times.push(now() - t0);
    if (!r.doc) throw new Error(`the bench script does not plan: ${JSON.stringify(r.problems.filter((p) => p.severity === "error").slice(0, 3))}`);
  }
  times.sort((a, b) => a - b);
  return { [`${prefix}.fiftyStatementsMs`]: Math.round(times[Math.floor(times.length / 2)] * 10) / 10, [`${prefix}.fiftyStatementsP90Ms`]: Math.round(times[Math.floor(times.length * 0.9)] * 10) / 10 };
}
