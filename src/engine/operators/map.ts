import { exprServices } from './exprServices.ts';
import type { OperatorDefinition } from '../operator.ts';
import { derived } from '../../core/origin.ts';
import type { Element, Row } from '../../core/types.ts';
import { compileExpr } from '../../expr/index.ts';
import { loadCode } from '../codeHost.ts';
import { isObject } from './rows.ts';
import { eachOutcome, shapeOf } from './codeBatches.ts';
import type { MapParams } from '../../pipeline/kinds/map.ts';

export const map: OperatorDefinition<MapParams> = {
  kind: 'map',
  create({ ctx, params }) {
    if (params.set) {
      const sets = params.set.map((s) => [s.name, compileExpr(s.expr, exprServices(ctx))] as const);
      return {
        processElement(el) {
          const row: Row = { ...el.row };
          for (const [name, e] of sets) row[name] = e.evaluate(el.row);
          ctx.emit(derived(el, row));
        },
      };
    }
    const code = loadCode({ nodeId: ctx.nodeId, what: 'map code' }, params.code ?? '');
    const processBatch = (els: readonly Element[]) =>
      eachOutcome(code, 'value', els, (el, out) => {
        if (!out.ok) return ctx.deadLetter(out.reason, el.row, el);
        if (!isObject(out.value)) return ctx.deadLetter(`map returned ${shapeOf(out.value)}, not an object (return one record as { field: value, … }; use flatMap for several)`, el.row, el);
        ctx.emit(derived(el, out.value));
      });
    return { processBatch, processElement: (el) => processBatch([el]) };
  },
};
