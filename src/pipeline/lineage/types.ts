import type { StreamInfo } from '../../core/streamInfo.ts';

/**
 * How one output column of an operator is made, at that operator only:
 * - `source`: the column enters the pipeline here (a source's schema);
 * - `copy`: passed through unchanged, possibly under a new name (`from` holds the one input column);
 * - `expr`: computed by a SQL expression over input columns;
 * - `aggregate`: an aggregate call over a group, a window or an OVER frame;
 * - `window`: a window bound computed from the input's event time;
 * - `rank`: a Top-N rank from the partition and ordering columns;
 * - `merge`: a union of the same-named column of every input;
 * - `code`: produced by user code; which inputs it reads is not known, so `from` lists only what params name;
 * - `unknown`: a column the operator's analysis does not explain (should not happen for known kinds).
 */
export type DerivationKind = 'source' | 'copy' | 'expr' | 'aggregate' | 'window' | 'rank' | 'merge' | 'code' | 'unknown';

/** One input column a derivation reads: the port, the edge on that port (in document order, for ports taking several), and the column. */
export interface ColumnInput {
  port: string;
  edge?: number;
  column: string;
}

/** Why a column matters to the rows at this step besides its value. */
export type ColumnRole = 'groupKey' | 'joinKey' | 'partitionKey';

export interface Derivation {
  how: DerivationKind;
  from: ColumnInput[];
  /** What computed the column at this step, in SQL words (`SUM(amount)`, `price * qty`); absent for a plain copy. */
  expr?: string;
  role?: ColumnRole;
  /** For a join key: the condition that pairs the sides, such as `left.customer_id = right.id`. */
  condition?: string;
}

/** Derivations of one output port's columns, by column name. */
export type PortLineage = Record<string, Derivation>;

export interface LineageArgs<P> {
  params: P;
  /** Every stream on each input port, in the order of their edges. */
  inputs: Record<string, StreamInfo[]>;
  /** The streams the kind's own inference gave its output ports: lineage explains these columns, it never adds any. */
  outputs: Record<string, StreamInfo>;
}
