// Array and map access as Flink writes it, over json values and JSON text: a[i] counts from 1,
// m['k'] reads a key, CARDINALITY counts; anything missing or of another shape is NULL.
import { describe, expect, it } from 'vitest';
import { compileExpr } from './index.ts';

const row = {
  tags: ['red', 'blue', null],
  m: { a: 1, 'b c': { d: [10, 20] } },
  text: '["x","y"]',
  items: [{ sku: 's1', qty: 2 }],
  n: 2,
  none: null,
  s: 'plain',
};
const ev = (src: string) => compileExpr(src).evaluate(row);

describe('ARRAY[…] and MAP[…] constructors', () => {
  it.each([
    ["ARRAY['a', s][2]", 'plain'],
    ['CARDINALITY(ARRAY[1, n, none])', 3],
    ['ARRAY[n, none]', [2, null]],
    ["MAP['k', s, 'n', n]['n']", 2],
    ["MAP['k', 1, 'k', 2]['k']", 2], // a later key wins
    ['MAP[n, s][2]', 'plain'], // keys by their text
    ["ARRAY_CONTAINS(ARRAY['red', 'x'], tags[1])", true],
  ])('%s is %j', (src, expected) => expect(ev(src)).toEqual(expected));

  it('prints back as written and refuses an empty or unpaired one at its place', async () => {
    const { parseExpr } = await import('./parser.ts');
    const { printSql } = await import('./sql.ts');
    expect(printSql(parseExpr("ARRAY['a',MAP[1,2][1]][1]"))).toBe("ARRAY['a', MAP[1, 2][1]][1]");
    expect(() => compileExpr('ARRAY[]')).toThrow(/at least one value in the ARRAY\[…\]/);
    expect(() => compileExpr("MAP['a']")).toThrow(/in pairs in MAP\[k1, v1, …\], found 1 value \(line 1, column 1\)/);
    expect(() => compileExpr('ARRAY[1, 2')).toThrow(/Expected ',' or '\]' to close 'ARRAY\['/);
  });
});

describe('a[i], m[k] and CARDINALITY', () => {
  it.each([
    ['tags[1]', 'red'],
    ['tags[n]', 'blue'],
    ['tags[3]', null], // a NULL element
    ['tags[4]', null], // past the end
    ['tags[0]', null], // arrays count from 1
    ['tags[1.5]', null],
    ["m['a']", 1],
    ["m['b c']['d'][2]", 20],
    ["m['zz']", null],
    ["m['toString']", null], // no inherited names
    ['text[2]', 'y'], // JSON text reads as its value
    ['items[1].sku', 's1'], // a ROW element's field
    ['items[1].qty * 2', 4],
    ['items[2].sku', null],
    ['none[1]', null],
    ['s[1]', null],
    ['tags[none]', null],
    ['CARDINALITY(tags)', 3],
    ['CARDINALITY(m)', 2],
    ['CARDINALITY(text)', 2],
    ['CARDINALITY(none)', null],
    ['CARDINALITY(s)', null],
    ["UPPER(tags[1]) || '!'", 'RED!'],
    ['-m[\'a\'] * 2', -2],
  ])('%s is %s', (src, expected) => {
    expect(ev(src as string)).toEqual(expected);
  });

  it.each([
    ["ARRAY_CONTAINS(tags, 'blue')", true],
    ["ARRAY_CONTAINS(tags, 'green')", false],
    ['ARRAY_CONTAINS(tags, none)', true], // a NULL element is found, as in Flink
    ["ARRAY_CONTAINS(none, 'x')", null],
    ["ARRAY_CONTAINS(text, 'y')", true],
    ["ARRAY_POSITION(tags, 'blue')", 2],
    ["ARRAY_POSITION(tags, 'green')", 0],
    ["ARRAY_JOIN(tags, '-')", 'red-blue'],
    ["ARRAY_JOIN(tags, '-', '?')", 'red-blue-?'],
    ["ARRAY_JOIN(none, '-')", null],
    ['ARRAY_JOIN(tags, none)', null],
    ['ARRAY_DISTINCT(nums)', [3, 1, null]],
    ['ARRAY_REVERSE(nums)', [null, 1, 1, 3]],
    ['ARRAY_MAX(nums)', 3],
    ['ARRAY_MIN(nums)', 1],
    ['ARRAY_MAX(none)', null],
    ['ARRAY_REMOVE(nums, 1)', [3, null]],
    ['ARRAY_CONCAT(tags, text)', ['red', 'blue', null, 'x', 'y']],
    ['ARRAY_CONCAT(tags, none)', null],
    ['MAP_KEYS(m)', ['a', 'b c']],
    ['MAP_VALUES(m)', [1, { d: [10, 20] }]],
    ['MAP_KEYS(tags)', null],
    ["ARRAY_CONTAINS(MAP_KEYS(m), 'a')", true],
  ])('%s is %j', (src, expected) => {
    expect(compileExpr(src).evaluate({ ...row, nums: [3, 1, 1, null] })).toEqual(expected);
  });

  it('prints the subscript as Flink writes it, and reads its print back', () => {
    for (const [src, printed] of [
      ['tags[1]', '`tags`[1]'],
      ["m['b c']['d'][n + 1]", "`m`['b c']['d'][`n` + 1]"],
      ['CARDINALITY(tags) > 1', 'CARDINALITY(`tags`) > 1'],
      ['items[1].sku', '`items`[1].`sku`'],
    ]) {
      expect(compileExpr(src).toSql()).toBe(printed);
      expect(compileExpr(printed).toSql()).toBe(printed);
    }
  });

  it('types CARDINALITY as an integer, an element as unknown, and names an unclosed subscript', () => {
    expect(compileExpr('CARDINALITY(tags)').typeOf(null)).toBe('integer');
    expect(compileExpr('tags[1]').typeOf(null)).toBeNull();
    expect(() => compileExpr('tags[1')).toThrow(/Expected '\]' after the index in a\[i\]/);
    expect(() => compileExpr('ITEM(tags, 1)')).toThrow(/Unknown function 'ITEM'/);
  });
});

describe('STR_TO_MAP', () => {
  const ev = (src: string, input: Record<string, unknown> = {}) => compileExpr(src).evaluate(input);
  it("splits pairs on ',' and each pair once on '=', as Flink does", () => {
    expect(ev("STR_TO_MAP('a=1,b=2=3,c,a=4')")).toEqual({ a: '4', b: '2=3', c: null });
    expect(ev("STR_TO_MAP('k:v;x:y', ';', ':')['x']")).toBe('y');
    // Delimiters are text, not patterns.
    expect(ev("STR_TO_MAP('a.1|b.2', '|', '.')")).toEqual({ a: '1', b: '2' });
    expect(ev("STR_TO_MAP('')")).toEqual({});
    expect(ev('STR_TO_MAP(s)', { s: null })).toBeNull();
    expect(ev("CARDINALITY(STR_TO_MAP('a=1,b=2'))")).toBe(2);
  });
});
