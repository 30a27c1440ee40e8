/**
 * A small SQL expression language for filter/project/map operators, evaluated in the browser
 * runtime and exported verbatim (via toSql) to Flink SQL.
 *
 * A filter keeps a row only when evaluate() returns exactly `true`: NULL (unknown) counts as false,
 * as in SQL's WHERE. evaluate() itself returns null for unknown, never undefined.
 */
import { type ExprNode, type FieldType, collectFields } from './ast.ts';
import { compileNode } from './compile.ts';
import { parseExpr } from './parser.ts';
import { printSql } from './sql.ts';
import { type ExprServices, compilingWith } from './services.ts';
import { typeOfNode } from './typecheck.ts';

export type {
  ArithmeticOp,
  BinaryOp,
  CaseBranch,
  CastTarget,
  ComparisonOp,
  ExprNode,
  FieldType,
  IntervalUnit,
} from './ast.ts';
export { ExprError } from './errors.ts';
export type { ExprServices } from './services.ts';
export { FUNCTION_NAMES } from './functions.ts';
export { parseExpr } from './parser.ts';

export interface CompiledExpr {
  source: string;
  /** The parsed tree, for callers that want to inspect the expression. */
  ast: ExprNode;
  /** Fields the expression reads (deduplicated, in first-seen order). */
  fields: string[];
  evaluate(row: Record<string, unknown>): unknown;
  /** Flink SQL text; identifiers are backtick-quoted (`amount`), strings single-quoted with '' escaping. */
  toSql(): string;
  /** Static type given the input field types, or null when unknown. */
  typeOf(fields: Record<string, FieldType> | null): FieldType | null;
}

/**
 * Parses and compiles once; the returned evaluate() is meant to be called per row. Throws ExprError.
 * An operator passes its context as `services`, for the built-ins that read its clock.
 */
export function compileExpr(source: string, services?: ExprServices): CompiledExpr {
  const ast = parseExpr(source);
  const evaluate = compilingWith(services, () => compileNode(ast));
  let sql: string | null = null;
  return {
    source,
    ast,
    fields: collectFields(ast),
    evaluate,
    toSql: () => (sql ??= printSql(ast)),
    typeOf: (fields) => typeOfNode(ast, fields),
  };
}

/** Top-level fields an expression reads, without compiling it. Throws ExprError on bad syntax. */
export function fieldRefs(source: string): string[] {
  return collectFields(parseExpr(source));
}
