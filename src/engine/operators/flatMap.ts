import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../types.ts';
import { loadFunction } from '../udf.ts';
import { isObject } from './rows.ts';
import type { FlatMapParams } from '../../pipeline/kinds/flatMap.ts';

export const flatMap: OperatorDefinition<FlatMapParams> = {
  kind: 'flatMap',
  create({ ctx, params }) {
    const fn = loadFunction<(row: Row) => unknown>(params.code, 'flatMap code');
    return {
      processElement(el) {
        const out = fn(el.row);
        if (!Array.isArray(out)) return ctx.deadLetter(`flatMap returned ${out === null ? 'null' : typeof out}, not an array`, el.row);
        for (const r of out) {
          if (isObject(r)) ctx.emit({ kind: el.kind, row: r, ts: el.ts });
          else ctx.deadLetter('flatMap returned an array item that is not an object', r);
        }
      },
    };
  },
};
