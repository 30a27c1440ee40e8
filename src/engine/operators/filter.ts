import { exprServices } from './exprServices.ts';
import type { OperatorDefinition } from '../operator.ts';
import type { Element, Row } from '../../core/types.ts';
import { compileExpr } from '../../expr/index.ts';
import { loadCode } from '../codeHost.ts';
import { eachOutcome } from './codeBatches.ts';
import type { FilterParams } from '../../pipeline/kinds/filter.ts';
import { compiledFunction } from '../../core/objectLiteral.ts';
import { EXPR_JS_LOCALS, type Evaluator, exprJs } from '../../expr/compile.ts';
import type { CompiledExpr } from '../../expr/index.ts';

export const filter: OperatorDefinition<FilterParams> = {
  kind: 'filter',
  create({ ctx, params }) {
    if (params.where !== undefined) {
      const test = wherePredicate(compileExpr(params.where, exprServices(ctx)));
      return {
        processElement(el) {
          if (test(el.row)) ctx.emit(el);
        },
      };
    }
    const code = loadCode({ nodeId: ctx.nodeId, what: 'filter code' }, params.code ?? '');
    const processBatch = (els: readonly Element[]) =>
      eachOutcome(code, 'test', els, (el, out) => {
        if (!out.ok) return ctx.deadLetter(out.reason, el.row, el);
        if (out.value === true) ctx.emit(el);
      });
    return { processBatch, processElement: (el) => processBatch([el]) };
  },
};

/**
 * SQL's WHERE: a row passes when its condition is TRUE (not FALSE, not NULL). A condition exprJs
 * can write (`event_type = 2`) is compiled into the predicate; any other calls its evaluator.
 */
export function wherePredicate(e: CompiledExpr): (row: Row) => boolean {
  const evaluate = e.evaluate;
  const js = exprJs(e.ast, 'e(r)');
  const compiled = js === null ? null : compiledFunction<(e: Evaluator, r: Row) => boolean>(['e', 'r'], `return ${js} === true;`, EXPR_JS_LOCALS);
  return compiled ? (row) => compiled(evaluate, row) : (row) => evaluate(row) === true;
}
