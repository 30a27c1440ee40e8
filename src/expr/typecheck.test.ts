import { describe, expect, it } from 'vitest';
import { type FieldType, compileExpr } from './index.ts';

const FIELDS: Record<string, FieldType> = {
  i: 'integer',
  j: 'integer',
  x: 'number',
  s: 'string',
  b: 'boolean',
  ts: 'timestamp',
  doc: 'json',
  'doc.id': 'string',
};
const typeOf = (src: string, fields: Record<string, FieldType> | null = FIELDS) => compileExpr(src).typeOf(fields);

describe('typeOf', () => {
  it.each([
    // fields
    ['i', 'integer'],
    ['s', 'string'],
    ['ts', 'timestamp'],
    ['doc', 'json'],
    ['doc.id', 'string'],
    ['doc.other', null],
    ['unknown', null],
    ['constructor', null],
    // literals
    ['1', 'integer'],
    ['1.5', 'number'],
    ["'a'", 'string'],
    ['TRUE', 'boolean'],
    ['NULL', null],
    ["INTERVAL '5' SECOND", 'integer'],
    // arithmetic
    ['i + j', 'integer'],
    ['i - 1', 'integer'],
    ['i * j', 'integer'],
    ['i % j', 'integer'],
    ['i / j', 'number'],
    ['i + x', 'number'],
    ['unknown + 1', 'number'],
    ['-i', 'integer'],
    ['-x', 'number'],
    ["ts + INTERVAL '1' MINUTE", 'timestamp'],
    ['ts - 1000', 'timestamp'],
    ['ts - ts', 'integer'],
    // logic and comparison
    ['i = j', 'boolean'],
    ['i < x AND b', 'boolean'],
    ['NOT b OR b', 'boolean'],
    ['s IS NULL', 'boolean'],
    ['i BETWEEN 1 AND 2', 'boolean'],
    ['i IN (1, 2)', 'boolean'],
    ["s LIKE 'a%'", 'boolean'],
    // strings
    ["s || i", 'string'],
    ['UPPER(i)', 'string'],
    ['LOWER(s)', 'string'],
    ['TRIM(s)', 'string'],
    ['SUBSTRING(s, 1)', 'string'],
    ['CONCAT(s, i)', 'string'],
    ['CHAR_LENGTH(s)', 'integer'],
    // numeric functions
    ['ABS(i)', 'integer'],
    ['ABS(x)', 'number'],
    ['ROUND(x, 2)', 'number'],
    ['ROUND(i)', 'integer'],
    ['FLOOR(x)', 'number'],
    ['CEIL(i)', 'integer'],
    ['MOD(i, j)', 'integer'],
    ['MOD(x, j)', 'number'],
    ['POWER(i, j)', 'number'],
    ['SQRT(i)', 'number'],
    ['GREATEST(i, j)', 'integer'],
    ['LEAST(i, x)', 'number'],
    ["GREATEST(s, 'z')", 'string'],
    // conditionals: first non-null branch
    ['COALESCE(NULL, unknown, s, i)', 'string'],
    ['NULLIF(i, 0)', 'integer'],
    ["IF(b, NULL, 'x')", 'string'],
    ["CASE WHEN b THEN NULL WHEN i > 1 THEN x ELSE s END", 'number'],
    ['CASE i WHEN 1 THEN NULL END', null],
    // casts
    ['CAST(i AS STRING)', 'string'],
    ['CAST(s AS DOUBLE)', 'number'],
    ['CAST(s AS BIGINT)', 'integer'],
    ['CAST(s AS BOOLEAN)', 'boolean'],
  ])('%s is %j', (src, expected) => {
    expect(typeOf(src)).toBe(expected);
  });

  it('knows no field types when the map is null, but still types the rest', () => {
    expect(typeOf('i', null)).toBeNull();
    expect(typeOf('i + 1', null)).toBe('number');
    expect(typeOf('i > 1', null)).toBe('boolean');
    expect(typeOf("UPPER(i)", null)).toBe('string');
  });
});
