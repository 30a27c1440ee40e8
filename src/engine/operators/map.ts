import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../types.ts';
import { compileExpr } from '../expr/index.ts';
import { loadFunction } from '../udf.ts';
import { isObject } from './rows.ts';
import type { MapParams } from '../../pipeline/kinds/map.ts';

export const map: OperatorDefinition<MapParams> = {
  kind: 'map',
  create({ ctx, params }) {
    if (params.set) {
      const sets = params.set.map((s) => [s.name, compileExpr(s.expr)] as const);
      return {
        processElement(el) {
          const row: Row = { ...el.row };
          for (const [name, e] of sets) row[name] = e.evaluate(el.row);
          ctx.emit({ kind: el.kind, row, ts: el.ts });
        },
      };
    }
    const fn = loadFunction<(row: Row) => unknown>(params.code ?? '', 'map code');
    return {
      processElement(el) {
        const out = fn(el.row);
        if (!isObject(out)) return ctx.deadLetter(`map returned ${out === null ? 'null' : Array.isArray(out) ? 'an array' : typeof out}, not an object (return one record as { field: value, … }; use flatMap for several)`, el.row);
        ctx.emit({ kind: el.kind, row: out, ts: el.ts });
      },
    };
  },
};
