/** Tokens of the Flink SQL subset `weir export` writes, with 1-based lines and columns for errors. */
import { ImportError } from './errors.ts';

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'op' | 'hint' | 'eof';

export interface Token {
  kind: TokenKind;
  /** word: as written; quoted: the name without backticks; string: unescaped; hint: the text inside /*+ … *\/. */
  value: string;
  /** Upper-cased value for words, '' otherwise: keywords compare on this. */
  upper: string;
  start: number;
  end: number;
  line: number;
  column: number;
}

export interface LineComment {
  line: number;
  /** The text after `--`. */
  text: string;
}

const OPS2 = new Set(['<=', '>=', '<>', '!=', '||']);
const OPS1 = '()[],;.=<>+-*/%';

export function tokenize(sql: string): { tokens: Token[]; comments: LineComment[] } {
  const tokens: Token[] = [];
  const comments: LineComment[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = sql.length;
  const push = (kind: TokenKind, value: string, start: number, startLine: number, startCol: number) =>
    tokens.push({ kind, value, upper: kind === 'word' ? value.toUpperCase() : '', start, end: i, line: startLine, column: startCol });
  const advance = (to: number) => {
    for (; i < to; i++) {
      if (sql[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
  };
  while (i < n) {
    const c = sql[i];
    const start = i;
    const startLine = line;
    const col = i - lineStart + 1;
    if (/\s/.test(c)) {
      advance(i + 1);
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      comments.push({ line: startLine, text: sql.slice(i + 2, stop).replace(/\r$/, '') });
      advance(stop);
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw new ImportError(startLine, col, 'comment', 'a /* comment is never closed');
      const hint = sql[i + 2] === '+';
      advance(end + 2);
      if (hint) push('hint', sql.slice(start + 3, end).trim(), start, startLine, col);
      continue;
    }
    if (c === '`' || c === "'") {
      let j = i + 1;
      let value = '';
      for (;;) {
        if (j >= n) throw new ImportError(startLine, col, c === '`' ? 'identifier' : 'string', `${c === '`' ? 'a quoted identifier' : 'a string'} is never closed`);
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            value += c;
            j += 2;
            continue;
          }
          break;
        }
        value += sql[j++];
      }
      advance(j + 1);
      push(c === '`' ? 'quoted' : 'string', value, start, startLine, col);
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(i))!;
      advance(i + m[0].length);
      push('number', m[0], start, startLine, col);
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))!;
      advance(i + m[0].length);
      push('word', m[0], start, startLine, col);
      continue;
    }
    const two = sql.slice(i, i + 2);
    if (OPS2.has(two)) {
      advance(i + 2);
      push('op', two, start, startLine, col);
      continue;
    }
    if (OPS1.includes(c)) {
      advance(i + 1);
      push('op', c, start, startLine, col);
      continue;
    }
    throw new ImportError(startLine, col, 'character', `unexpected character ${JSON.stringify(c)}`);
  }
  tokens.push({ kind: 'eof', value: '', upper: '', start: n, end: n, line, column: n - lineStart + 1 });
  return { tokens, comments };
}

/** How a token reads in an error message. */
export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the script';
    case 'quoted':
      return `\`${t.value}\``;
    case 'string':
      return `'${t.value}'`;
    case 'hint':
      return 'a /*+ hint */';
    default:
      return t.kind === 'word' ? t.upper : `'${t.value}'`;
  }
}

/** 1-based line and column of an offset, for errors found inside expression text. */
export function positionOf(sql: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < sql.length; k++) {
    if (sql[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
