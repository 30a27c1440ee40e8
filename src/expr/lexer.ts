import { ExprError, describeOpening } from './errors.ts';

export type TokenKind = 'number' | 'string' | 'ident' | 'keyword' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /**
   * number: the literal text; string: the unescaped value; ident: the name (quoted or not);
   * keyword: upper-cased word; op: the symbol; eof: ''.
   */
  value: string;
  /** True for backtick-quoted identifiers, which are never keywords or function names. */
  quoted: boolean;
  start: number;
  end: number;
}

/**
 * Reserved words. Function names (UPPER, IF, ...) and interval units are deliberately NOT reserved,
 * so that fields called `day` or `upper` keep working without backticks.
 */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'AND', 'OR', 'NOT', 'IS', 'NULL', 'TRUE', 'FALSE', 'BETWEEN', 'IN', 'LIKE',
  'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'INTERVAL', 'CAST', 'AS',
]);

const TWO_CHAR_OPS: ReadonlySet<string> = new Set(['<=', '>=', '<>', '!=', '||']);
const ONE_CHAR_OPS = '+-*/%=<>(),.[]';

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdentStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of input';
    case 'number':
      return `number ${t.value}`;
    case 'string':
      return `string '${t.value.replace(/'/g, "''")}'`;
    case 'ident':
      return t.quoted ? `identifier \`${t.value}\`` : `identifier '${t.value}'`;
    case 'keyword':
      return `keyword ${t.value}`;
    case 'op':
      return `'${t.value}'`;
  }
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const n = source.length;
  let i = 0;
  const push = (kind: TokenKind, value: string, start: number, quoted = false): void => {
    tokens.push({ kind, value, quoted, start, end: i });
  };

  while (i < n) {
    const c = source.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    // `--` starts a comment in SQL; honouring it avoids reading `a--b` differently from Flink.
    if (c === 45 && source.charCodeAt(i + 1) === 45) {
      while (i < n && source.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (isDigit(c)) {
      while (i < n && isDigit(source.charCodeAt(i))) i++;
      // Only take the dot when a digit follows, so `1.x` fails as `1` `.` rather than silently.
      if (source.charCodeAt(i) === 46 && isDigit(source.charCodeAt(i + 1))) {
        i++;
        while (i < n && isDigit(source.charCodeAt(i))) i++;
      }
      // An exponent (`1.5E10`, `2e-3`): a DOUBLE literal in Flink, as in Calcite.
      const e = source.charCodeAt(i);
      if ((e === 69 || e === 101) && (isDigit(source.charCodeAt(i + 1)) || ((source.charCodeAt(i + 1) === 43 || source.charCodeAt(i + 1) === 45) && isDigit(source.charCodeAt(i + 2))))) {
        i += 2;
        while (i < n && isDigit(source.charCodeAt(i))) i++;
      }
      if (isIdentStart(source.charCodeAt(i))) {
        throw new ExprError(
          `Expected an operator after number ${source.slice(start, i)}, found '${source[i]}'`,
          source,
          i,
        );
      }
      push('number', source.slice(start, i), start);
      continue;
    }
    if (isIdentStart(c)) {
      while (i < n && isIdentPart(source.charCodeAt(i))) i++;
      const word = source.slice(start, i);
      const upper = word.toUpperCase();
      if (KEYWORDS.has(upper)) push('keyword', upper, start);
      else push('ident', word, start);
      continue;
    }
    if (c === 39 || c === 96) {
      const quote = source[i];
      const value = readQuoted(source, i, quote);
      i = value.end;
      if (quote === "'") push('string', value.text, start);
      else {
        if (value.text === '') throw new ExprError('Expected a field name inside ``, found an empty name', source, start);
        push('ident', value.text, start, true);
      }
      continue;
    }
    const two = source.slice(i, i + 2);
    if (TWO_CHAR_OPS.has(two)) {
      i += 2;
      push('op', two, start);
      continue;
    }
    if (ONE_CHAR_OPS.includes(source[i])) {
      i++;
      push('op', source[start], start);
      continue;
    }
    const cp = source.codePointAt(i) ?? c;
    const shown = cp < 32 ? `\\u${cp.toString(16).padStart(4, '0')}` : String.fromCodePoint(cp);
    throw new ExprError(`Unexpected character '${shown}'; expected an operand or an operator`, source, i);
  }
  tokens.push({ kind: 'eof', value: '', quoted: false, start: n, end: n });
  return tokens;
}

/** Reads '...' or `...` starting at `open`; a doubled quote stands for one quote character. */
function readQuoted(source: string, open: number, quote: string): { text: string; end: number } {
  let text = '';
  let i = open + 1;
  for (;;) {
    const next = source.indexOf(quote, i);
    if (next < 0) {
      const what = quote === "'" ? 'string literal' : 'quoted identifier';
      throw new ExprError(
        `Unterminated ${what}: expected a closing ${quote} for the one opened at ${describeOpening(source, open, source.length)}, found end of input`,
        source,
        source.length,
      );
    }
    text += source.slice(i, next);
    if (source[next + 1] === quote) {
      text += quote;
      i = next + 2;
      continue;
    }
    return { text, end: next + 1 };
  }
}
