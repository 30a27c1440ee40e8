/**
 * Operators reach state only through descriptors, which a backend binds (Flink's
 * `StateDescriptor.bind`): the operator never learns which backend holds its state.
 */
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
