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
  const wrapped = `(${code}\n)`;
  let js: string;
  try {
    js = transform(wrapped, { transforms: ['typescript'], disableESTransforms: true }).code;
  } catch (e) {
    // Sucrase backtracks out of a broken arrow function and blames its `=>`. When acorn (plain JS)
    // gets further into the code, its location is the real one; when it stops earlier, it is
    // only tripping over TypeScript syntax, and sucrase's location stands.
    const plain = acornError(wrapped);
    if (plain && !isBefore(locOf(plain, 0), locOf(e, 1))) throw syntaxError(plain, 0, code);
    throw syntaxError(e, 1, code);
  }
  try {
    parse(js, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch (e) {
    throw syntaxError(e, 0, code);
  }
  return js;
}

type Loc = { line: number; column: number } | undefined;
/** The error's place with a 0-based column; acorn counts columns from 0, sucrase from 1. */
function locOf(e: unknown, base: 0 | 1): Loc {
  const loc = (e as { loc?: Loc }).loc;
  return loc && { line: loc.line, column: loc.column - base };
}
const isBefore = (a: Loc, b: Loc): boolean => !!a && !!b && (a.line < b.line || (a.line === b.line && a.column < b.column));

function acornError(js: string): unknown {
  try {
    parse(js, { ecmaVersion: 'latest', sourceType: 'script' });
    return null;
  } catch (e) {
    return e;
  }
}

/** Maps a parser error in the wrapped text (0-based columns, one '(' added before line 1) to the user's line and 1-based column. */
function syntaxError(e: unknown, base: 0 | 1, code: string): UdfError {
  const message = `does not parse: ${(e as Error).message.replace(/\s*\(\d+:\d+\)$/, '')}`;
  const loc = locOf(e, base);
  if (!loc) return new UdfError(message, 1, 1);
  const lines = code.split('\n');
  // Past the user's last line means the wrapper's closing ')': the code ended too early.
  if (loc.line > lines.length) return new UdfError('does not parse: it ends too early; something is left open or unfinished', lines.length, lines[lines.length - 1].length + 1);
  return new UdfError(message, loc.line, loc.line === 1 ? Math.max(1, loc.column) : loc.column + 1);
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
