import { describe, expect, it } from 'vitest';
import { loadExamples } from '../examples.ts';
import type { PipelineDocument } from '../../pipeline/document.ts';
import { oracleTests } from './oracleKit.ts';
import type { OracleCase } from './oracleKit.ts';
import { seedCases } from '../sql/seeds.cases.ts';

/**
 * The SQL equivalent of every sink of every example in public/examples, over one table per
 * source. Generated sources are tapped, so the tables hold exactly the records the run used.
 */
const EXAMPLE_SQL: Record<string, Record<string, string>> = {
  'coffee-shop.json': {
    big_log: `SELECT * FROM camera WHERE visit_type = 'order' AND amount >= 3.5`,
    visits_view: `SELECT customer_id, name, COUNT(*) AS visits, MAX(ts) AS last_visit FROM camera WHERE visit_type = 'enter' GROUP BY customer_id, name`,
  },
  'sales-by-store.json': {
    sales_by_store: `SELECT store_id, COUNT(*) AS transactions, SUM(amount) AS revenue, AVG(amount) AS avg_ticket, COUNT(DISTINCT product) AS products
      FROM transactions GROUP BY store_id`,
  },
  'orders-payments.json': {
    order_status: `SELECT o.*, p.payment_id, p.order_id AS order_id_right, p.amount AS amount_right, p.method, p.ts AS ts_right
      FROM orders o LEFT JOIN payments p ON o.order_id = p.order_id`,
  },
  'top-cities.json': {
    top_cities: `WITH w AS (SELECT city, ts - ts % 60000 AS window_start, ts - ts % 60000 + 60000 AS window_end, ts - ts % 60000 + 59999 AS window_time,
        SUM(amount) AS revenue, COUNT(*) AS orders FROM orders GROUP BY city, window_start)
      SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY revenue DESC) AS rownum FROM w) WHERE rownum <= 3`,
  },
  'medallion.json': (() => {
    // Inline rows are inserted in document order, so rowid is the arrival order that keep-first uses.
    const silver = `SELECT order_id, city, amount_twd, ts FROM (
        SELECT order_id, UPPER(TRIM(city)) AS city, CASE WHEN currency = 'USD' THEN ROUND(amount * 32, 2) ELSE amount END AS amount_twd, ts,
          ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY rowid) AS rn
        FROM raw_orders WHERE amount > 0 AND city IS NOT NULL) WHERE rn = 1`;
    return {
      bronze: `SELECT * FROM raw_orders`,
      silver,
      gold: `SELECT city, SUM(amount_twd) AS revenue_twd, COUNT(*) AS orders FROM (${silver}) GROUP BY city`,
    };
  })(),
  'deliveries-interval.json': {
    fast: `SELECT o.*, d.delivery_id, d.order_id AS order_id_right, d.courier, d.status AS status_right, d.ts AS ts_right
      FROM orders o JOIN deliveries d ON d.order_id = o.order_id AND d.status = 'DELIVERED' AND d.ts BETWEEN o.ts AND o.ts + 3600000`,
  },
  'coffee-sessions.json': {
    // Touching session windows merge (Flink), so a new session starts only beyond the 10-minute gap.
    session_view: `WITH marked AS (SELECT *, CASE WHEN ts - LAG(ts) OVER (PARTITION BY customer_id ORDER BY ts) <= 600000 THEN 0 ELSE 1 END AS opens FROM camera),
      numbered AS (SELECT *, SUM(opens) OVER (PARTITION BY customer_id ORDER BY ts ROWS UNBOUNDED PRECEDING) AS session FROM marked)
      SELECT customer_id, MIN(ts) AS window_start, MAX(ts) + 600000 AS window_end, MAX(ts) + 599999 AS window_time, COUNT(*) AS events, SUM(amount) AS spent
      FROM numbered GROUP BY customer_id, session`,
  },
  // The gallery's Flink SQL examples: the expectations their scripts are planned against.
  'sql-medallion.json': seedCases[0].expected as Record<string, string>,
  'sql-sales-by-store.json': seedCases[1].expected as Record<string, string>,
};

const examples = loadExamples();

describe('oracle: every example pipeline equals SQL', () => {
  it('has SQL for every sink of every example (a new example needs its oracle)', () => {
    const sinks = (doc: PipelineDocument) => doc.nodes.filter((n) => /Sink$/.test(n.kind) && !isLateOutput(doc, n.id)).map((n) => n.id).sort();
    for (const { entry, doc } of examples) {
      expect(Object.keys(EXAMPLE_SQL[entry.file] ?? {}).sort(), entry.file).toEqual(sinks(doc as unknown as PipelineDocument));
    }
  });

  const cases: OracleCase[] = examples.filter(({ entry }) => EXAMPLE_SQL[entry.file]).map(({ entry, doc }) => ({ name: entry.file, doc: doc as unknown as PipelineDocument, expected: EXAMPLE_SQL[entry.file] }));
  oracleTests(cases, { indexedDb: cases.filter((c) => c.name === 'top-cities.json') });
});

/** A sink on a window's `late` output: checked to be empty by the kit rather than against SQL. */
function isLateOutput(doc: PipelineDocument, sinkId: string): boolean {
  return doc.edges.some((e) => e.to.node === sinkId && e.from.port === 'late');
}
