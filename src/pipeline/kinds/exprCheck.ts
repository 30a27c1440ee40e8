import type { StreamInfo } from '../../core/streamInfo.ts';
import { compileExpr, ExprError } from '../../expr/index.ts';
import type { InferProblem } from './common.ts';

/** Parse errors and unknown fields of a SQL expression param, with line and column. */
export function exprProblems(source: string, input: StreamInfo | undefined, path: string): InferProblem[] {
  try {
    const e = compileExpr(source);
    if (!input?.fields) return [];
    return e.fields
      .filter((f) => !(f in input.fields!))
      .map((f) => ({ field: path, message: `expression reads "${f}", which is not a field upstream; known fields: ${Object.keys(input.fields!).join(', ')}`, code: 'unknown-field' }));
  } catch (err) {
    if (err instanceof ExprError) return [{ field: path, message: `expression does not parse: ${err.message}`, code: 'bad-expression' }];
    throw err;
  }
}
