/**
 * Prints an AST as Flink SQL. The output is canonical: parsing it again and printing gives the
 * same text, so it can be stored, diffed and compared.
 *
 * Known semantic gaps an export user should be aware of:
 * - `/` on two integers is integer division in Flink but plain division here (see compile.ts).
 * - INTERVAL evaluates to milliseconds here, while Flink types it as an interval; it is only
 *   meaningful in Flink when added to or subtracted from a timestamp.
 * - CAST of invalid input yields NULL here but fails in Flink (use TRY_CAST there if needed).
 */
import { type BinaryNode, type CallNode, type ExprNode, PREC, precedenceOf } from './ast.ts';

export const quoteIdent = (name: string): string => '`' + name.replace(/`/g, '``') + '`';
export const quoteString = (s: string): string => "'" + s.replace(/'/g, "''") + "'";

export function printSql(node: ExprNode): string {
  switch (node.kind) {
    case 'number':
      return node.text;
    case 'string':
      return quoteString(node.value);
    case 'boolean':
      return node.value ? 'TRUE' : 'FALSE';
    case 'null':
      return 'NULL';
    case 'interval':
      return `INTERVAL ${quoteString(node.amount)} ${node.unit}`;
    case 'field':
      return node.path.map(quoteIdent).join('.');
    case 'neg':
      // `- -x` would be fine but `--x` starts a comment, so nested negation is always parenthesised.
      return '-' + wrap(node.operand, precedenceOf(node.operand) < PREC.unary || node.operand.kind === 'neg');
    case 'not':
      return 'NOT ' + wrap(node.operand, precedenceOf(node.operand) < PREC.not);
    case 'binary':
      return printBinary(node);
    case 'isNull':
      return `${tight(node.operand)} IS ${node.negated ? 'NOT ' : ''}NULL`;
    case 'between':
      return `${tight(node.operand)} ${not(node.negated)}BETWEEN ${tight(node.low)} AND ${tight(node.high)}`;
    case 'in':
      return `${tight(node.operand)} ${not(node.negated)}IN (${node.list.map(printSql).join(', ')})`;
    case 'like':
      return `${tight(node.operand)} ${not(node.negated)}LIKE ${tight(node.pattern)}`;
    case 'case': {
      let out = 'CASE';
      if (node.subject) out += ' ' + printSql(node.subject);
      for (const b of node.branches) out += ` WHEN ${printSql(b.when)} THEN ${printSql(b.then)}`;
      if (node.otherwise) out += ` ELSE ${printSql(node.otherwise)}`;
      return out + ' END';
    }
    case 'call':
      // Flink has IF, but CASE is standard SQL and reads the same in every engine.
      if (node.name === 'IF') {
        const [c, a, b] = node.args.map(printSql);
        return `CASE WHEN ${c} THEN ${a} ELSE ${b} END`;
      }
      return printCall(node);
    case 'cast':
      return `CAST(${printSql(node.operand)} AS ${node.target === 'TIMESTAMP' ? 'TIMESTAMP(3)' : node.target})`;
  }
}

/** Calls, in the SQL form each special one has (the parser reads exactly these back). */
function printCall(node: CallNode): string {
  const a = node.args.map(printSql);
  const k = node.keyword;
  switch (node.name) {
    case 'TRIM':
      if (!k) break;
      return `TRIM(${k}${a[1] !== undefined ? ' ' + a[1] : ''} FROM ${a[0]})`;
    case 'POSITION':
      return `POSITION(${wrap(node.args[0], precedenceOf(node.args[0]) <= PREC.comparison)} IN ${a[1]})`;
    case 'EXTRACT':
      return `EXTRACT(${k} FROM ${a[0]})`;
    case 'FLOOR':
    case 'CEIL':
      if (!k) break;
      return `${node.name}(${a[0]} TO ${k})`;
    case 'TIMESTAMPADD':
    case 'TIMESTAMPDIFF':
      return `${node.name}(${k}, ${a[0]}, ${a[1]})`;
    case 'IS_JSON':
      return `${tight(node.args[0])} IS JSON${k ? ' ' + k : ''}`;
    case 'OVERLAY':
      return `OVERLAY(${a[0]} PLACING ${a[1]} FROM ${a[2]}${a[3] !== undefined ? ` FOR ${a[3]}` : ''})`;
    case 'ITEM': {
      const base = wrap(node.args[0], precedenceOf(node.args[0]) < PREC.primary);
      const name = node.args[1];
      return k === 'FIELD' && name.kind === 'string' ? `${base}.${quoteIdent(name.value)}` : `${base}[${a[1]}]`;
    }
    case 'ARRAY':
    case 'MAP':
      return `${node.name}[${a.join(', ')}]`;
    case 'JSON_OBJECT':
    case 'JSON_ARRAY': {
      const entries = node.name === 'JSON_ARRAY' ? a : a.flatMap((x, i) => (i % 2 === 0 ? [`KEY ${x} VALUE ${a[i + 1]}`] : []));
      return `${node.name}(${entries.join(', ')}${k ? `${entries.length ? ' ' : ''}${k} ON NULL` : ''})`;
    }
  }
  return `${node.name}(${a.join(', ')})`;
}

const not = (negated: boolean): string => (negated ? 'NOT ' : '');
const wrap = (node: ExprNode, parens: boolean): string => (parens ? `(${printSql(node)})` : printSql(node));

/**
 * Operands of comparison-level operators are parenthesised whenever they are comparison-level (or
 * looser) themselves: SQL engines disagree on chaining such as `a = b = c`, so never rely on it.
 */
const tight = (node: ExprNode): string => wrap(node, precedenceOf(node) <= PREC.comparison);

const isConcat = (node: ExprNode): boolean => node.kind === 'binary' && node.op === '||';
const isArithmetic = (node: ExprNode): boolean =>
  node.kind === 'binary' && (node.op === '+' || node.op === '-' || node.op === '*' || node.op === '/' || node.op === '%');

function printBinary(node: BinaryNode): string {
  const p = precedenceOf(node);
  if (p === PREC.comparison) return `${tight(node.left)} ${node.op} ${tight(node.right)}`;
  return `${wrap(node.left, needsParens(node, node.left, p, false))} ${node.op} ${wrap(node.right, needsParens(node, node.right, p, true))}`;
}

function needsParens(parent: BinaryNode, child: ExprNode, p: number, right: boolean): boolean {
  const c = precedenceOf(child);
  if (c < p) return true;
  // All binary operators are left-associative, so an equal-precedence right operand was grouped.
  if (c === p && right) return true;
  // Calcite (Flink's parser) ranks || with * rather than with + -, so never mix them unbracketed.
  return (isConcat(parent) && isArithmetic(child)) || (isArithmetic(parent) && isConcat(child));
}
