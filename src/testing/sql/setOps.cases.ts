/** Oracle scripts: INTERSECT, EXCEPT and MINUS (distinct rows; NULL equals NULL), their precedence, over updating inputs. */
import { orders, ORDERS_DDL } from './data.ts';
import type { Row } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

/** Bag semantics by counting (SQLite has no INTERSECT ALL / EXCEPT ALL): per distinct row, min(m, n) or max(m - n, 0) copies. */
function bagOp(op: 'intersect' | 'except', cols: string[], left: (r: Row) => boolean, right: (r: Row) => boolean): () => Row[] {
  return () => {
    const count = (keep: (r: Row) => boolean) => {
      const m = new Map<string, { row: Row; n: number }>();
      for (const o of orders.filter(keep)) {
        const row = Object.fromEntries(cols.map((c) => [c, o[c] ?? null]));
        const k = JSON.stringify(row);
        m.set(k, { row, n: (m.get(k)?.n ?? 0) + 1 });
      }
      return m;
    };
    const r = count(right);
    const out: Row[] = [];
    for (const [k, l] of count(left)) {
      const n = r.get(k)?.n ?? 0;
      const copies = op === 'intersect' ? Math.min(l.n, n) : Math.max(l.n - n, 0);
      for (let i = 0; i < copies; i++) out.push(l.row);
    }
    return out;
  };
}

const printSink = (name: string, cols: string) => `CREATE TABLE ${name} (${cols}) WITH ('connector' = 'print');\n`;

export const setOpCases: SqlOracleCase[] = [
  {
    name: 'INTERSECT: distinct rows on both sides, a NULL matching a NULL',
    sql: `${ORDERS_DDL}${printSink('in_both', 'product STRING, currency STRING')}INSERT INTO in_both
SELECT product, currency FROM orders WHERE qty > 2
INTERSECT
SELECT product, currency FROM orders WHERE status = 'paid';`,
    expected: { in_both: "SELECT product, currency FROM orders WHERE qty > 2 INTERSECT SELECT product, currency FROM orders WHERE status = 'paid'" },
  },
  {
    name: 'EXCEPT: distinct left rows no right row equals, a NULL matching a NULL',
    sql: `${ORDERS_DDL}${printSink('only_left', 'product STRING, currency STRING')}INSERT INTO only_left
SELECT product, currency FROM orders WHERE qty > 2
EXCEPT
SELECT product, currency FROM orders WHERE status = 'paid';`,
    expected: { only_left: "SELECT product, currency FROM orders WHERE qty > 2 EXCEPT SELECT product, currency FROM orders WHERE status = 'paid'" },
  },
  {
    name: 'MINUS is EXCEPT',
    sql: `${ORDERS_DDL}${printSink('cheap_only', 'product STRING, currency STRING')}INSERT INTO cheap_only
SELECT product, currency FROM orders WHERE qty < 3 MINUS SELECT product, currency FROM orders WHERE amount > 60;`,
    expected: { cheap_only: 'SELECT product, currency FROM orders WHERE qty < 3 EXCEPT SELECT product, currency FROM orders WHERE amount > 60' },
  },
  {
    name: 'EXCEPT applies left to right; INTERSECT binds tighter than UNION',
    sql: `${ORDERS_DDL}${printSink('chain', 'customer_id STRING, status STRING')}${printSink('mixed', 'customer_id STRING, status STRING')}INSERT INTO chain
SELECT customer_id, status FROM orders WHERE qty > 1
EXCEPT SELECT customer_id, status FROM orders WHERE qty > 3
EXCEPT SELECT customer_id, status FROM orders WHERE amount < 40;
INSERT INTO mixed
SELECT customer_id, status FROM orders WHERE qty = 1
UNION SELECT customer_id, status FROM orders WHERE qty = 2
INTERSECT SELECT customer_id, status FROM orders WHERE amount > 50;`,
    expected: {
      chain: 'SELECT customer_id, status FROM orders WHERE qty > 1 EXCEPT SELECT customer_id, status FROM orders WHERE qty > 3 EXCEPT SELECT customer_id, status FROM orders WHERE amount < 40',
      mixed: 'SELECT customer_id, status FROM orders WHERE qty = 1 UNION SELECT * FROM (SELECT customer_id, status FROM orders WHERE qty = 2 INTERSECT SELECT customer_id, status FROM orders WHERE amount > 50)',
    },
  },
  {
    name: 'UNION ALL and UNION in one chain apply left to right',
    sql: `${ORDERS_DDL}${printSink('all_then_distinct', 'product STRING')}${printSink('distinct_then_all', 'product STRING')}INSERT INTO all_then_distinct
SELECT product FROM orders WHERE qty = 1 UNION ALL SELECT product FROM orders WHERE qty = 2 UNION SELECT product FROM orders WHERE qty = 3;
INSERT INTO distinct_then_all
SELECT product FROM orders WHERE qty = 1 UNION SELECT product FROM orders WHERE qty = 2 UNION ALL SELECT product FROM orders WHERE qty = 3;`,
    expected: {
      all_then_distinct: 'SELECT product FROM orders WHERE qty = 1 UNION ALL SELECT product FROM orders WHERE qty = 2 UNION SELECT product FROM orders WHERE qty = 3',
      distinct_then_all: 'SELECT product FROM orders WHERE qty = 1 UNION SELECT product FROM orders WHERE qty = 2 UNION ALL SELECT product FROM orders WHERE qty = 3',
    },
  },
  {
    name: 'ORDER BY … LIMIT after a chain orders the whole result',
    sql: `${ORDERS_DDL}${printSink('first_ids', 'customer_id STRING')}INSERT INTO first_ids
SELECT customer_id FROM orders WHERE qty = 5 INTERSECT SELECT customer_id FROM orders WHERE status = 'shipped'
UNION SELECT customer_id FROM orders WHERE amount > 100 ORDER BY customer_id DESC LIMIT 3;`,
    expected: { first_ids: "SELECT * FROM (SELECT customer_id FROM orders WHERE qty = 5 INTERSECT SELECT customer_id FROM orders WHERE status = 'shipped') UNION SELECT customer_id FROM orders WHERE amount > 100 ORDER BY customer_id DESC LIMIT 3" },
  },
  {
    name: 'INTERSECT and EXCEPT over updating GROUP BY results',
    sql: `${ORDERS_DDL}${printSink('busy_cancelled', 'customer_id STRING')}${printSink('not_latest', 'product STRING, status STRING')}INSERT INTO busy_cancelled
SELECT customer_id FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) AS t WHERE n > 6
INTERSECT
SELECT customer_id FROM orders WHERE status = 'cancelled';
INSERT INTO not_latest
SELECT product, status FROM orders
EXCEPT
SELECT product, MAX(status) FROM orders GROUP BY product;`,
    expected: {
      busy_cancelled: "SELECT customer_id FROM (SELECT customer_id, COUNT(*) AS n FROM orders GROUP BY customer_id) AS t WHERE n > 6 INTERSECT SELECT customer_id FROM orders WHERE status = 'cancelled'",
      not_latest: 'SELECT product, status FROM orders EXCEPT SELECT product, MAX(status) FROM orders GROUP BY product',
    },
  },
  {
    name: 'INTERSECT ALL and EXCEPT ALL keep duplicates by count, a NULL matching a NULL',
    sql: `${ORDERS_DDL}${printSink('common', 'product STRING, currency STRING')}${printSink('surplus', 'product STRING, currency STRING')}${printSink('surplus_minus', 'product STRING, currency STRING')}INSERT INTO common
SELECT product, currency FROM orders WHERE qty > 2
INTERSECT ALL
SELECT product, currency FROM orders WHERE status = 'paid';
INSERT INTO surplus
SELECT product, currency FROM orders WHERE qty > 2
EXCEPT ALL
SELECT product, currency FROM orders WHERE status = 'paid';
INSERT INTO surplus_minus
SELECT product, currency FROM orders WHERE qty > 2 MINUS ALL SELECT product, currency FROM orders WHERE status = 'paid';`,
    expected: {
      common: bagOp('intersect', ['product', 'currency'], (o) => (o.qty as number) > 2, (o) => o.status === 'paid'),
      surplus: bagOp('except', ['product', 'currency'], (o) => (o.qty as number) > 2, (o) => o.status === 'paid'),
      surplus_minus: bagOp('except', ['product', 'currency'], (o) => (o.qty as number) > 2, (o) => o.status === 'paid'),
    },
  },
  {
    name: 'EXCEPT ALL over an updating input: copies retracted on the right come back on the left',
    sql: `${ORDERS_DDL}${printSink('left_over', 'customer_id STRING')}INSERT INTO left_over
SELECT customer_id FROM orders
EXCEPT ALL
SELECT customer_id FROM (SELECT customer_id, MAX(status) AS s FROM orders GROUP BY customer_id) AS t WHERE s = 'shipped';`,
    expected: {
      // The right side holds each customer whose greatest status is 'shipped' once: one copy of each of those goes.
      left_over: () => {
        const top = new Map<unknown, string>();
        for (const o of orders) if ((top.get(o.customer_id) ?? '') < (o.status as string)) top.set(o.customer_id, o.status as string);
        const taken = new Set<unknown>();
        return orders.filter((o) => top.get(o.customer_id) !== 'shipped' || (taken.has(o.customer_id) ? true : (taken.add(o.customer_id), false))).map((o) => ({ customer_id: o.customer_id }));
      },
    },
  },
];
