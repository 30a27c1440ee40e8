import { exprServices } from './exprServices.ts';
import type { OperatorDefinition } from '../operator.ts';
import { derived } from '../../core/origin.ts';
import type { Row } from '../../core/types.ts';
import { compileExpr } from '../../expr/index.ts';
import type { UnnestParams } from '../../pipeline/kinds/unnest.ts';
import { isObject } from './rows.ts';
import { shapeOf } from './codeBatches.ts';

/** The elements of a collection: an array's items, or a map's entries as [key, value]; null when it is neither. */
function elementsOf(v: unknown): readonly unknown[] | null {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return Object.entries(v);
  return null;
}

/**
 * How one element fills the new columns: a scalar the one column, an array by position, a row by
 * its fields. Null when the element does not fit (the record goes to dead letters with the reason).
 */
function columnsOf(el: unknown, width: number, fields: readonly string[] | undefined): unknown[] | string {
  if (width === 1) return [el ?? null];
  if (Array.isArray(el)) return el.length === width ? el.map((x) => x ?? null) : `an element holds ${el.length} values, the columns are ${width}`;
  if (isObject(el)) {
    const row = el;
    const names = fields ?? Object.keys(row);
    if (!fields && names.length !== width) return `an element has ${names.length} fields, the columns are ${width}`;
    return names.map((n) => row[n] ?? null);
  }
  return `an element is ${shapeOf(el)}, but ${width} columns need a row or an array of ${width} values`;
}

export const unnest: OperatorDefinition<UnnestParams> = {
  kind: 'unnest',
  create({ ctx, params }) {
    const collection = compileExpr(params.expr, exprServices(ctx));
    const as = params.as;
    const nulls = as.map(() => null);
    return {
      processElement(el) {
        const v = collection.evaluate(el.row);
        const items = v === null || v === undefined ? [] : elementsOf(v);
        if (!items) return ctx.deadLetter(`UNNEST(${params.expr}) is ${shapeOf(v)}, not an array or a map`, el.row, el);
        const rows: Row[] = [];
        for (const item of items) {
          const cols = columnsOf(item, as.length, params.elementFields);
          if (typeof cols === 'string') return ctx.deadLetter(`UNNEST(${params.expr}): ${cols} (${as.join(', ')})`, el.row, el);
          rows.push(withColumns(el.row, as, cols));
        }
        if (!rows.length && params.outer) rows.push(withColumns(el.row, as, nulls));
        // Checked whole before any row leaves, so a bad element never emits half a record's rows.
        for (const row of rows) ctx.emit(derived(el, row));
      },
    };
  },
};

function withColumns(input: Row, as: readonly string[], values: readonly unknown[]): Row {
  const row: Row = { ...input };
  for (let i = 0; i < as.length; i++) row[as[i]] = values[i];
  return row;
}
