// The aggregate calls a document declares; the engine's accumulators implement them.
export type AggFn = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'countDistinct' | 'udaf';

/** One output column of a GROUP BY or window aggregate. */
export interface AggregateCall {
  fn: AggFn;
  /** Input field; absent for COUNT(*). */
  field?: string;
  as: string;
  /** For `udaf`: an object with create(), add(acc, v), retract(acc, v) and get(acc). */
  code?: string;
}
