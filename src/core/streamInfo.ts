export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'timestamp' | 'json';
export const FIELD_TYPES: readonly FieldType[] = ['string', 'number', 'integer', 'boolean', 'timestamp', 'json'];

/** What the compiler knows about the stream on one port. It drives validation, the UI and the exports. */
export interface StreamInfo {
  /** Field names and types, or null when unknown (after a UDF without a declared output). */
  fields: Record<string, FieldType> | null;
  /** The field that carries event time, or null when the stream has none. */
  eventTime: string | null;
  /** Set after keyBy: the fields the stream is partitioned by. */
  keyedBy: string[] | null;
  /** `append`: only +I rows. `update`: -U/+U/-D rows may appear. */
  changelog: 'append' | 'update';
  /** Fields that identify a row in an updating stream (the view's primary key). */
  uniqueKey: string[] | null;
  /**
   * An update's -U may arrive without the +U that replaces it: a filter or a semi-join kept the
   * old row and dropped the new one. An upsert table must then delete on -U (Flink's upsert
   * sink writes a tombstone for it) rather than wait for a +U that will not come.
   */
  unpairedUpdates?: true;
}

export const unknownStream = (): StreamInfo => ({ fields: null, eventTime: null, keyedBy: null, changelog: 'append', uniqueKey: null });
