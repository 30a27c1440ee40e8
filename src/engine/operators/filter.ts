import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../types.ts';
import { compileExpr } from '../expr/index.ts';
import { loadFunction } from '../udf.ts';
import type { FilterParams } from '../../pipeline/kinds/filter.ts';

export const filter: OperatorDefinition<FilterParams> = {
  kind: 'filter',
  create({ ctx, params }) {
    const test: (row: Row) => unknown =
      params.where !== undefined ? ((e) => (row: Row) => e.evaluate(row) === true)(compileExpr(params.where)) : loadFunction(params.code ?? '', 'filter code');
    return {
      processElement(el) {
        if (test(el.row)) ctx.emit(el);
      },
    };
  },
};
