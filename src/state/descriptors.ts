/**
 * Operators reach state only through descriptors, which a backend binds (Flink's
 * `StateDescriptor.bind`): the operator never learns which backend holds its state.
 */
import type { Key } from '../core/types.ts';
export type StateKind = 'value' | 'list' | 'map' | 'reducing' | 'aggregating';

export interface TtlConfig {
  ttlMs: number;
  /** When the clock restarts: Flink's OnCreateAndWrite (default) or OnReadAndWrite. */
  update?: 'onCreateAndWrite' | 'onReadAndWrite';
  /** Flink measures TTL in processing time; event time makes runs reproducible from the data alone. */
  time?: 'processing' | 'event';
}

export interface AggregateFunction<IN, ACC, OUT> {
  create(): ACC;
  add(acc: ACC, value: IN): ACC;
  get(acc: ACC): OUT;
}

interface Base<K extends StateKind> {
  readonly name: string;
  readonly kind: K;
  readonly ttl?: TtlConfig;
  /**
   * A value (for list and map states: an entry's value), once written, is never changed in place
   * (a change writes a new value). A heap backend then shares values with snapshots instead of
   * copying them on the first access after one, as Flink skips the copy for immutable types.
   */
  readonly immutableValues?: boolean;
}

export type ValueDescriptor<T> = Base<'value'> & { readonly _t?: T };
export type ListDescriptor<T> = Base<'list'> & { readonly _t?: T };
export type MapDescriptor<K, V> = Base<'map'> & { readonly _k?: K; readonly _v?: V };
export type ReducingDescriptor<T> = Base<'reducing'> & { readonly reduce: (a: T, b: T) => T };
export type AggregatingDescriptor<IN, ACC, OUT> = Base<'aggregating'> & {
  readonly fn: AggregateFunction<IN, ACC, OUT>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDescriptor = ValueDescriptor<any> | ListDescriptor<any> | MapDescriptor<any, any> | ReducingDescriptor<any> | AggregatingDescriptor<any, any, any>;

export const valueState = <T>(name: string, ttl?: TtlConfig): ValueDescriptor<T> => ({ name, kind: 'value', ttl });
export const listState = <T>(name: string, ttl?: TtlConfig): ListDescriptor<T> => ({ name, kind: 'list', ttl });
export const mapState = <K, V>(name: string, ttl?: TtlConfig): MapDescriptor<K, V> => ({ name, kind: 'map', ttl });
/** The same value, list or map state, declared to hold values that are never changed in place (see `immutableValues`). */
export const withImmutableValues = <D extends ValueDescriptor<unknown> | ListDescriptor<unknown> | MapDescriptor<unknown, unknown>>(d: D): D => ({ ...d, immutableValues: true });
export const reducingState = <T>(name: string, reduce: (a: T, b: T) => T, ttl?: TtlConfig): ReducingDescriptor<T> => ({
  name,
  kind: 'reducing',
  reduce,
  ttl,
});
export const aggregatingState = <IN, ACC, OUT>(
  name: string,
  fn: AggregateFunction<IN, ACC, OUT>,
  ttl?: TtlConfig,
): AggregatingDescriptor<IN, ACC, OUT> => ({ name, kind: 'aggregating', fn, ttl });

export interface ValueState<T> {
  value(): T | undefined;
  update(value: T): void;
  clear(): void;
}
export interface ListState<T> {
  get(): T[];
  add(value: T): void;
  update(values: T[]): void;
  clear(): void;
}
export type MapKey = string | number | boolean;
export interface MapState<K extends MapKey, V> {
  get(key: K): V | undefined;
  put(key: K, value: V): void;
  remove(key: K): void;
  contains(key: K): boolean;
  entries(): [K, V][];
  keys(): K[];
  size(): number;
  isEmpty(): boolean;
  clear(): void;
}
export interface ReducingState<T> {
  get(): T | undefined;
  add(value: T): void;
  clear(): void;
}
export interface AggregatingState<IN, OUT> {
  get(): OUT | undefined;
  add(value: IN): void;
  clear(): void;
}

/**
 * Per key, `width` float64 numbers and one plain value (`ref`), which the heap backend keeps
 * column-wise: a key → slot map and one growing Float64Array, instead of an object per key.
 * Snapshots, inspectors and the observatory see each key as a value state holding
 * `encode(...)`, so checkpoints keep the value-state format and `decode` adopts them.
 * No TTL: a state that needs per-key expiry uses a value state.
 */
export interface ColumnsDescriptor {
  readonly name: string;
  readonly kind: 'columns';
  readonly width: number;
  /** The key's value as a value state would hold it. */
  encode(nums: Float64Array, at: number, ref: unknown): unknown;
  /** Fills nums[at, at + width) from such a value and returns its ref; throws on a value of another shape. */
  decode(value: unknown, nums: Float64Array, at: number): unknown;
}

/** The current key's slot in a columns state; `numbers()` holds slot s at [s × width, (s + 1) × width). */
export interface ColumnsState {
  /** The current key's slot, or -1. */
  find(): number;
  /** The current key's slot, a new zeroed one when it has none. */
  claim(): number;
  /**
   * Any key's slot, a new zeroed one when it has none, without entering its key context: a claim
   * pass over a batch ahead of the records' own key contexts.
   */
  claimKey(key: Key): number;
  /**
   * How many times keys left their slots so far (a drop, or the table cleared for a restore): a
   * slot claimed ahead stays its key's while this count is unchanged.
   */
  moves(): number;
  /** Whether `key` is the current key, as the state tells keys apart. */
  isCurrent(key: Key): boolean;
  /** The numbers of every slot; a later claim() may replace the array (it grows). */
  numbers(): Float64Array;
  ref(slot: number): unknown;
  /** Records that the slot changed (write serial, event time; what checkpoints and the observatory read). */
  written(slot: number, ref: unknown): void;
  /** Drops the current key. */
  clear(): void;
  /** Keys held, and each one's slot and ref: for a reader that shares the table (a chained view). */
  size(): number;
  each(visit: (slot: number, ref: unknown) => void): void;
  /** The slot of any key (not only the current one), or -1, and that slot's ref. */
  slotOf(key: Key): number;
  refAt(slot: number, key: Key): unknown;
}
