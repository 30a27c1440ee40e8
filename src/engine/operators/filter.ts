import type { OperatorDefinition } from '../operator.ts';
import type { Element, Row } from '../../core/types.ts';
import { compileExpr } from '../../expr/index.ts';
import { loadCode } from '../codeHost.ts';
import { eachOutcome } from './codeBatches.ts';
import type { FilterParams } from '../../pipeline/kinds/filter.ts';

export const filter: OperatorDefinition<FilterParams> = {
  kind: 'filter',
  create({ ctx, params }) {
    if (params.where !== undefined) {
      const e = compileExpr(params.where);
      const test = (row: Row) => e.evaluate(row) === true;
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
