import type { BinaryOp, CaseBranch, CastTarget, ExprNode, IntervalUnit } from './ast.ts';
import { TokenCursor } from './cursor.ts';
import { ExprError } from './errors.ts';
import { FUNCTION_NAMES, checkArity, functionKeywords } from './functions.ts';
import { type Token, describeToken, tokenize } from './lexer.ts';

const COMPARISON_OPS: Readonly<Record<string, BinaryOp>> = {
  '=': '=', '<>': '<>', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=',
};
const INTERVAL_MS: Readonly<Record<IntervalUnit, number>> = {
  SECOND: 1_000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000,
};
const CAST_TARGETS: readonly CastTarget[] = ['STRING', 'DOUBLE', 'BIGINT', 'BOOLEAN', 'DATE', 'TIMESTAMP'];
/** Functions with a form of their own (`POSITION(a IN b)`, `EXTRACT(HOUR FROM ts)`), read by specialCall. */
const SPECIAL_FORMS: ReadonlySet<string> = new Set(['TRIM', 'POSITION', 'EXTRACT', 'FLOOR', 'CEIL', 'TIMESTAMPADD', 'TIMESTAMPDIFF']);
const IS_JSON_KINDS: readonly string[] = ['VALUE', 'SCALAR', 'ARRAY', 'OBJECT'];

/** Parses an expression into its AST; throws ExprError with the position of the first problem. */
export function parseExpr(source: string): ExprNode {
  const p = new Parser(source, tokenize(source));
  if (p.peek().kind === 'eof') {
    throw new ExprError('Empty expression: expected an expression, found end of input', source, source.length);
  }
  const node = p.expression();
  checkDepth(node, source);
  const rest = p.peek();
  if (rest.kind !== 'eof') {
    const hint = rest.value === ')' && rest.kind === 'op' ? " which has no matching '('" : '';
    p.fail(`Expected an operator or end of input, found ${describeToken(rest)}${hint}`, rest);
  }
  return node;
}

/** Deeper trees than this would overflow the stack of the walks over them (type check, compile, evaluate). */
const MAX_TREE_DEPTH = 1000;

/**
 * Loops build chains such as `a + b + c …` without nesting, so the parser's own depth guard does
 * not see them; a chain of many thousand terms would then blow the stack later. Measured here
 * without recursion, and refused by position with a way out.
 */
function checkDepth(root: ExprNode, source: string): void {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [n, d] = stack.pop()!;
    if (d > MAX_TREE_DEPTH) {
      const at = (n as { start?: number }).start ?? 0;
      throw new ExprError(`Expression too long: more than ${MAX_TREE_DEPTH} operators chained in one term; split it into smaller expressions (for a long list of values, use IN (…))`, source, at);
    }
    for (const v of Object.values(n as object)) {
      if (Array.isArray(v)) for (const x of v) stack.push([x, d + 1]);
      else if (v !== null && typeof v === 'object') stack.push([v, d + 1]);
    }
  }
}

/** Chains longer than this are built as a balanced tree: a depth of log2(n), not n. */
const BALANCE_FROM = 64;

/**
 * Joins the terms of `a OR b OR c …` (or AND). Short chains stay left-deep, as written. A long
 * chain (a generated filter of thousands of terms) becomes a balanced tree, so that every walk
 * over the tree (type checks, compilation, evaluation, export) stays within the stack: AND and
 * OR are associative in SQL's three-valued logic, and the leaves keep their left-to-right order,
 * so both the result and which terms are evaluated are the same.
 */
function chain(op: 'AND' | 'OR', terms: ExprNode[]): ExprNode {
  const join = (left: ExprNode, right: ExprNode): ExprNode => ({ kind: 'binary', op, left, right, start: left.start, end: right.end });
  if (terms.length < BALANCE_FROM) return terms.reduce(join);
  const build = (from: number, to: number): ExprNode => (to - from === 1 ? terms[from] : join(build(from, (from + to) >>> 1), build((from + to) >>> 1, to)));
  return build(0, terms.length);
}

class Parser extends TokenCursor {
  expression(): ExprNode {
    return this.nested(this.peek(), () => this.or());
  }

  private or(): ExprNode {
    const terms = [this.and()];
    while (this.isKw('OR')) {
      this.next();
      terms.push(this.and());
    }
    return chain('OR', terms);
  }

  private and(): ExprNode {
    const terms = [this.not()];
    while (this.isKw('AND')) {
      this.next();
      terms.push(this.not());
    }
    return chain('AND', terms);
  }

  private not(): ExprNode {
    if (!this.isKw('NOT')) return this.comparison();
    const t = this.next();
    const operand = this.nested(t, () => this.not());
    return { kind: 'not', operand, start: t.start, end: operand.end };
  }

  private comparison(): ExprNode {
    let left = this.additive();
    for (;;) {
      const t = this.peek();
      const cmp = t.kind === 'op' ? COMPARISON_OPS[t.value] : undefined;
      if (cmp) {
        this.next();
        const right = this.additive();
        left = { kind: 'binary', op: cmp, left, right, start: left.start, end: right.end };
        continue;
      }
      if (t.kind !== 'keyword') return left;
      if (t.value === 'IS') {
        this.next();
        const negated = this.isKw('NOT');
        if (negated) this.next();
        if (this.isWord('JSON')) {
          left = this.isJson(left, negated);
          continue;
        }
        const end = this.expectKw('NULL', negated ? 'after IS NOT' : 'or NOT NULL after IS').end;
        left = { kind: 'isNull', operand: left, negated, start: left.start, end };
        continue;
      }
      const negated = t.value === 'NOT';
      const op = negated ? this.peek(1) : t;
      if (op.kind !== 'keyword' || !['BETWEEN', 'IN', 'LIKE'].includes(op.value)) {
        if (negated) this.fail(`Expected BETWEEN, IN or LIKE after NOT, found ${describeToken(op)}`, op);
        return left;
      }
      if (negated) this.next();
      this.next();
      left = this.postfixPredicate(op.value, left, negated);
    }
  }

  private postfixPredicate(op: string, operand: ExprNode, negated: boolean): ExprNode {
    const start = operand.start;
    if (op === 'BETWEEN') {
      // Bounds bind tighter than AND so that the AND between them is not read as a conjunction.
      const low = this.additive();
      this.expectKw('AND', `between the bounds of BETWEEN`);
      const high = this.additive();
      return { kind: 'between', operand, low, high, negated, start, end: high.end };
    }
    if (op === 'LIKE') {
      const pattern = this.additive();
      return { kind: 'like', operand, pattern, negated, start, end: pattern.end };
    }
    const open = this.expectOp('(', 'after IN');
    const list = this.argumentList(open, "'('", 'IN list');
    return { kind: 'in', operand, list, negated, start, end: this.previous().end };
  }

  /** Parses `a, b, ...)` after an already consumed '('. */
  private argumentList(open: Token, what: string, emptyName: string | null): ExprNode[] {
    const args: ExprNode[] = [];
    if (this.isOp(')')) {
      if (emptyName) this.fail(`Expected at least one value in the ${emptyName}, found ')'`, this.peek());
      this.next();
      return args;
    }
    for (;;) {
      args.push(this.expression());
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      this.close(')', open, what, "',' or ");
      return args;
    }
  }

  private additive(): ExprNode {
    let left = this.multiplicative();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || (t.value !== '+' && t.value !== '-' && t.value !== '||')) return left;
      this.next();
      const right = this.multiplicative();
      if (t.value === '+' && left.kind === 'string' && right.kind === 'string') {
        this.fail("Operator '+' expected numbers, found two string literals; use || to concatenate strings", t);
      }
      left = { kind: 'binary', op: t.value, left, right, start: left.start, end: right.end };
    }
  }

  private multiplicative(): ExprNode {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || (t.value !== '*' && t.value !== '/' && t.value !== '%')) return left;
      this.next();
      const right = this.unary();
      left = { kind: 'binary', op: t.value, left, right, start: left.start, end: right.end };
    }
  }

  private unary(): ExprNode {
    if (!this.isOp('-')) return this.primary();
    const t = this.next();
    const operand = this.nested(t, () => this.unary());
    return { kind: 'neg', operand, start: t.start, end: operand.end };
  }

  private primary(): ExprNode {
    const t = this.peek();
    const { start, end } = t;
    switch (t.kind) {
      case 'number': {
        this.next();
        return { kind: 'number', value: Number(t.value), text: t.value, integer: !t.value.includes('.'), start, end };
      }
      case 'string':
        this.next();
        return { kind: 'string', value: t.value, start, end };
      case 'ident':
        if (!t.quoted && this.isOp('(', 1)) return this.call();
        return this.field();
      case 'keyword':
        switch (t.value) {
          case 'TRUE':
          case 'FALSE':
            this.next();
            return { kind: 'boolean', value: t.value === 'TRUE', start, end };
          case 'NULL':
            this.next();
            return { kind: 'null', start, end };
          case 'INTERVAL':
            return this.interval();
          case 'CASE':
            return this.caseExpr();
          case 'CAST':
            return this.cast();
        }
        break;
      case 'op':
        if (t.value === '(') {
          this.next();
          const inner = this.expression();
          this.close(')', t, "'('");
          return inner;
        }
        break;
      case 'eof':
        break;
    }
    return this.fail(`Expected an expression, found ${describeToken(t)}`, t);
  }

  private field(): ExprNode {
    const first = this.next();
    const path = [first.value];
    let end = first.end;
    while (this.isOp('.')) {
      this.next();
      const t = this.peek();
      // After a dot any word is a name, so `payload.end` works even though END is a keyword.
      if (t.kind !== 'ident' && t.kind !== 'keyword') this.fail(`Expected a field name after '.', found ${describeToken(t)}`, t);
      this.next();
      path.push(t.kind === 'keyword' ? this.source.slice(t.start, t.end) : t.value);
      end = t.end;
    }
    return { kind: 'field', path, start: first.start, end };
  }

  /** An unquoted name (not a keyword) spelled `word`, as the special forms use FROM, TO, LEADING, units. */
  private isWord(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'ident' && !t.quoted && t.value.toUpperCase() === word;
  }

  /** `x IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT]`, after IS [NOT]. */
  private isJson(operand: ExprNode, negated: boolean): ExprNode {
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
  private specialCall(name: string, nameTok: Token, open: Token): ExprNode | null {
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
    }
    return null;
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

  private call(): ExprNode {
    const nameTok = this.next();
    const name = nameTok.value.toUpperCase();
    if (SPECIAL_FORMS.has(name)) {
      const open = this.next();
      if (this.isOp(')')) this.fail(checkArity(name, 0) ?? `Expected the arguments of ${name}`, nameTok);
      return this.specialCall(name, nameTok, open)!;
    }
    if (!FUNCTION_NAMES.includes(name)) {
      this.fail(`Unknown function '${nameTok.value}'; expected one of ${[...FUNCTION_NAMES, ...SPECIAL_FORMS, 'CAST'].filter((n, i, all) => all.indexOf(n) === i).sort().join(', ')}`, nameTok);
    }
    const open = this.next();
    const args = this.argumentList(open, `'${name}('`, null);
    const arityProblem = checkArity(name, args.length);
    if (arityProblem) this.fail(arityProblem, nameTok);
    return { kind: 'call', name, args, start: nameTok.start, end: this.previous().end };
  }

  private interval(): ExprNode {
    const kw = this.next();
    const amountTok = this.peek();
    if (amountTok.kind !== 'string') this.fail(`Expected a quoted amount after INTERVAL, e.g. INTERVAL '5' SECOND, found ${describeToken(amountTok)}`, amountTok);
    if (!/^[+-]?\d+(\.\d+)?$/.test(amountTok.value)) {
      this.fail(`Expected a number inside the INTERVAL quotes, found ${describeToken(amountTok)}`, amountTok);
    }
    this.next();
    const unitTok = this.peek();
    const unit = unitTok.value.toUpperCase() as IntervalUnit;
    if (unitTok.kind !== 'ident' || unitTok.quoted || !(unit in INTERVAL_MS)) {
      if (['MONTH', 'YEAR', 'QUARTER'].includes(unit)) {
        this.fail(`INTERVAL '${amountTok.value}' ${unit} is a calendar interval of no fixed length; add it with TIMESTAMPADD(${unit}, ${amountTok.value}, ts)`, unitTok);
      }
      this.fail(`Expected SECOND, MINUTE, HOUR or DAY after INTERVAL '${amountTok.value}', found ${describeToken(unitTok)}`, unitTok);
    }
    this.next();
    const millis = Number(amountTok.value) * INTERVAL_MS[unit];
    return { kind: 'interval', amount: amountTok.value, unit, millis, start: kw.start, end: unitTok.end };
  }

  private caseExpr(): ExprNode {
    const kw = this.next();
    const subject = this.isKw('WHEN') ? null : this.expression();
    const branches: CaseBranch[] = [];
    while (this.isKw('WHEN')) {
      this.next();
      const when = this.expression();
      this.expectKw('THEN', 'after the WHEN condition');
      branches.push({ when, then: this.expression() });
    }
    if (branches.length === 0) this.fail(`Expected WHEN in CASE, found ${describeToken(this.peek())}`, this.peek());
    let otherwise: ExprNode | null = null;
    if (this.isKw('ELSE')) {
      this.next();
      otherwise = this.expression();
    }
    const endTok = this.close('END', kw, 'CASE', otherwise ? '' : 'WHEN, ELSE or ');
    return { kind: 'case', subject, branches, otherwise, start: kw.start, end: endTok.end };
  }

  private cast(): ExprNode {
    const kw = this.next();
    const open = this.expectOp('(', 'after CAST');
    const operand = this.expression();
    this.expectKw('AS', 'in CAST(value AS type)');
    const typeTok = this.peek();
    const word = typeTok.value.toUpperCase();
    // TIMESTAMP_LTZ is the same instant in Weir's UTC session zone.
    const target = (word === 'TIMESTAMP_LTZ' ? 'TIMESTAMP' : word) as CastTarget;
    if (typeTok.kind !== 'ident' || typeTok.quoted || !CAST_TARGETS.includes(target)) {
      this.fail(`Expected ${CAST_TARGETS.join(', ')} after AS, found ${describeToken(typeTok)}`, typeTok);
    }
    this.next();
    // TIMESTAMP(3): Weir's timestamps are milliseconds, the only precision it reads.
    if (target === 'TIMESTAMP' && this.isOp('(')) {
      const p = this.next();
      const n = this.peek();
      if (n.kind !== 'number' || n.value !== '3') this.fail(`Expected 3 as the precision of TIMESTAMP (Weir's timestamps are milliseconds), found ${describeToken(n)}`, n);
      this.next();
      this.close(')', p, "'TIMESTAMP('");
    }
    const closeTok = this.close(')', open, "'CAST('");
    return { kind: 'cast', operand, target, start: kw.start, end: closeTok.end };
  }
}
