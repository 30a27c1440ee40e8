import type { AggregateCall, OverCall } from '../pipeline/kinds/aggregateCall.ts';
import type { Row } from '../core/types.ts';

/** Functions that add up their input: a value that is not a number cannot be cast to one. */
const NUMERIC = new Set(['sum', 'avg', 'sumDistinct', 'avgDistinct']);

/**
 * The run-time half of a SUM/AVG type check. Validation refuses a field declared as text, but a
 * record can still carry text where the schema said number (a map that returns String(x), an
 * undeclared field): Flink's SUM would fail the cast, and here that record is a dead letter naming
 * the node, the call, the field and the value, before it touches any accumulator. Null stays what
 * SQL makes of it: ignored. Null when the node has no such call (nothing to check per record).
 */
export function numericInputCheck(nodeId: string, calls: readonly (AggregateCall | OverCall)[]): ((row: Row) => string | null) | null {
  const checked = calls.filter((c) => NUMERIC.has(c.fn) && c.field !== undefined);
  if (checked.length === 0) return null;
  return (row) => {
    for (const c of checked) {
      const v = row[c.field!];
      if (v === null || v === undefined || typeof v === 'number') continue;
      return `node "${nodeId}": ${c.fn.toUpperCase()}(${c.field}) as "${c.as}" got ${valueOf(v)} in field "${c.field}", which is not a number; convert it upstream (a map with Number(row.${c.field})) or declare the field as text and drop the ${c.fn.toUpperCase()}`;
    }
    return null;
  };
}

function valueOf(v: unknown): string {
  if (typeof v === 'string') {
    const s = JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
    return `the text ${s}`;
  }
  if (typeof v === 'boolean') return `the boolean ${v}`;
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
