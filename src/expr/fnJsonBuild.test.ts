// JSON_OBJECT and JSON_ARRAY as Flink documents them: the values they build, their NULL clauses,
// nesting, the SQL they print (read back to the same text), and the mistakes they refuse.
import { describe, expect, it } from 'vitest';
import { compileExpr } from './index.ts';

const row = { s: 'he said "hi"', n: 2.5, i: 7, b: true, x: null, j: '{"a":1}', o: { deep: [1, 'two'] } };
const ev = (src: string) => compileExpr(src).evaluate(row);
const sql = (src: string) => compileExpr(src).toSql();

describe('JSON_OBJECT and JSON_ARRAY', () => {
  it.each([
    ['JSON_OBJECT()', '{}'],
    ["JSON_OBJECT('K1' VALUE 'V1')", '{"K1":"V1"}'],
    ["JSON_OBJECT(KEY 'K1' VALUE 'V1', KEY 'K2' VALUE i)", '{"K1":"V1","K2":7}'],
    ["JSON_OBJECT(KEY 'b' VALUE 1, KEY 'a' VALUE 2)", '{"b":1,"a":2}'], // the order written, not sorted
    ["JSON_OBJECT(KEY '2' VALUE 'x', KEY '1' VALUE 'y')", '{"2":"x","1":"y"}'], // number-like keys keep their order too
    ["JSON_OBJECT(KEY 'K1' VALUE x)", '{"K1":null}'], // NULL ON NULL is the default
    ["JSON_OBJECT(KEY 'K1' VALUE x NULL ON NULL)", '{"K1":null}'],
    ["JSON_OBJECT(KEY 'K1' VALUE x, KEY 'K2' VALUE b ABSENT ON NULL)", '{"K2":true}'],
    ["JSON_OBJECT(KEY 'K1' VALUE x ABSENT ON NULL)", '{}'],
    ["JSON_OBJECT(KEY 'K1' VALUE JSON_OBJECT(KEY 'K2' VALUE 'V'))", '{"K1":{"K2":"V"}}'], // nested as JSON
    ["JSON_OBJECT(KEY 'K1' VALUE JSON_ARRAY(1, 2))", '{"K1":[1,2]}'],
    ["JSON_OBJECT(KEY 'K1' VALUE j)", '{"K1":"{\\"a\\":1}"}'], // JSON text from a column is a string
    ["JSON_OBJECT(KEY 'q' VALUE s, KEY 'n' VALUE n * 2)", '{"q":"he said \\"hi\\"","n":5}'],
    ["JSON_OBJECT(KEY 'o' VALUE o)", '{"o":{"deep":[1,"two"]}}'], // a json value (an UNNEST element) stays JSON
    ["JSON_OBJECT(KEY 'x' VALUE 1 / 0)", '{"x":null}'],
    ['JSON_ARRAY()', '[]'],
    ["JSON_ARRAY(1, '2', b)", '[1,"2",true]'],
    ['JSON_ARRAY(1, x, 3)', '[1,3]'], // ABSENT ON NULL is the default
    ['JSON_ARRAY(1, x, 3 NULL ON NULL)', '[1,null,3]'],
    ['JSON_ARRAY(x ABSENT ON NULL)', '[]'],
    ['JSON_ARRAY(JSON_ARRAY(1), JSON_OBJECT())', '[[1],{}]'],
  ])('%s is %s', (src, expected) => {
    expect(ev(src)).toBe(expected);
    expect(JSON.parse(ev(src) as string)).toBeDefined();
  });

  it('prints the form Flink reads, and reads its own print back to the same text', () => {
    const cases: [string, string][] = [
      ["json_object('a' value s)", "JSON_OBJECT(KEY 'a' VALUE `s`)"],
      ["JSON_OBJECT(KEY 'a' VALUE i + 1, KEY 'b' VALUE JSON_ARRAY(x, 2 NULL ON NULL) ABSENT ON NULL)", "JSON_OBJECT(KEY 'a' VALUE `i` + 1, KEY 'b' VALUE JSON_ARRAY(`x`, 2 NULL ON NULL) ABSENT ON NULL)"],
      ['JSON_ARRAY()', 'JSON_ARRAY()'],
      ['JSON_OBJECT(NULL ON NULL)', 'JSON_OBJECT(NULL ON NULL)'],
    ];
    for (const [src, printed] of cases) {
      expect(sql(src)).toBe(printed);
      expect(sql(printed)).toBe(printed);
      expect(compileExpr(printed).evaluate(row)).toBe(compileExpr(src).evaluate(row));
    }
  });

  it('is typed STRING, so the column it makes is one', () => {
    expect(compileExpr("JSON_OBJECT(KEY 'a' VALUE 1)").typeOf(null)).toBe('string');
    expect(compileExpr('JSON_ARRAY(1)').typeOf(null)).toBe('string');
  });

  it.each([
    ["JSON_OBJECT(KEY a VALUE 1)", /Expected a quoted key in JSON_OBJECT/],
    ["JSON_OBJECT(KEY 'a' VALUE 1, KEY 'a' VALUE 2)", /key 'a' twice/],
    ["JSON_OBJECT(KEY 'a' 1)", /Expected VALUE after the key 'a'/],
    ['JSON_ARRAY(1 2)', /Expected .*','/],
    ['JSON_ARRAY(1, 2 ABSENT ON NULL, 3)', /Expected '\)'/],
    ['JSON_ARRAY(1 EMPTY ON NULL)', /Expected/],
  ])('refuses %s with a message that says what to write', (src, message) => {
    expect(() => compileExpr(src)).toThrow(message);
  });
});
