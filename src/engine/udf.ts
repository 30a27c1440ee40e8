import { transform } from 'sucrase';
import { parse } from 'acorn';

export class UdfError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/**
 * User code is one JavaScript or TypeScript expression: an arrow function, a function
 * expression, or (for process functions and aggregate UDFs) an object literal.
 * Types are stripped by sucrase (which keeps line numbers), then acorn checks the syntax
 * so errors carry a line and column.
 */
export function transpileUdf(code: string): string {
  if (code.trim() === '') throw new UdfError('the code is empty', 1, 1);
  let js: string;
  try {
    js = transform(`(${code}\n)`, { transforms: ['typescript'], disableESTransforms: true }).code;
  } catch (e) {
    const loc = (e as { loc?: { line: number; column: number } }).loc;
    throw new UdfError(`does not parse: ${(e as Error).message.replace(/\s*\(\d+:\d+\)$/, '')}`, loc?.line ?? 1, (loc?.column ?? 1) + 1);
  }
  try {
    parse(js, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch (e) {
    const loc = (e as { loc?: { line: number; column: number } }).loc;
    // The wrapper added one '(' before the user's first line.
    const column = loc ? (loc.line === 1 ? loc.column : loc.column + 1) : 1;
    throw new UdfError(`does not parse: ${(e as Error).message.replace(/\s*\(\d+:\d+\)$/, '')}`, loc?.line ?? 1, column);
  }
  return js;
}

/** Only checks that the code parses; it runs nothing (the main thread never runs user code). */
export function checkUdf(code: string): UdfError | null {
  try {
    transpileUdf(code);
    return null;
  } catch (e) {
    return e instanceof UdfError ? e : new UdfError(String((e as Error).message), 1, 1);
  }
}

/** Evaluates the code to its value (a function or an object). Runtimes call this inside workers. */
export function loadUdf<T>(code: string): T {
  const js = transpileUdf(code);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function(`"use strict";\nreturn ${js};`)() as T;
}

export function loadFunction<F extends (...args: never[]) => unknown>(code: string, what: string): F {
  const f = loadUdf<unknown>(code);
  if (typeof f !== 'function') throw new UdfError(`${what} must be a function, such as (row) => ...`, 1, 1);
  return f as F;
}
