/**
 * The expression AST. Every node carries the source offsets it was parsed from so that
 * later passes (function checks, literal checks) can report errors at the right place.
 */

export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'timestamp' | 'json';

export type ArithmeticOp = '+' | '-' | '*' | '/' | '%';
export type ComparisonOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
/** `!=` is normalised to `<>` by the parser, so the AST (and the SQL) only has one spelling. */
export type BinaryOp = ArithmeticOp | ComparisonOp | '||' | 'AND' | 'OR';

export type IntervalUnit = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY';
export type CastTarget = 'STRING' | 'DOUBLE' | 'BIGINT' | 'BOOLEAN' | 'DATE' | 'TIMESTAMP';

interface NodeBase {
  /** 0-based offset of the first character of the node in the source. */
  start: number;
  /** 0-based offset just past the node. */
  end: number;
}

export interface NumberNode extends NodeBase {
  kind: 'number';
  value: number;
  /** The literal as written; printed back verbatim so huge or precise literals survive export. */
  text: string;
  integer: boolean;
}
export interface StringNode extends NodeBase {
  kind: 'string';
  value: string;
}
export interface BooleanNode extends NodeBase {
  kind: 'boolean';
  value: boolean;
}
export interface NullNode extends NodeBase {
  kind: 'null';
}
export interface IntervalNode extends NodeBase {
  kind: 'interval';
  /** The quoted amount exactly as written, e.g. '5' or '1.5'. */
  amount: string;
  unit: IntervalUnit;
  /** The interval in milliseconds, which is what it evaluates to. */
  millis: number;
}
export interface FieldNode extends NodeBase {
  kind: 'field';
  /** `a.b.c` is ['a', 'b', 'c']; the first element is the row's top-level field. */
  path: string[];
}
export interface NegNode extends NodeBase {
  kind: 'neg';
  operand: ExprNode;
}
export interface NotNode extends NodeBase {
  kind: 'not';
  operand: ExprNode;
}
export interface BinaryNode extends NodeBase {
  kind: 'binary';
  op: BinaryOp;
  left: ExprNode;
  right: ExprNode;
}
export interface IsNullNode extends NodeBase {
  kind: 'isNull';
  operand: ExprNode;
  negated: boolean;
}
export interface BetweenNode extends NodeBase {
  kind: 'between';
  operand: ExprNode;
  low: ExprNode;
  high: ExprNode;
  negated: boolean;
}
export interface InNode extends NodeBase {
  kind: 'in';
  operand: ExprNode;
  list: ExprNode[];
  negated: boolean;
}
export interface LikeNode extends NodeBase {
  kind: 'like';
  operand: ExprNode;
  pattern: ExprNode;
  negated: boolean;
}
export interface CaseBranch {
  when: ExprNode;
  then: ExprNode;
}
export interface CaseNode extends NodeBase {
  kind: 'case';
  /** `CASE x WHEN ...` has a subject; the searched form `CASE WHEN cond ...` has null. */
  subject: ExprNode | null;
  branches: CaseBranch[];
  otherwise: ExprNode | null;
}
export interface CallNode extends NodeBase {
  kind: 'call';
  /** Upper-cased function name. */
  name: string;
  args: ExprNode[];
  /**
   * The word of a special form: the unit of EXTRACT(HOUR FROM ts), FLOOR(ts TO DAY),
   * TIMESTAMPADD(HOUR, n, ts); the side of TRIM(LEADING … FROM s); the kind of `s IS JSON OBJECT`.
   */
  keyword?: string;
}
export interface CastNode extends NodeBase {
  kind: 'cast';
  operand: ExprNode;
  target: CastTarget;
}

export type ExprNode =
  | NumberNode
  | StringNode
  | BooleanNode
  | NullNode
  | IntervalNode
  | FieldNode
  | NegNode
  | NotNode
  | BinaryNode
  | IsNullNode
  | BetweenNode
  | InNode
  | LikeNode
  | CaseNode
  | CallNode
  | CastNode;

/** Binding strength, loosest first. Shared by the parser and the SQL printer so they cannot drift apart. */
export const PREC = {
  or: 1,
  and: 2,
  not: 3,
  comparison: 4,
  additive: 5,
  multiplicative: 6,
  unary: 7,
  primary: 8,
} as const;

export function precedenceOf(node: ExprNode): number {
  switch (node.kind) {
    case 'binary':
      switch (node.op) {
        case 'OR':
          return PREC.or;
        case 'AND':
          return PREC.and;
        case '+':
        case '-':
        case '||':
          return PREC.additive;
        case '*':
        case '/':
        case '%':
          return PREC.multiplicative;
        default:
          return PREC.comparison;
      }
    case 'not':
      return PREC.not;
    case 'isNull':
    case 'between':
    case 'in':
    case 'like':
      return PREC.comparison;
    case 'neg':
      return PREC.unary;
    case 'call':
      return node.name === 'IS_JSON' ? PREC.comparison : PREC.primary;
    default:
      return PREC.primary;
  }
}

/** Direct sub-expressions in source order, for walkers that do not care about node kinds. */
export function childrenOf(node: ExprNode): ExprNode[] {
  switch (node.kind) {
    case 'neg':
    case 'not':
    case 'isNull':
    case 'cast':
      return [node.operand];
    case 'binary':
      return [node.left, node.right];
    case 'between':
      return [node.operand, node.low, node.high];
    case 'in':
      return [node.operand, ...node.list];
    case 'like':
      return [node.operand, node.pattern];
    case 'case': {
      const out = node.subject ? [node.subject] : [];
      for (const b of node.branches) out.push(b.when, b.then);
      if (node.otherwise) out.push(node.otherwise);
      return out;
    }
    case 'call':
      return node.args;
    default:
      return [];
  }
}

/** A copy of the node with each direct sub-expression replaced by `f` of it (rewriters over any kind). */
export function mapChildren(node: ExprNode, f: (child: ExprNode) => ExprNode): ExprNode {
  switch (node.kind) {
    case 'neg':
    case 'not':
    case 'isNull':
    case 'cast':
      return { ...node, operand: f(node.operand) };
    case 'binary':
      return { ...node, left: f(node.left), right: f(node.right) };
    case 'between':
      return { ...node, operand: f(node.operand), low: f(node.low), high: f(node.high) };
    case 'in':
      return { ...node, operand: f(node.operand), list: node.list.map(f) };
    case 'like':
      return { ...node, operand: f(node.operand), pattern: f(node.pattern) };
    case 'case':
      return { ...node, subject: node.subject && f(node.subject), branches: node.branches.map((b) => ({ ...b, when: f(b.when), then: f(b.then) })), otherwise: node.otherwise && f(node.otherwise) };
    case 'call':
      return { ...node, args: node.args.map(f) };
    default:
      return node;
  }
}

/** Top-level fields read by the expression, deduplicated, in first-seen (left-to-right) order. */
export function collectFields(root: ExprNode): string[] {
  const seen = new Set<string>();
  const visit = (node: ExprNode): void => {
    if (node.kind === 'field') seen.add(node.path[0]);
    for (const child of childrenOf(node)) visit(child);
  };
  visit(root);
  return [...seen];
}
