// The aggregate calls a document declares; the engine's accumulators implement them.
export type AggFn = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'countDistinct' | 'sumDistinct' | 'avgDistinct' | 'firstValue' | 'lastValue' | 'listAgg' | 'listAggDistinct' | 'arrayAgg' | 'jsonArrayAgg' | 'jsonObjectAgg' | 'udaf';

/** One output column of a GROUP BY or window aggregate. */
export interface AggregateCall {
  fn: AggFn;
  /** Input field; absent for COUNT(*). */
  field?: string;
  as: string;
  /** For `listAgg`: what goes between two values; default `,` (Flink's LISTAGG). */
  separator?: string;
  /** For `jsonObjectAgg`: the field that names each member (`field` is its value). */
  keyField?: string;
  /**
   * For `arrayAgg`, `jsonArrayAgg` and `jsonObjectAgg`: whether a NULL value is kept (Flink's
   * RESPECT NULLS / NULL ON NULL) or skipped (IGNORE NULLS / ABSENT ON NULL). Defaults as Flink's:
   * keep for arrayAgg and jsonObjectAgg, skip for jsonArrayAgg.
   */
  nulls?: 'keep' | 'skip';
  /** For `jsonArrayAgg` and `jsonObjectAgg`: the values are JSON text, nested as JSON rather than as strings. */
  jsonValues?: boolean;
  /** For `udaf`: an object with create(), add(acc, v), retract(acc, v) and get(acc). */
  code?: string;
}

/** A literal a LAG call returns when its partition has too few rows before the current one. */
export type LagDefault = string | number | boolean | null;

/**
 * One output column of an OVER aggregate: any aggregate call, or `lag`, the value of `field`
 * `offset` rows back in the partition (Flink's LAG(field, offset, default)).
 */
export interface OverCall extends Omit<AggregateCall, 'fn'> {
  fn: AggFn | 'lag';
  /** For `lag`: how many rows back; default 1 (0 is the row itself). */
  offset?: number;
  /** For `lag`: what it returns when there are not `offset` rows before; default NULL. */
  default?: LagDefault;
}
