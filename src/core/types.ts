/** A record is a plain JSON object. */
export type Row = Record<string, unknown>;

/** Flink's RowKind: insert, update-before, update-after, delete. */
export type RowKind = '+I' | '-U' | '+U' | '-D';

/** One changelog row moving through the graph. `ts` is its event time in ms, or null when it has none. */
export interface Element {
  kind: RowKind;
  row: Row;
  ts: number | null;
  /**
   * The source line this record was read from, packed with its source (see origin.ts); set only
   * when the pipeline runs user code, and absent on records made from many (aggregates, joins).
   */
  at?: number;
}

/** A key is the value of one key field, or a JSON string of several. */
export type Key = string | number | boolean | null;

export const MIN_WATERMARK = -Infinity;
export const MAX_WATERMARK = Infinity;

export const isAddition = (kind: RowKind): boolean => kind === '+I' || kind === '+U';

export function insert(row: Row, ts: number | null = null): Element {
  return { kind: '+I', row, ts };
}

/** A record that could not be processed. It is kept, counted and shown, never dropped. */
export interface DeadLetter {
  nodeId: string;
  reason: string;
  row?: unknown;
  /** 1-based line in the input file, when the record came from one. */
  line?: number;
  /**
   * When the dead letter is not the source's own: the source that read the record's line, and
   * the name of that source's input (a file), so a bad record deep in the pipeline is found.
   */
  source?: string;
  file?: string;
  raw?: string;
}
