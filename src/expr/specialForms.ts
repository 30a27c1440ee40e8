import type { ExprNode } from './ast.ts';
import { TokenCursor } from './cursor.ts';
import { checkArity, functionKeywords } from './functions.ts';
import { type Token, describeToken } from './lexer.ts';

/** Functions with a form of their own (`POSITION(a IN b)`, `EXTRACT(HOUR FROM ts)`), read by specialCall. */
export const SPECIAL_FORMS: ReadonlySet<string> = new Set(['TRIM', 'POSITION', 'EXTRACT', 'FLOOR', 'CEIL', 'TIMESTAMPADD', 'TIMESTAMPDIFF', 'JSON_OBJECT', 'JSON_ARRAY', 'OVERLAY']);
const IS_JSON_KINDS: readonly string[] = ['VALUE', 'SCALAR', 'ARRAY', 'OBJECT'];

/**
 * The SQL calls that are not plain argument lists: TRIM, POSITION, EXTRACT, FLOOR / CEIL TO,
 * TIMESTAMPADD / TIMESTAMPDIFF and `IS [NOT] JSON`. Each has its own words (FROM, TO, units,
 * sides) and its own way to fall back to a plain call, so they live apart from the operator
 * grammar in parser.ts, which supplies the two entry points they read their operands with.
 */
export abstract class SpecialFormReader extends TokenCursor {
  abstract expression(): ExprNode;
  /** An operand that binds tighter than IN (POSITION's needle). */
  protected abstract additive(): ExprNode;

  /** An unquoted name (not a keyword) spelled `word`, as the special forms use FROM, TO, LEADING, units. */
  protected isWord(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'ident' && !t.quoted && t.value.toUpperCase() === word;
  }

  /** `x IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT]`, after IS [NOT]. */
  protected isJson(operand: ExprNode, negated: boolean): ExprNode {
    let end = this.next().end;
    let keyword: string | undefined;
    const k = this.peek();
    if (k.kind === 'ident' && !k.quoted && IS_JSON_KINDS.includes(k.value.toUpperCase())) {
      keyword = k.value.toUpperCase();
      end = this.next().end;
    }
    const node: ExprNode = { kind: 'call', name: 'IS_JSON', args: [operand], ...(keyword ? { keyword } : {}), start: operand.start, end };
    return negated ? { kind: 'not', operand: node, start: operand.start, end } : node;
  }

  /** The unit or side word of a special form, checked against what the function reads. */
  private keyword(name: string, what: string): string {
    const t = this.peek();
    const allowed = functionKeywords(name) ?? [];
    const word = t.kind === 'ident' && !t.quoted ? t.value.toUpperCase() : '';
    if (!allowed.includes(word)) {
      this.fail(`Expected ${what} of ${name}: ${allowed.join(', ')}, found ${describeToken(t)}`, t);
    }
    this.next();
    return word;
  }

  private expectWord(word: string, context: string): Token {
    if (this.isWord(word)) return this.next();
    return this.fail(`Expected ${word} ${context}, found ${describeToken(this.peek())}`, this.peek());
  }

  /**
   * The SQL forms that are not plain argument lists: TRIM([LEADING|TRAILING|BOTH] [chars] FROM s),
   * POSITION(a IN b), EXTRACT(unit FROM t), FLOOR/CEIL(t TO unit), TIMESTAMPADD/DIFF(unit, …).
   * Returns null when the call turns out to be a plain one (TRIM(s), FLOOR(x)); `open` is consumed.
   */
  protected specialCall(name: string, nameTok: Token, open: Token): ExprNode | null {
    const done = (args: ExprNode[], keyword?: string): ExprNode => {
      const end = this.close(')', open, `'${name}('`).end;
      return { kind: 'call', name, args, ...(keyword ? { keyword } : {}), start: nameTok.start, end };
    };
    switch (name) {
      case 'TRIM': {
        // A side word followed by ')' or an operator is a field of that name: TRIM(leading).
        const follower = this.peek(1);
        const sideWord = follower.kind !== 'op' || follower.value === '(';
        const side = sideWord ? ['LEADING', 'TRAILING', 'BOTH'].find((w) => this.isWord(w)) : undefined;
        if (side) this.next();
        if (side && this.isWord('FROM')) {
          this.next();
          return done([this.expression()], side);
        }
        const first = this.expression();
        if (!side && !this.isWord('FROM')) return this.restOfCall(name, nameTok, open, [first]);
        this.expectWord('FROM', `after the characters to trim in TRIM(${side ?? 'BOTH'} chars FROM s)`);
        return done([this.expression(), first], side ?? 'BOTH');
      }
      case 'POSITION': {
        // The needle binds tighter than IN, so `a IN b` is not read as an IN list.
        const needle = this.additive();
        this.expectKw('IN', 'in POSITION(substring IN string)');
        return done([needle, this.expression()]);
      }
      case 'EXTRACT': {
        const unit = this.keyword(name, 'the unit');
        this.expectWord('FROM', `in EXTRACT(${unit} FROM time)`);
        return done([this.expression()], unit);
      }
      case 'FLOOR':
      case 'CEIL': {
        const first = this.expression();
        if (!this.isWord('TO')) return this.restOfCall(name, nameTok, open, [first]);
        this.next();
        return done([first], this.keyword(name, 'the unit'));
      }
      case 'TIMESTAMPADD':
      case 'TIMESTAMPDIFF': {
        const unit = this.keyword(name, 'the unit');
        this.expectOp(',', `after the unit in ${name}(${unit}, …)`);
        const a = this.expression();
        this.expectOp(',', `between the arguments of ${name}`);
        return done([a, this.expression()], unit);
      }
      case 'JSON_OBJECT':
      case 'JSON_ARRAY':
        return this.jsonConstructor(name, nameTok, open);
      case 'OVERLAY': {
        const s = this.expression();
        this.expectWord('PLACING', 'in OVERLAY(s PLACING r FROM start [FOR length])');
        const r = this.expression();
        this.expectWord('FROM', 'in OVERLAY(s PLACING r FROM start [FOR length])');
        const args = [s, r, this.expression()];
        if (this.isWord('FOR')) {
          this.next();
          args.push(this.expression());
        }
        return done(args);
      }
    }
    return null;
  }

  /** `NULL ON NULL` / `ABSENT ON NULL` at the current token, consumed; undefined when it is not there. */
  private onNull(): string | undefined {
    const word = this.isKw('NULL') ? 'NULL' : this.isWord('ABSENT') ? 'ABSENT' : undefined;
    if (!word || !this.isWord('ON', 1)) return undefined;
    this.next();
    this.next();
    this.expectKw('NULL', `in ${word} ON NULL`);
    return word;
  }

  /**
   * JSON_OBJECT([KEY] 'k' VALUE v, … [NULL|ABSENT ON NULL]) and JSON_ARRAY(v, … [NULL|ABSENT ON NULL]),
   * as Flink writes them. An object's keys are string literals, each once, so the text it builds is
   * one JSON object whatever the row.
   */
  private jsonConstructor(name: string, nameTok: Token, open: Token): ExprNode {
    const args: ExprNode[] = [];
    const keys = new Set<string>();
    let onNull: string | undefined;
    while (!this.isOp(')') && !(onNull = this.onNull())) {
      if (args.length > 0) this.expectOp(',', `between the entries of ${name}(…)`);
      if (name === 'JSON_ARRAY') {
        args.push(this.expression());
        continue;
      }
      if (this.isWord('KEY') && this.peek(1).kind === 'string') this.next();
      const keyTok = this.peek();
      if (keyTok.kind !== 'string') this.fail(`Expected a quoted key in JSON_OBJECT(KEY 'name' VALUE value, …), found ${describeToken(keyTok)}`, keyTok);
      if (keys.has(keyTok.value)) this.fail(`JSON_OBJECT has the key '${keyTok.value}' twice; give each key once`, keyTok);
      keys.add(keyTok.value);
      this.next();
      args.push({ kind: 'string', value: keyTok.value, start: keyTok.start, end: keyTok.end });
      this.expectWord('VALUE', `after the key '${keyTok.value}' in JSON_OBJECT(KEY 'name' VALUE value, …)`);
      args.push(this.expression());
    }
    const end = this.close(')', open, `'${name}('`, onNull ? '' : "',' or NULL ON NULL or ABSENT ON NULL or ").end;
    return { kind: 'call', name, args, ...(onNull ? { keyword: onNull } : {}), start: nameTok.start, end };
  }

  /** A plain call whose first argument the special-form reader already consumed. */
  private restOfCall(name: string, nameTok: Token, open: Token, args: ExprNode[]): ExprNode {
    while (this.isOp(',')) {
      this.next();
      args.push(this.expression());
    }
    this.close(')', open, `'${name}('`, "',' or ");
    const arityProblem = checkArity(name, args.length);
    if (arityProblem) this.fail(arityProblem, nameTok);
    return { kind: 'call', name, args, start: nameTok.start, end: this.previous().end };
  }
}
