import { describe, expect, it } from 'vitest';
import { roundHalfAway } from './functions.ts';
import { compileExpr } from './index.ts';

const ev = (src: string, row: Record<string, unknown> = {}) => compileExpr(src).evaluate(row);

const cases: Record<string, [string, unknown][]> = {
  string: [
    ["UPPER('abc')", 'ABC'],
    ["lower('AbC')", 'abc'],
    ['UPPER(1.5)', '1.5'],
    ["TRIM('  a b  ')", 'a b'],
    ["TRIM('\ta ')", '\ta'], // only spaces, as in SQL
    ["CHAR_LENGTH('hello')", 5],
    ["CHAR_LENGTH('')", 0],
    ["CHAR_LENGTH('😀a')", 2], // code points, as Flink counts
    ["SUBSTRING('hello', 2)", 'ello'],
    ["SUBSTRING('hello', 2, 3)", 'ell'],
    ["SUBSTRING('hello', 1, 100)", 'hello'],
    ["SUBSTRING('hello', 0, 2)", 'he'],
    ["SUBSTRING('hello', -3)", 'llo'],
    ["SUBSTRING('hello', -3, 2)", 'll'],
    ["SUBSTRING('hello', 9)", ''],
    ["SUBSTRING('hello', 2, 0)", ''],
    ["SUBSTRING('hello', 2, -1)", null],
    ["SUBSTRING('a😀b', 2, 1)", '😀'],
    ["SUBSTRING('hello', 2.9, 2)", 'el'],
    ["CONCAT('a', 'b', 'c')", 'abc'],
    ["CONCAT('n=', 1, ' ', TRUE)", 'n=1 TRUE'],
    ["CONCAT('a')", 'a'],
  ],
  numeric: [
    ['ABS(-3)', 3],
    ['ABS(2.5)', 2.5],
    ['ROUND(2.5)', 3],
    ['ROUND(-2.5)', -3], // half away from zero, unlike Math.round
    ['ROUND(2.4)', 2],
    ['ROUND(-0.4)', 0],
    ['ROUND(1.005, 2)', 1.01],
    ['ROUND(3.14159, 3)', 3.142],
    ['ROUND(1234.5, -2)', 1200],
    ['ROUND(7, 1)', 7],
    ['FLOOR(2.7)', 2],
    ['FLOOR(-2.1)', -3],
    ['CEIL(2.1)', 3],
    ['CEIL(-2.7)', -2],
    ['MOD(7, 3)', 1],
    ['MOD(-7, 3)', -1],
    ['MOD(7, 0)', null],
    ['MOD(5.5, 2)', 1.5],
    ['POWER(2, 10)', 1024],
    ['POWER(4, 0.5)', 2],
    ['SQRT(16)', 4],
    ['SQRT(-1)', null],
    ["ABS('-4')", 4],
  ],
  conditional: [
    ['COALESCE(NULL, missing, 3, 4)', 3],
    ['COALESCE(NULL)', null],
    ["COALESCE(missing, 'x')", 'x'],
    ['NULLIF(1, 1)', null],
    ['NULLIF(1, 2)', 1],
    ['NULLIF(1, NULL)', 1],
    ['NULLIF(NULL, 1)', null],
    ["IF(1 < 2, 'yes', 'no')", 'yes'],
    ["IF(1 > 2, 'yes', 'no')", 'no'],
    ["IF(NULL, 'yes', 'no')", 'no'],
    ['GREATEST(1, 5, 3)', 5],
    ['LEAST(4, 2, 8)', 2],
    ["GREATEST('apple', 'pear')", 'pear'],
    ['GREATEST(1, NULL, 3)', null],
    ['LEAST(2)', 2],
  ],
  epoch: [
    ['TO_TIMESTAMP_LTZ(1586937900000)', 1586937900000],
    ['TO_TIMESTAMP_LTZ(1586937900000, 3)', 1586937900000],
    ['TO_TIMESTAMP_LTZ(1586937900, 0)', 1586937900000],
    ['TO_TIMESTAMP_LTZ(1586937900, 6)', null],
    ['TO_TIMESTAMP_LTZ(NULL, 3)', null],
  ],
  cast: [
    ['CAST(12 AS STRING)', '12'],
    ['CAST(TRUE AS STRING)', 'TRUE'],
    ['CAST(NULL AS STRING)', null],
    ["CAST('3.5' AS DOUBLE)", 3.5],
    ["CAST('x' AS DOUBLE)", null],
    ['CAST(TRUE AS DOUBLE)', 1],
    ['CAST(3.9 AS BIGINT)', 3],
    ['CAST(-3.9 AS BIGINT)', -3],
    ["CAST('42' AS BIGINT)", 42],
    ["CAST('true' AS BOOLEAN)", true],
    ["CAST('F' AS BOOLEAN)", false],
    ['CAST(0 AS BOOLEAN)', false],
    ["CAST('perhaps' AS BOOLEAN)", null],
  ],
};

describe.each(Object.keys(cases))('%s functions', (group) => {
  it.each(cases[group])('%s = %j', (src, expected) => {
    expect(ev(src)).toEqual(expected);
  });
});

describe('function NULL handling', () => {
  it.each([
    'UPPER(NULL)', 'LOWER(x)', 'TRIM(x)', 'CHAR_LENGTH(x)', "SUBSTRING(x, 1)", "SUBSTRING('a', x)", "SUBSTRING('a', 1, x)",
    "CONCAT('a', x)", 'ABS(x)', 'ROUND(x)', 'ROUND(1.5, x)', 'FLOOR(x)', 'CEIL(x)', 'MOD(x, 2)', 'MOD(2, x)',
    'POWER(x, 2)', 'SQRT(x)', 'LEAST(1, x)', 'CAST(x AS BIGINT)', 'CAST(x AS BOOLEAN)',
  ])('%s is NULL for a NULL argument', (src) => {
    expect(ev(src, { x: null })).toBeNull();
  });

  it('does not evaluate the branch IF does not take', () => {
    expect(ev('IF(b = 0, 0, a / b)', { a: 1, b: 0 })).toBe(0);
  });
});

describe('roundHalfAway', () => {
  it('handles magnitudes where the decimal shift trick cannot be used', () => {
    expect(roundHalfAway(1e21, 0)).toBe(1e21);
    expect(roundHalfAway(1.5e-7, 7)).toBe(2e-7);
    expect(roundHalfAway(123.456, 400)).toBe(123.456);
  });
});

describe('CURRENT_WATERMARK', () => {
  it("reads the evaluating operator's watermark, NULL before the first one and outside an operator", () => {
    let wm = -Infinity;
    const e = compileExpr('CURRENT_WATERMARK(ts)', { currentWatermark: () => wm });
    expect(e.evaluate({ ts: 5 })).toBeNull();
    wm = 4_000;
    expect(e.evaluate({ ts: 5 })).toBe(4_000);
    expect(e.typeOf({ ts: 'timestamp' })).toBe('timestamp');
    expect(compileExpr('CURRENT_WATERMARK(ts)').evaluate({ ts: 5 })).toBeNull();
    expect(compileExpr('CURRENT_WATERMARK(ts)').toSql()).toBe('CURRENT_WATERMARK(`ts`)');
  });
});

describe('CAST(double AS STRING)', () => {
  it('writes a DOUBLE input as Java does, and leaves integers and untyped values alone', () => {
    const services = { currentWatermark: () => -Infinity, inputTypes: { d: 'number', i: 'integer' } as const };
    const text = (src: string, row: Record<string, unknown>) => compileExpr(src, services).evaluate(row);
    expect([2, 0.5, 0.001, 1e7, 12345678.9, 1.5e-4, -0, 0].map((d) => text('CAST(d AS STRING)', { d }))).toEqual(['2.0', '0.5', '0.001', '1.0E7', '1.23456789E7', '1.5E-4', '-0.0', '0.0']);
    expect(text('CAST(i AS STRING)', { i: 2 })).toBe('2');
    expect(text('CAST(d * i AS STRING)', { d: 2, i: 3 })).toBe('6.0');
    expect(text('CAST(d AS STRING)', { d: null })).toBeNull();
    // Without declared types a whole number reads as an integer.
    expect(compileExpr('CAST(d AS STRING)').evaluate({ d: 2 })).toBe('2');
  });
});

describe('DATE ± INTERVAL', () => {
  it("shifts a DATE by days and keeps it a DATE, as Flink's CAST(ts AS DATE) + INTERVAL '1' DAY", () => {
    const ev = (src: string, row: Record<string, unknown> = {}) => compileExpr(src).evaluate(row);
    expect(ev("CAST(ts AS DATE) + INTERVAL '1' DAY", { ts: Date.UTC(2023, 11, 31, 22) })).toBe('2024-01-01');
    expect(ev("d - INTERVAL '2' DAY", { d: '2024-03-01' })).toBe('2024-02-28');
    expect(ev("INTERVAL '1' DAY + d", { d: '2024-02-28' })).toBe('2024-02-29');
    expect(ev("d + INTERVAL '1' DAY", { d: null })).toBeNull();
    // A timestamp keeps plain arithmetic on epoch milliseconds.
    expect(ev("ts + INTERVAL '1' HOUR", { ts: 0 })).toBe(3_600_000);
    expect(compileExpr("d + INTERVAL '1' DAY").typeOf({ d: 'string' })).toBe('string');
    expect(compileExpr("ts + INTERVAL '1' DAY").typeOf({ ts: 'timestamp' })).toBe('timestamp');
  });
});

describe('a timestamp against date or timestamp text', () => {
  it('compares as the text cast to TIMESTAMP, as Flink does; other text stays unknown', () => {
    const ev = (src: string) => compileExpr(src).evaluate({ ts: Date.UTC(2023, 10, 15, 0, 10) });
    expect([ev("ts >= '2023-11-15'"), ev("ts < '2023-11-15 00:30:00'"), ev("'2023-11-15 00:10:00' = ts"), ev("ts IN ('2023-11-15 00:10:00')")]).toEqual([true, true, true, true]);
    expect(ev("ts BETWEEN '2023-11-14' AND '2023-11-15'")).toBe(false);
    expect(ev("ts > 'soon'")).toBeNull();
  });
});
