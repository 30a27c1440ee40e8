import { describe, expect, it } from 'vitest';
import { ExprError } from './errors.ts';
import { tokenize } from './lexer.ts';

const kinds = (src: string) => tokenize(src).map((t) => `${t.kind}:${t.value}`);

describe('tokenize', () => {
  it('splits operators, numbers, identifiers and keywords', () => {
    expect(kinds('a<=1.5 and b<>2||c!=d')).toEqual([
      'ident:a', 'op:<=', 'number:1.5', 'keyword:AND', 'ident:b', 'op:<>', 'number:2',
      'op:||', 'ident:c', 'op:!=', 'ident:d', 'eof:',
    ]);
  });

  it('upper-cases keywords whatever their case but keeps identifiers as written', () => {
    expect(kinds('Case wHeN Amount')).toEqual(['keyword:CASE', 'keyword:WHEN', 'ident:Amount', 'eof:']);
  });

  it('reads strings with doubled quotes and records offsets', () => {
    const [t] = tokenize(" 'it''s'");
    expect(t).toEqual({ kind: 'string', value: "it's", quoted: false, start: 1, end: 8 });
  });

  it('reads backtick identifiers, which are never keywords', () => {
    const [t] = tokenize('`order date`');
    expect(t).toMatchObject({ kind: 'ident', value: 'order date', quoted: true });
    expect(tokenize('`end`')[0]).toMatchObject({ kind: 'ident', value: 'end' });
    expect(tokenize('`a``b`')[0].value).toBe('a`b');
  });

  it('keeps a dot after a number out of the number unless digits follow', () => {
    expect(kinds('1.25')).toEqual(['number:1.25', 'eof:']);
    expect(kinds('a.b')).toEqual(['ident:a', 'op:.', 'ident:b', 'eof:']);
  });

  it('skips -- comments to the end of the line', () => {
    expect(kinds('a -- ignored\n+ 1')).toEqual(['ident:a', 'op:+', 'number:1', 'eof:']);
  });

  it('rejects unexpected characters with their position', () => {
    try {
      tokenize('a\n  # b');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ExprError);
      const err = e as ExprError;
      expect(err.message).toBe("Unexpected character '#'; expected an operand or an operator (line 2, column 3)");
      expect([err.offset, err.line, err.column]).toEqual([4, 2, 3]);
    }
  });

  it('rejects unterminated strings and quoted identifiers', () => {
    expect(() => tokenize("x = 'abc")).toThrow(
      "Unterminated string literal: expected a closing ' for the one opened at column 5, found end of input (line 1, column 9)",
    );
    expect(() => tokenize('`abc')).toThrow('Unterminated quoted identifier');
    expect(() => tokenize('``')).toThrow('Expected a field name inside ``, found an empty name');
  });

  it('reads an exponent as part of the number (a DOUBLE literal in Flink), and nothing else after it', () => {
    expect(kinds('1.5E10 + 2e-3 - 7E+2')).toEqual(['number:1.5E10', 'op:+', 'number:2e-3', 'op:-', 'number:7E+2', 'eof:']);
    expect(() => tokenize('1e')).toThrow("Expected an operator after number 1, found 'e'");
    expect(() => tokenize('2E5x')).toThrow("Expected an operator after number 2E5, found 'x'");
  });

  it('rejects a number glued to a word', () => {
    expect(() => tokenize('5seconds')).toThrow("Expected an operator after number 5, found 's' (line 1, column 2)");
  });
});
