import { describe, expect, it } from 'vitest';
import type { ExprNode } from './ast.ts';
import { fieldRefs, parseExpr } from './index.ts';

/** A compact Lisp-like rendering so precedence tests stay readable. */
function shape(n: ExprNode): string {
  switch (n.kind) {
    case 'number':
      return n.text;
    case 'string':
      return `'${n.value}'`;
    case 'boolean':
      return String(n.value);
    case 'null':
      return 'null';
    case 'interval':
      return `interval(${n.millis})`;
    case 'field':
      return n.path.join('.');
    case 'neg':
      return `(neg ${shape(n.operand)})`;
    case 'not':
      return `(not ${shape(n.operand)})`;
    case 'binary':
      return `(${n.op} ${shape(n.left)} ${shape(n.right)})`;
    case 'isNull':
      return `(${n.negated ? 'notnull' : 'isnull'} ${shape(n.operand)})`;
    case 'between':
      return `(${n.negated ? 'not-' : ''}between ${shape(n.operand)} ${shape(n.low)} ${shape(n.high)})`;
    case 'in':
      return `(${n.negated ? 'not-' : ''}in ${shape(n.operand)} ${n.list.map(shape).join(' ')})`;
    case 'like':
      return `(${n.negated ? 'not-' : ''}like ${shape(n.operand)} ${shape(n.pattern)})`;
    case 'case':
      return `(case${n.subject ? ' ' + shape(n.subject) : ''}${n.branches.map((b) => ` [${shape(b.when)} ${shape(b.then)}]`).join('')}${n.otherwise ? ' else ' + shape(n.otherwise) : ''})`;
    case 'call':
      return `(${n.name} ${n.args.map(shape).join(' ')})`;
    case 'cast':
      return `(cast ${shape(n.operand)} ${n.target})`;
  }
}
const p = (src: string) => shape(parseExpr(src));

describe('parseExpr precedence', () => {
  it.each([
    ['a OR b AND c', '(OR a (AND b c))'],
    ['NOT a AND b', '(AND (not a) b)'],
    ['NOT a = b', '(not (= a b))'],
    ['a = b + c * d', '(= a (+ b (* c d)))'],
    ['a - b - c', '(- (- a b) c)'],
    ['a / b % c', '(% (/ a b) c)'],
    ['-a * b', '(* (neg a) b)'],
    ['- - a', '(neg (neg a))'],
    ["a || b + c", '(+ (|| a b) c)'],
    ['(a + b) * c', '(* (+ a b) c)'],
    ['a != b', '(<> a b)'],
    ['a IS NULL OR b IS NOT NULL', '(OR (isnull a) (notnull b))'],
    ['x BETWEEN 1 AND 2 AND y', '(AND (between x 1 2) y)'],
    ['x NOT BETWEEN a + 1 AND b * 2', '(not-between x (+ a 1) (* b 2))'],
    ['x IN (1, 2 + 3) OR x NOT IN (NULL)', '(OR (in x 1 (+ 2 3)) (not-in x null))'],
    ["name LIKE 'a%' AND name NOT LIKE '%z'", "(AND (like name 'a%') (not-like name '%z'))"],
    ['a < b = TRUE', '(= (< a b) true)'],
  ])('%s', (src, expected) => {
    expect(p(src)).toBe(expected);
  });
});

describe('parseExpr primaries', () => {
  it('parses literals, intervals and casts', () => {
    expect(p("1 + 2.5 + 'x' + TRUE + false + null")).toBe("(+ (+ (+ (+ (+ 1 2.5) 'x') true) false) null)");
    expect(p("INTERVAL '5' second + INTERVAL '2' MINUTE")).toBe('(+ interval(5000) interval(120000))');
    expect(p("INTERVAL '1' HOUR = INTERVAL '0.5' DAY")).toBe('(= interval(3600000) interval(43200000))');
    expect(p('cast(a as bigint)')).toBe('(cast a BIGINT)');
  });

  it('parses both CASE forms', () => {
    expect(p("CASE WHEN a > 1 THEN 'x' WHEN b THEN 'y' ELSE 'z' END")).toBe("(case [(> a 1) 'x'] [b 'y'] else 'z')");
    expect(p("case s when 1 then 'one' end")).toBe("(case s [1 'one'])");
  });

  it('parses function calls case-insensitively, upper-casing the name', () => {
    expect(p('coalesce(a, Upper(b), 1)')).toBe('(COALESCE a (UPPER b) 1)');
  });

  it('lets fields share names with functions and interval units', () => {
    expect(p('upper + day')).toBe('(+ upper day)');
  });

  it('parses nested and quoted fields, allowing keywords after a dot', () => {
    expect(p('a.b.c')).toBe('a.b.c');
    expect(p('`my field`.`x y`')).toBe('my field.x y');
    expect(parseExpr('payload.End')).toMatchObject({ kind: 'field', path: ['payload', 'End'] });
  });

  it('records source offsets on nodes', () => {
    const n = parseExpr('  a + ABS(b)');
    expect(n).toMatchObject({ start: 2, end: 12 });
    if (n.kind !== 'binary') throw new Error('expected binary');
    expect(n.right).toMatchObject({ kind: 'call', start: 6, end: 12 });
  });
});

describe('fieldRefs', () => {
  it('lists top-level fields once, in first-seen order', () => {
    expect(fieldRefs('b + a.x + b * a.y + COALESCE(c, `d e`)')).toEqual(['b', 'a', 'c', 'd e']);
  });

  it('looks inside every construct', () => {
    expect(fieldRefs('CASE s WHEN t THEN u ELSE v END AND w BETWEEN x AND y AND z IN (q) AND CAST(r AS STRING) LIKE m')).toEqual([
      's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'q', 'r', 'm',
    ]);
  });

  it('is empty for constant expressions', () => {
    expect(fieldRefs("UPPER('x') || 1")).toEqual([]);
  });
});
