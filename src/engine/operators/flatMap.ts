import type { OperatorDefinition } from '../operator.ts';
import { derived } from '../../core/origin.ts';
import type { Element } from '../../core/types.ts';
import { loadCode } from '../codeHost.ts';
import { isObject } from './rows.ts';
import { eachOutcome, shapeOf } from './codeBatches.ts';
import type { FlatMapParams } from '../../pipeline/kinds/flatMap.ts';

export const flatMap: OperatorDefinition<FlatMapParams> = {
  kind: 'flatMap',
  create({ ctx, params }) {
    const code = loadCode({ nodeId: ctx.nodeId, what: 'flatMap code' }, params.code);
    const processBatch = (els: readonly Element[]) =>
      eachOutcome(code, 'value', els, (el, out) => {
        if (!out.ok) return ctx.deadLetter(out.reason, el.row, el);
        if (!Array.isArray(out.value)) return ctx.deadLetter(`flatMap returned ${shapeOf(out.value)}, not an array`, el.row, el);
        out.value.forEach((r: unknown, i: number) => {
          if (isObject(r)) ctx.emit(derived(el, r));
          else ctx.deadLetter(`flatMap returned ${shapeOf(r)} at [${i}], not an object`, el.row, el);
        });
      });
    return { processBatch, processElement: (el) => processBatch([el]) };
  },
};
