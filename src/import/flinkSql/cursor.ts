/** A position in the token list, with the expect/accept helpers the parsers share. */
import { ImportError } from './errors.ts';
import type { Token } from './lexer.ts';
import { describeToken } from './lexer.ts';

/** A run of tokens kept as source text: expressions are handed to Weir's own expression parser. */
export interface Span {
  text: string;
  start: number;
  tokens: Token[];
}

export class Cursor {
  pos = 0;
  constructor(
    readonly tokens: Token[],
    readonly sql: string,
  ) {}

  peek(k = 0): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)];
  }

  next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  isWord(word: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'word' && t.upper === word;
  }

  isOp(op: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'op' && t.value === op;
  }

  acceptWord(...words: string[]): boolean {
    if (!words.every((w, k) => this.isWord(w, k))) return false;
    this.pos += words.length;
    return true;
  }

  acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.pos++;
    return true;
  }

  expectWord(word: string, construct: string): Token {
    if (!this.isWord(word)) this.unexpected(construct, word);
    return this.next();
  }

  expectOp(op: string, construct: string): Token {
    if (!this.isOp(op)) this.unexpected(construct, `'${op}'`);
    return this.next();
  }

  /** A table, view, column or function name: `quoted` or a plain word. */
  name(construct: string): string {
    const t = this.peek();
    if (t.kind !== 'quoted' && t.kind !== 'word') this.unexpected(construct, 'a name');
    this.next();
    return t.value;
  }

  string(construct: string): string {
    const t = this.peek();
    if (t.kind !== 'string') this.unexpected(construct, "a 'string'");
    this.next();
    return t.value;
  }

  fail(construct: string, message: string, t: Token = this.peek()): never {
    throw new ImportError(t.line, t.column, construct, message);
  }

  unexpected(construct: string, expected: string): never {
    this.fail(construct, `expected ${expected}, found ${describeToken(this.peek())}`);
  }

  /**
   * Tokens up to (not including) the first depth-0 token that `stop` accepts, a closing parenthesis
   * of an enclosing group, `;` or the end. Parentheses inside are balanced.
   */
  span(construct: string, stop: (t: Token) => boolean): Span {
    const from = this.pos;
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'eof' || (t.kind === 'op' && t.value === ';')) break;
      if (t.kind === 'op' && (t.value === '(' || t.value === '[')) depth++;
      else if (t.kind === 'op' && (t.value === ')' || t.value === ']')) {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && stop(t)) break;
      this.next();
    }
    const tokens = this.tokens.slice(from, this.pos);
    if (!tokens.length) this.unexpected(construct, 'an expression');
    return { text: this.sql.slice(tokens[0].start, tokens[tokens.length - 1].end), start: tokens[0].start, tokens };
  }
}

/** A depth-0 stop on any of these words (unquoted) or ops. */
export const stopAt =
  (words: string[], ops: string[] = []) =>
  (t: Token): boolean =>
    (t.kind === 'word' && words.includes(t.upper)) || (t.kind === 'op' && ops.includes(t.value));
