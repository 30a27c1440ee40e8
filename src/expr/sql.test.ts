import { describe, expect, it } from 'vitest';
import { compileExpr } from './index.ts';

const sql = (src: string) => compileExpr(src).toSql();

describe('toSql', () => {
  it.each([
    ['amount', '`amount`'],
    ['`order id`', '`order id`'],
    ['`a``b`', '`a``b`'],
    ['payload.user.id', '`payload`.`user`.`id`'],
    ["'it''s'", "'it''s'"],
    ['true or null', 'TRUE OR NULL'],
    ['1.50 + 007', '1.50 + 007'],
    ['a != b', '`a` <> `b`'],
    ['a+b*c', '`a` + `b` * `c`'],
    ['(a+b)*c', '(`a` + `b`) * `c`'],
    ['a - (b - c)', '`a` - (`b` - `c`)'],
    ['(a - b) - c', '`a` - `b` - `c`'],
    ['- -a', '-(-`a`)'],
    ['-(a + b)', '-(`a` + `b`)'],
    ['NOT (a OR b)', 'NOT (`a` OR `b`)'],
    ['(a OR b) AND c', '(`a` OR `b`) AND `c`'],
    ['a OR (b AND c)', '`a` OR `b` AND `c`'],
    ['(NOT a) = b', '(NOT `a`) = `b`'],
    ['(a = b) = c', '(`a` = `b`) = `c`'],
    ['a IS NULL = TRUE', '(`a` IS NULL) = TRUE'],
    ["a || (b + 1)", '`a` || (`b` + 1)'],
    ["a || b || c", '`a` || `b` || `c`'],
    ["(a || b) + 1", '(`a` || `b`) + 1'],
    ['x not between 1 and 2', '`x` NOT BETWEEN 1 AND 2'],
    ['x between (a and b) and c', '`x` BETWEEN (`a` AND `b`) AND `c`'],
    ['x in (1, a or b)', '`x` IN (1, `a` OR `b`)'],
    ["x not like 'a%'", "`x` NOT LIKE 'a%'"],
    ["interval '5' second", "INTERVAL '5' SECOND"],
    ['if(a, 1, 2)', 'CASE WHEN `a` THEN 1 ELSE 2 END'],
    ['case x when 1 then 2 end', 'CASE `x` WHEN 1 THEN 2 END'],
    ['cast(a as double)', 'CAST(`a` AS DOUBLE)'],
    ['coalesce(a,b)', 'COALESCE(`a`, `b`)'],
    ['(a)', '`a`'],
  ])('%s -> %s', (src, expected) => {
    expect(sql(src)).toBe(expected);
  });
});

/** ~40 expressions covering every construct; each must print stably and keep its meaning. */
const ROUND_TRIP = [
  'a + b * c - d / e',
  '(a + b) * (c - d)',
  'a % 3 = 1',
  '-a - -b',
  '- (a * b)',
  "s || '-' || t",
  "(s || 'x') || t",
  "s || (a + 1)",
  'a = b OR c <> d AND NOT e',
  '(a = b OR c <> d) AND NOT e',
  'NOT NOT e',
  'a < b AND b <= c AND c > d AND d >= a',
  'a != b',
  'n IS NULL OR a IS NOT NULL',
  '(a > b) = (c > d)',
  'a BETWEEN 1 AND c',
  'a NOT BETWEEN b - 1 AND b + 1',
  'a IN (1, 2, b)',
  "s NOT IN ('x', 'y', NULL)",
  "s LIKE 'h%' OR s NOT LIKE '_x%'",
  "s LIKE t || '%'",
  "CASE WHEN a > 5 THEN 'big' WHEN a > 2 THEN 'mid' ELSE 'small' END",
  "CASE a WHEN 1 THEN 'one' WHEN 7 THEN 'seven' END",
  "CASE WHEN e THEN a ELSE b END + 1",
  "UPPER(s) || LOWER(t) || TRIM('  x ')",
  'CHAR_LENGTH(s) + 1',
  'SUBSTRING(s, 2, 3)',
  'SUBSTRING(s, b)',
  "CONCAT(s, '-', a, '-', e)",
  'ABS(b - a) + ROUND(c / 3, 2) + FLOOR(c / 2) + CEIL(c / 2)',
  'MOD(a, 3) * POWER(b, 2) + SQRT(c)',
  'COALESCE(n, a, b)',
  'NULLIF(a, 7)',
  "IF(a > b, 'a', 'b')",
  "IF(e AND a > 1, a, -a) * 2",
  'GREATEST(a, b, c) - LEAST(a, b, c)',
  "CAST(a AS STRING) || CAST('1' AS BIGINT) || CAST('2.5' AS DOUBLE) || CAST('y' AS BOOLEAN)",
  "ts + INTERVAL '5' SECOND - INTERVAL '1' MINUTE",
  "obj.x.y * 2 + `odd name`",
  "'it''s' = s OR TRUE AND NULL",
  'a / 0 IS NULL',
  "(a + b) BETWEEN (c - 1) AND (c + 1) = TRUE",
];

const ROWS: Record<string, unknown>[] = [
  { a: 7, b: 2, c: 9, d: 1, e: true, s: 'hello', t: 'x', n: null, ts: 1000, obj: { x: { y: 3 } }, 'odd name': 4 },
  { a: 1, b: 8, c: -4, d: 5, e: false, s: "it's", t: '%', n: 1, ts: 0, obj: {}, 'odd name': null },
  {},
];

describe('toSql round trip', () => {
  it('covers a list of 40 expressions', () => {
    expect(ROUND_TRIP.length).toBeGreaterThanOrEqual(40);
  });

  it.each(ROUND_TRIP)('%s', (src) => {
    const original = compileExpr(src);
    const printed = original.toSql();
    const reparsed = compileExpr(printed);
    expect(reparsed.toSql()).toBe(printed);
    expect(reparsed.fields).toEqual(original.fields);
    for (const row of ROWS) expect(reparsed.evaluate(row)).toEqual(original.evaluate(row));
  });

  it('is cached and stable across calls', () => {
    const e = compileExpr('a+1');
    expect(e.toSql()).toBe(e.toSql());
  });
});
