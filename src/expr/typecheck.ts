/**
 * Static result types. This is a best-effort inference for the designer (column lists, export
 * schemas), not a type checker: it never rejects an expression, it answers null when unsure.
 */
import type { ExprNode, FieldType } from './ast.ts';
import { callType, firstKnown } from './functions.ts';

export type FieldTypes = Record<string, FieldType> | null;

export function typeOfNode(node: ExprNode, fields: FieldTypes): FieldType | null {
  switch (node.kind) {
    case 'number':
      return node.integer ? 'integer' : 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'null':
      return null;
    case 'interval':
      return Number.isInteger(node.millis) ? 'integer' : 'number';
    case 'field': {
      if (!fields) return null;
      // A nested path is only known when the map spells it out, e.g. { 'payload.id': 'string' }.
      const key = node.path.join('.');
      return Object.hasOwn(fields, key) ? fields[key] : null;
    }
    case 'neg':
      return typeOfNode(node.operand, fields) === 'integer' ? 'integer' : 'number';
    case 'not':
    case 'isNull':
    case 'between':
    case 'in':
    case 'like':
      return 'boolean';
    case 'binary': {
      switch (node.op) {
        case '||':
          return 'string';
        case '+':
        case '-': {
          // A DATE ('yyyy-MM-dd' text) shifted by an INTERVAL stays a DATE.
          const dateSide = node.right.kind === 'interval' ? node.left : node.op === '+' && node.left.kind === 'interval' ? node.right : null;
          if (dateSide && typeOfNode(dateSide, fields) === 'string') return 'string';
          return arithmeticType(node.op, typeOfNode(node.left, fields), typeOfNode(node.right, fields));
        }
        case '*':
        case '/':
        case '%':
          return arithmeticType(node.op, typeOfNode(node.left, fields), typeOfNode(node.right, fields));
        default:
          return 'boolean';
      }
    }
    case 'case': {
      const branches = node.branches.map((b) => typeOfNode(b.then, fields));
      if (node.otherwise) branches.push(typeOfNode(node.otherwise, fields));
      return firstKnown(branches);
    }
    case 'call':
      return callType(
        node.name,
        node.args.map((a) => typeOfNode(a, fields)),
        node.keyword,
      );
    case 'cast':
      return CAST_TYPES[node.target];
  }
}

const CAST_TYPES = { STRING: 'string', DOUBLE: 'number', BIGINT: 'integer', BOOLEAN: 'boolean', DATE: 'string', TIMESTAMP: 'timestamp' } as const;

function arithmeticType(op: string, l: FieldType | null, r: FieldType | null): FieldType {
  const numericR = r === 'integer' || r === 'number';
  // Timestamps are epoch milliseconds, so `ts + INTERVAL '5' SECOND` is still a timestamp.
  if (l === 'timestamp' && numericR && (op === '+' || op === '-')) return 'timestamp';
  if (r === 'timestamp' && (l === 'integer' || l === 'number') && op === '+') return 'timestamp';
  if (l === 'timestamp' && r === 'timestamp' && op === '-') return 'integer';
  if (l === 'integer' && r === 'integer' && op !== '/') return 'integer';
  return 'number';
}
