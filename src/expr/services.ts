import type { FieldType } from './ast.ts';

/**
 * What an expression may know besides its row: the clock of the operator that evaluates it, and
 * the declared types of its input. Built-ins that need them (CURRENT_WATERMARK; CAST of a DOUBLE to
 * STRING) take them while the expression is compiled, so the evaluator stays a plain
 * `(row) => value` and rows never carry operator state.
 */
export interface ExprServices {
  /** The operator's input watermark in epoch milliseconds; -Infinity before the first one. */
  currentWatermark(): number;
  /** The input's field types, where the pipeline declares them. */
  readonly inputTypes?: Record<string, FieldType> | null;
}

let compiling: ExprServices | null = null;

/** Runs `compile` with `services` visible to the built-ins it compiles (compilation is synchronous). */
export function compilingWith<T>(services: ExprServices | undefined, compile: () => T): T {
  const outer = compiling;
  compiling = services ?? null;
  try {
    return compile();
  } finally {
    compiling = outer;
  }
}

/** The services of the expression being compiled, or null outside an operator (import, validation, constants). */
export const compilingServices = (): ExprServices | null => compiling;
