/** Oracle scripts: INTERSECT, EXCEPT and MINUS (distinct rows; NULL equals NULL), their precedence, over updating inputs. */
import { ORDERS_DDL } from './data.ts';
import type { SqlOracleCase } from './oracleCase.ts';

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
];
