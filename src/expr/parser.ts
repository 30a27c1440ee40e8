import type { BinaryOp, CaseBranch, CastTarget, ExprNode, IntervalUnit } from './ast.ts';
import { ExprError } from './errors.ts';
import { FUNCTION_NAMES, checkArity } from './functions.ts';
import { type Token, describeToken, tokenize } from './lexer.ts';
import { SPECIAL_FORMS, SpecialFormReader } from './specialForms.ts';
import { chain, checkDepth } from './treeShape.ts';

const COMPARISON_OPS: Readonly<Record<string, BinaryOp>> = {
  '=': '=', '<>': '<>', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=',
};
const INTERVAL_MS: Readonly<Record<IntervalUnit, number>> = {
  SECOND: 1_000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000,
};
const CAST_TARGETS: readonly CastTarget[] = ['STRING', 'DOUBLE', 'BIGINT', 'BOOLEAN', 'DATE', 'TIMESTAMP'];

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

/**
 * The expression grammar, by precedence: OR, AND, NOT, comparisons and postfix predicates
 * (IS, BETWEEN, IN, LIKE), + - ||, * / %, unary minus, then primaries (literals, fields, calls,
 * INTERVAL, CASE, CAST). Token plumbing is TokenCursor's, the special call forms are
 * SpecialFormReader's, and the shape guards on the finished tree are treeShape.ts's.
 */
class Parser extends SpecialFormReader {
  expression(): ExprNode {
    return this.nested(this.peek(), () => this.or());
  }

  private or(): ExprNode {
    return this.joined('OR', () => this.and());
  }

  private and(): ExprNode {
    return this.joined('AND', () => this.not());
  }

  /** `term (OR term)*` or `term (AND term)*`, joined as chain() builds it. */
  private joined(op: 'AND' | 'OR', term: () => ExprNode): ExprNode {
    const terms = [term()];
    while (this.isKw(op)) {
      this.next();
      terms.push(term());
    }
    return chain(op, terms);
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
  private argumentList(open: Token, what: string, emptyName: string | null, closer = ')'): ExprNode[] {
    const args: ExprNode[] = [];
    if (this.isOp(closer)) {
      if (emptyName) this.fail(`Expected at least one value in the ${emptyName}, found '${closer}'`, this.peek());
      this.next();
      return args;
    }
    for (;;) {
      args.push(this.expression());
      if (this.isOp(',')) {
        this.next();
        continue;
      }
      this.close(closer, open, what, "',' or ");
      return args;
    }
  }

  protected additive(): ExprNode {
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
    if (!this.isOp('-')) return this.subscripts(this.primary());
    const t = this.next();
    const operand = this.nested(t, () => this.unary());
    return { kind: 'neg', operand, start: t.start, end: operand.end };
  }

  /**
   * `a[i]`, `m['k']`, `a[i][j]`, `a[i].name`: Flink's element access, read as ITEM(container,
   * index); a name after a subscript is ITEM with the name and the FIELD word, printed back with its dot.
   */
  private subscripts(base: ExprNode): ExprNode {
    let node = base;
    while (this.isOp('[') || (node !== base && this.isOp('.'))) {
      if (this.isOp('.')) {
        this.next();
        const t = this.peek();
        if (t.kind !== 'ident' && t.kind !== 'keyword') this.fail(`Expected a field name after '.', found ${describeToken(t)}`, t);
        this.next();
        const name: ExprNode = { kind: 'string', value: t.kind === 'keyword' ? this.source.slice(t.start, t.end) : t.value, start: t.start, end: t.end };
        node = { kind: 'call', name: 'ITEM', args: [node, name], keyword: 'FIELD', start: node.start, end: t.end };
        continue;
      }
      this.next();
      const index = this.expression();
      const end = this.expectOp(']', 'after the index in a[i] (arrays count from 1) or the key in m[\'key\']').end;
      node = { kind: 'call', name: 'ITEM', args: [node, index], start: node.start, end };
    }
    return node;
  }

  private primary(): ExprNode {
    const t = this.peek();
    const { start, end } = t;
    switch (t.kind) {
      case 'number': {
        this.next();
        return { kind: 'number', value: Number(t.value), text: t.value, integer: /^\d+$/.test(t.value), start, end };
      }
      case 'string':
        this.next();
        return { kind: 'string', value: t.value, start, end };
      case 'ident':
        if (!t.quoted && this.isOp('[', 1) && /^(ARRAY|MAP)$/i.test(t.value)) return this.constructorCall();
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

  private call(): ExprNode {
    const nameTok = this.next();
    const name = nameTok.value.toUpperCase();
    if (SPECIAL_FORMS.has(name)) {
      const open = this.next();
      const none = this.isOp(')') ? checkArity(name, 0) : null;
      if (none) this.fail(none, nameTok);
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

  /** `ARRAY[a, b]` and `MAP[k1, v1, k2, v2]`: Flink's value constructors (ARRAY and MAP are reserved words there). */
  private constructorCall(): ExprNode {
    const nameTok = this.next();
    const name = nameTok.value.toUpperCase();
    const open = this.next();
    const args = this.argumentList(open, `'${name}['`, `${name}[…]`, ']');
    if (name === 'MAP' && args.length % 2 !== 0) this.fail(`Expected keys and values in pairs in MAP[k1, v1, …], found ${args.length} value${args.length === 1 ? '' : 's'}`, nameTok);
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
