import type { ExprNode } from './ast.ts';
import { ExprError } from './errors.ts';

/**
 * Guards on the shape of a parsed tree. Every walk over an expression (type check, compile,
 * evaluate, export) recurses, so a tree must stay shallow enough for the stack: long AND / OR
 * chains are built balanced, and any other over-deep tree is refused with its position. Kept
 * apart from the grammar because they are about the tree the parser returns, not the text it reads.
 */

/** Deeper trees than this would overflow the stack of the walks over them (type check, compile, evaluate). */
const MAX_TREE_DEPTH = 1000;

/**
 * Loops build chains such as `a + b + c …` without nesting, so the parser's own depth guard does
 * not see them; a chain of many thousand terms would then blow the stack later. Measured here
 * without recursion, and refused by position with a way out.
 */
export function checkDepth(root: ExprNode, source: string): void {
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
export function chain(op: 'AND' | 'OR', terms: ExprNode[]): ExprNode {
  const join = (left: ExprNode, right: ExprNode): ExprNode => ({ kind: 'binary', op, left, right, start: left.start, end: right.end });
  if (terms.length < BALANCE_FROM) return terms.reduce(join);
  const build = (from: number, to: number): ExprNode => (to - from === 1 ? terms[from] : join(build(from, (from + to) >>> 1), build((from + to) >>> 1, to)));
  return build(0, terms.length);
}
