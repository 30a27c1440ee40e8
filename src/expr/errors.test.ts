import { describe, expect, it } from 'vitest';
import { ExprError, compileExpr } from './index.ts';

function errorOf(src: string): ExprError {
  try {
    compileExpr(src);
  } catch (e) {
    if (e instanceof ExprError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(src)} to fail`);
}

describe('ExprError', () => {
  it('names the unclosed parenthesis and where it was opened', () => {
    const e = errorOf('a * (b + c - d   ');
    expect(e.message).toBe("Expected ')' to close '(' opened at column 5, found end of input (line 1, column 18)");
    expect([e.offset, e.line, e.column]).toEqual([17, 1, 18]);
    expect(e.detail).toBe("Expected ')' to close '(' opened at column 5, found end of input");
    expect(e.name).toBe('ExprError');
    expect(e).toBeInstanceOf(Error);
  });

  it('gives the opening line when the error is on a later line', () => {
    expect(errorOf('UPPER(\n  a\n  b').message).toBe(
      "Expected ',' or ')' to close 'UPPER(' opened at line 1, column 6, found identifier 'b' (line 3, column 3)",
    );
  });

  it.each([
    ['', 'Empty expression: expected an expression, found end of input (line 1, column 1)'],
    ['-- only a comment', 'Empty expression: expected an expression, found end of input (line 1, column 18)'],
    ['a +', 'Expected an expression, found end of input (line 1, column 4)'],
    ['a\n  = = 1', "Expected an expression, found '=' (line 2, column 5)"],
    ['a b', "Expected an operator or end of input, found identifier 'b' (line 1, column 3)"],
    ['a)', "Expected an operator or end of input, found ')' which has no matching '(' (line 1, column 2)"],
    ["a = 'x", "Unterminated string literal: expected a closing ' for the one opened at column 5, found end of input (line 1, column 7)"],
    ['a @ b', "Unexpected character '@'; expected an operand or an operator (line 1, column 3)"],
    ["'a' + 'b'", "Operator '+' expected numbers, found two string literals; use || to concatenate strings (line 1, column 5)"],
    ['a IS 1', 'Expected NULL or NOT NULL after IS, found number 1 (line 1, column 6)'],
    ['a IS NOT TRUE', 'Expected NULL after IS NOT, found keyword TRUE (line 1, column 10)'],
    ['a NOT 1', 'Expected BETWEEN, IN or LIKE after NOT, found number 1 (line 1, column 7)'],
    ['a BETWEEN 1 OR 2', 'Expected AND between the bounds of BETWEEN, found keyword OR (line 1, column 13)'],
    ['a IN 1', "Expected '(' after IN, found number 1 (line 1, column 6)"],
    ['a IN ()', "Expected at least one value in the IN list, found ')' (line 1, column 7)"],
    ['a IN (1, 2', "Expected ',' or ')' to close '(' opened at column 6, found end of input (line 1, column 11)"],
    ['CASE a END', 'Expected WHEN in CASE, found keyword END (line 1, column 8)'],
    ['CASE WHEN a 1 END', 'Expected THEN after the WHEN condition, found number 1 (line 1, column 13)'],
    ['CASE WHEN a THEN 1', 'Expected WHEN, ELSE or END to close CASE opened at column 1, found end of input (line 1, column 19)'],
    ['CASE WHEN a THEN 1 ELSE 2 WHEN', 'Expected END to close CASE opened at column 1, found keyword WHEN (line 1, column 27)'],
    ['CAST(a STRING)', "Expected AS in CAST(value AS type), found identifier 'STRING' (line 1, column 8)"],
    ['CAST(a AS INT)', "Expected STRING, DOUBLE, BIGINT, BOOLEAN, DATE, TIMESTAMP after AS, found identifier 'INT' (line 1, column 11)"],
    ['CAST a', "Expected '(' after CAST, found identifier 'a' (line 1, column 6)"],
    ['CAST(a AS STRING', "Expected ')' to close 'CAST(' opened at column 5, found end of input (line 1, column 17)"],
    ['INTERVAL 5 SECOND', 'Expected a quoted amount after INTERVAL, e.g. INTERVAL \'5\' SECOND, found number 5 (line 1, column 10)'],
    ["INTERVAL 'x' SECOND", "Expected a number inside the INTERVAL quotes, found string 'x' (line 1, column 10)"],
    ["INTERVAL '5' WEEK", "Expected SECOND, MINUTE, HOUR or DAY after INTERVAL '5', found identifier 'WEEK' (line 1, column 14)"],
    ['a.', "Expected a field name after '.', found end of input (line 1, column 3)"],
    ['SUBSTRING(a)', 'Function SUBSTRING expected 2 or 3 arguments, found 1 (line 1, column 1)'],
    ['IF(a, b)', 'Function IF expected 3 arguments, found 2 (line 1, column 1)'],
    ['COALESCE()', 'Function COALESCE expected at least 1 argument, found 0 (line 1, column 1)'],
    ['`a`(1)', "Expected an operator or end of input, found '(' (line 1, column 4)"],
  ])('%j', (src, message) => {
    expect(errorOf(src).message).toBe(message);
  });

  it('names an unknown function and lists the known ones', () => {
    const e = errorOf('1 + lenght(name)');
    expect(e.message).toMatch(/^Unknown function 'lenght'; expected one of ABS, ACOS, ARRAY_CONCAT, .*, ASCII, /);
    expect(e.message).toMatch(/, CAST, CEIL, CHAR_LENGTH, .*, POSITION, .*, UPPER, WEEK, YEAR \(line 1, column 5\)$/);
    expect(e.column).toBe(5);
  });

  it('fails cleanly, not with a stack overflow, on absurd nesting', () => {
    expect(errorOf('('.repeat(5000) + 'a' + ')'.repeat(5000)).message).toMatch(/^Expression nested too deeply/);
    expect(errorOf('- '.repeat(5000) + 'a').message).toMatch(/^Expression nested too deeply/);
    expect(errorOf('NOT '.repeat(5000) + 'a').message).toMatch(/^Expression nested too deeply/);
  });
});
