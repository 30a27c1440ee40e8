/** An import error: where (1-based line and column), in which construct, and what is wrong. */
export class ImportError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    /** The SQL construct at fault, e.g. `CREATE TABLE`, `JOIN`, `LIMIT`. */
    readonly construct: string,
    readonly detail: string,
  ) {
    super(`line ${line}, column ${column}: ${construct}: ${detail}`);
  }
}

export interface ImportProblem {
  line: number;
  column: number;
  construct: string;
  message: string;
}

export const toProblem = (e: ImportError): ImportProblem => ({ line: e.line, column: e.column, construct: e.construct, message: e.detail });

export interface ImportWarning {
  line: number;
  message: string;
}
