import { ExprError, describeOpening } from './errors.ts';
import { type Token, describeToken } from './lexer.ts';

/** Deep enough for any hand-written expression, shallow enough to fail before the JS stack does. */
const MAX_DEPTH = 256;

/**
 * Token-level plumbing for the parser: lookahead, consumption and the error wording, kept apart so
 * the grammar in parser.ts reads as grammar.
 */
export class TokenCursor {
  protected pos = 0;
  private depth = 0;

  constructor(
    protected readonly source: string,
    protected readonly tokens: Token[],
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)];
  }

  /** The token consumed last, e.g. the ')' that just closed a list. */
  protected previous(): Token {
    return this.tokens[this.pos - 1];
  }

  fail(detail: string, at: Token | number): never {
    throw new ExprError(detail, this.source, typeof at === 'number' ? at : at.start);
  }

  protected next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  protected isKw(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'keyword' && t.value === word;
  }

  protected isOp(sym: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'op' && t.value === sym;
  }

  protected expectKw(word: string, context: string): Token {
    if (this.isKw(word)) return this.next();
    return this.fail(`Expected ${word} ${context}, found ${describeToken(this.peek())}`, this.peek());
  }

  protected expectOp(sym: string, context: string): Token {
    if (this.isOp(sym)) return this.next();
    return this.fail(`Expected '${sym}' ${context}, found ${describeToken(this.peek())}`, this.peek());
  }

  /** Consumes the closer of a bracketed construct, reporting where the construct was opened. */
  protected close(closer: string, opener: Token, what: string, alternatives = ''): Token {
    const t = this.peek();
    const isBracket = closer === ')' || closer === ']';
    if (isBracket ? this.isOp(closer) : this.isKw(closer)) return this.next();
    const where = describeOpening(this.source, opener.start, t.start);
    const shown = isBracket ? `'${closer}'` : closer;
    return this.fail(`Expected ${alternatives}${shown} to close ${what} opened at ${where}, found ${describeToken(t)}`, t);
  }

  /** Runs a recursive step with a depth guard, so hostile input fails as an ExprError, not a RangeError. */
  protected nested<T>(at: Token, step: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail(`Expression nested too deeply: expected at most ${MAX_DEPTH} levels`, at);
    const result = step();
    this.depth--;
    return result;
  }
}
