import { describe, expect, it } from 'vitest';
import { compileExpr } from './index.ts';

const ev = (src: string, row: Record<string, unknown> = {}) => compileExpr(src).evaluate(row);
const row = { a: 7, b: 2, s: 'hello', t: true, f: false, n: null, num: '12', obj: { x: { y: 5 }, list: [1, 2] } };

describe('arithmetic', () => {
  it.each([
    ['a + b', 9],
    ['a - b', 5],
    ['a * b', 14],
    ['a / b', 3.5], // JS division; Flink would give 3 for two BIGINTs
    ['a % b', 1],
    ['-a % b', -1],
    ['-a', -7],
    ['- -a', 7],
    ['1.5 * 2', 3],
    ['2 + 3 * 4 - 10 / 5', 12],
    ['(2 + 3) * 4', 20],
    ['num + 1', 13], // numeric text is read as a number
    ['s + 1', null], // non-numeric text is NULL, not NaN
    ['t + 1', null],
    ['a / 0', null],
    ['a % 0', null],
    ['0 * -1', 0],
  ])('%s = %j', (src, expected) => {
    expect(ev(src, row)).toBe(expected);
  });

  it('propagates NULL and missing fields', () => {
    for (const src of ['n + 1', '1 - missing', 'n * 2', '2 / n', 'n % 2', '-n']) expect(ev(src, row)).toBeNull();
  });

  it('turns overflow into NULL rather than Infinity', () => {
    expect(ev('1' + '0'.repeat(300) + ' * 1' + '0'.repeat(300))).toBeNull();
  });
});

describe('string concatenation', () => {
  it('joins text and stringifies other values as Flink would', () => {
    expect(ev("s || ' ' || 'world'", row)).toBe('hello world');
    expect(ev("a || '/' || t || '/' || 1.5", row)).toBe('7/TRUE/1.5');
    expect(ev('obj.x || 1', row)).toBe('{"y":5}1');
  });

  it('is NULL when either side is NULL', () => {
    expect(ev("s || n", row)).toBeNull();
    expect(ev("missing || 'x'", row)).toBeNull();
  });
});

describe('comparison', () => {
  it.each([
    ['a = 7', true],
    ['a = b', false],
    ['a <> b', true],
    ['a != 7', false],
    ['a < b', false],
    ['a <= 7', true],
    ['a > b', true],
    ['a >= 8', false],
    ["s = 'hello'", true],
    ["s < 'help'", true],
    ["'B' < 'a'", true], // code-unit order, like Java
    ['num = 12', true], // numeric text against a number compares numerically
    ["num < '9'", true], // two strings compare as text
    ['t = TRUE', true],
    ['f < t', true],
    ["s = 5", false],
    ["s < 5", null],
    ['obj.x = obj.x', true],
  ])('%s is %j', (src, expected) => {
    expect(ev(src, row)).toBe(expected);
  });

  it('gives NULL when either side is NULL', () => {
    for (const op of ['=', '<>', '<', '<=', '>', '>=']) {
      expect(ev(`n ${op} 1`, row)).toBeNull();
      expect(ev(`1 ${op} missing`, row)).toBeNull();
    }
    expect(ev('NULL = NULL')).toBeNull();
  });
});

describe('three-valued logic', () => {
  const truth: [string, boolean | null][] = [
    ['TRUE AND TRUE', true],
    ['TRUE AND FALSE', false],
    ['FALSE AND NULL', false],
    ['NULL AND FALSE', false],
    ['TRUE AND NULL', null],
    ['NULL AND NULL', null],
    ['FALSE OR FALSE', false],
    ['TRUE OR NULL', true],
    ['NULL OR TRUE', true],
    ['FALSE OR NULL', null],
    ['NOT TRUE', false],
    ['NOT FALSE', true],
    ['NOT NULL', null],
    ['NOT (NULL AND FALSE)', true],
  ];
  it.each(truth)('%s is %j', (src, expected) => {
    expect(ev(src)).toBe(expected);
  });

  it('reads non-boolean operands with Flink boolean spellings', () => {
    expect(ev("'yes' AND 1")).toBe(true);
    expect(ev("'false' OR 0")).toBe(false);
    expect(ev("'maybe' AND TRUE")).toBeNull();
  });
});

describe('IS NULL', () => {
  it('treats null and missing fields alike', () => {
    expect(ev('n IS NULL', row)).toBe(true);
    expect(ev('missing IS NULL', row)).toBe(true);
    expect(ev('a IS NULL', row)).toBe(false);
    expect(ev('n IS NOT NULL', row)).toBe(false);
    expect(ev('f IS NOT NULL', row)).toBe(true);
    expect(ev('(a + n) IS NULL', row)).toBe(true);
  });
});

describe('BETWEEN', () => {
  it.each([
    ['a BETWEEN 1 AND 10', true],
    ['a BETWEEN 7 AND 7', true],
    ['a BETWEEN 8 AND 10', false],
    ['a NOT BETWEEN 8 AND 10', true],
    ['a NOT BETWEEN 1 AND 10', false],
    ["s BETWEEN 'a' AND 'i'", true],
    ['n BETWEEN 1 AND 10', null],
    ['a BETWEEN NULL AND 10', null],
    ['a BETWEEN NULL AND 5', false], // the upper bound already fails
    ['a NOT BETWEEN NULL AND 5', true],
    ['a BETWEEN b + 1 AND b * 4', true],
  ])('%s is %j', (src, expected) => {
    expect(ev(src, row)).toBe(expected);
  });
});

describe('IN', () => {
  it.each([
    ['a IN (1, 7, 9)', true],
    ['a IN (1, 2)', false],
    ['a NOT IN (1, 2)', true],
    ['a NOT IN (7)', false],
    ["s IN ('x', 'hello')", true],
    ["s IN (1, 'x')", false],
    ['a IN (1, NULL)', null],
    ['a IN (7, NULL)', true],
    ['a NOT IN (1, NULL)', null],
    ['n IN (1, 2)', null],
    ['a IN (b + 5)', true],
    ['num IN (12, 13)', true], // numeric text still matches numbers off the fast path
    ["a IN ('7')", true],
  ])('%s is %j', (src, expected) => {
    expect(ev(src, row)).toBe(expected);
  });
});

describe('LIKE', () => {
  it.each([
    ["s LIKE 'hello'", true],
    ["s LIKE 'h%'", true],
    ["s LIKE '%llo'", true],
    ["s LIKE '%ell%'", true],
    ["s LIKE 'h_llo'", true],
    ["s LIKE 'h_lo'", false],
    ["s LIKE 'H%'", false], // case-sensitive
    ["s LIKE '%'", true],
    ["s NOT LIKE 'x%'", true],
    ["s NOT LIKE '%o'", false],
    ["n LIKE '%'", null],
    ["s LIKE n", null],
    ["'a.b' LIKE 'a.b'", true],
    ["'axb' LIKE 'a.b'", false], // regex characters are literal
    ["'(x)*' LIKE '(_)*'", true],
    ["'line1\nline2' LIKE 'line1%2'", true],
    ["'😀!' LIKE '_!'", true], // one character, even outside the BMP
    ['a LIKE 7', true],
    ["s LIKE '%%'", true],
    ["'' LIKE ''", true],
    ["s LIKE ''", false],
    ["s LIKE 'he%%o'", true],
    ["s LIKE '%l_o'", true],
  ])('%s is %j', (src, expected) => {
    expect(ev(src, row)).toBe(expected);
  });

  it('supports a computed pattern that changes between rows', () => {
    const e = compileExpr("s LIKE p || '%'");
    expect(e.evaluate({ s: 'hello', p: 'he' })).toBe(true);
    expect(e.evaluate({ s: 'hello', p: 'x' })).toBe(false);
    expect(e.evaluate({ s: 'hello', p: 'h_l' })).toBe(true);
  });
});

describe('CASE', () => {
  it('picks the first true WHEN of the searched form', () => {
    const e = compileExpr("CASE WHEN a > 10 THEN 'big' WHEN a > 5 THEN 'mid' ELSE 'small' END");
    expect([1, 7, 11].map((a) => e.evaluate({ a }))).toEqual(['small', 'mid', 'big']);
    expect(e.evaluate({})).toBe('small'); // NULL conditions are not true
  });

  it('compares the subject of the simple form with each WHEN', () => {
    const e = compileExpr("CASE code WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END");
    expect([1, 2, 3].map((code) => e.evaluate({ code }))).toEqual(['one', 'two', 'many']);
    expect(e.evaluate({ code: null })).toBe('many');
  });

  it('is NULL without a matching branch or ELSE, and never matches WHEN NULL', () => {
    expect(ev("CASE WHEN FALSE THEN 1 END")).toBeNull();
    expect(ev("CASE n WHEN NULL THEN 'null' ELSE 'other' END", row)).toBe('other');
  });

  it('only evaluates the chosen branch', () => {
    expect(ev('CASE WHEN b = 0 THEN 0 ELSE a / b END', { a: 1, b: 0 })).toBe(0);
  });
});

describe('literals and fields', () => {
  it('evaluates literals', () => {
    expect(ev("'it''s'")).toBe("it's");
    expect(ev('TRUE')).toBe(true);
    expect(ev('null')).toBeNull();
    expect(ev('0.25')).toBe(0.25);
  });

  it('turns intervals into milliseconds', () => {
    expect(ev("INTERVAL '5' SECOND")).toBe(5_000);
    expect(ev("INTERVAL '2' MINUTE")).toBe(120_000);
    expect(ev("INTERVAL '1' HOUR")).toBe(3_600_000);
    expect(ev("INTERVAL '1' DAY")).toBe(86_400_000);
    expect(ev("INTERVAL '1.5' SECOND")).toBe(1_500);
    expect(ev("ts + INTERVAL '5' SECOND", { ts: 1_000 })).toBe(6_000);
  });

  it('reads nested JSON fields and yields NULL along missing paths', () => {
    expect(ev('obj.x.y', row)).toBe(5);
    expect(ev('obj.list', row)).toEqual([1, 2]);
    expect(ev('obj.nope.y', row)).toBeNull();
    expect(ev('s.length', row)).toBeNull(); // strings are not objects
    expect(ev('n.x', row)).toBeNull();
    expect(ev('a.b.c.d', { a: { b: { c: { d: 4 } } } })).toBe(4);
    expect(ev('a.b.c.d', { a: { b: 'x' } })).toBeNull();
    expect(ev('`weird name`.`a b`', { 'weird name': { 'a b': 1 } })).toBe(1);
  });

  it('does not see inherited properties as fields', () => {
    expect(ev('constructor', {})).toBeNull();
    expect(ev('obj.toString', row)).toBeNull();
    expect(ev('constructor', { constructor: 3 })).toBe(3);
  });

  it('never returns undefined', () => {
    expect(ev('missing', {})).toBeNull();
    expect(ev('COALESCE(missing)', {})).toBeNull();
    expect(ev('IF(TRUE, missing, 1)', {})).toBeNull();
  });

  it('can be reused across many rows', () => {
    const e = compileExpr('a * 2 + 1');
    let sum = 0;
    for (let i = 0; i < 1000; i++) sum += e.evaluate({ a: i }) as number;
    expect(sum).toBe(1000 * 999 + 1000);
  });
});
