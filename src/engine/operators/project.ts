import { exprServices } from './exprServices.ts';
import type { OperatorDefinition } from '../operator.ts';
import { derived } from '../../core/origin.ts';
import type { Row } from '../../core/types.ts';
import { objectLiteralFunction } from '../../core/objectLiteral.ts';
import { compileExpr } from '../../expr/index.ts';
import { EXPR_JS_LOCALS, type Evaluator, exprJs } from '../../expr/compile.ts';
import type { ExprNode } from '../../expr/ast.ts';
import type { ProjectParams } from '../../pipeline/kinds/project.ts';

export const project: OperatorDefinition<ProjectParams> = {
  kind: 'project',
  create({ ctx, params }) {
    const exprs = params.fields.map((f) => compileExpr(f.expr, exprServices(ctx)));
    const build = projection(
      params.fields.map((f) => f.name),
      exprs.map((e) => e.evaluate),
      exprs.map((e) => e.ast),
    );
    return {
      processElement(el) {
        ctx.emit(derived(el, build(el.row)));
      },
    };
  },
};

type Projection = (row: Row) => Row;

/**
 * The output row of each input row, NULL for a missing value: one compiled object literal where
 * code can be compiled, which reads plain fields (`a`, `a.b`: most of what projections hold) and
 * computes arithmetic on them (`0.908 * bid.price`) itself (exprJs) and calls the evaluators for the rest; field by field otherwise (the same row either way).
 */
export function projection(names: readonly string[], evals: readonly Evaluator[], asts: readonly ExprNode[]): Projection {
  const value = (k: number) => {
    const call = `(e[${k}](r) ?? null)`;
    return exprJs(asts[k], call) ?? call;
  };
  const literal = objectLiteralFunction<(e: readonly Evaluator[], row: Row) => Row>(['e', 'r'], names, value, EXPR_JS_LOCALS);
  return literal ? (row) => literal(evals, row) : fieldByField(names, evals);
}

/** The projection built one field at a time, where no literal can be compiled. */
export function fieldByField(names: readonly string[], evals: readonly Evaluator[]): Projection {
  return (row) => {
    const out: Row = {};
    for (let k = 0; k < names.length; k++) out[names[k]] = evals[k](row) ?? null;
    return out;
  };
}
