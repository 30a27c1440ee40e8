import type { Key } from '../core/types.ts';
import type {
  StateKind,
  AggregatingDescriptor,
  AggregatingState,
  ColumnsDescriptor,
  ColumnsState,
  ListDescriptor,
  ListState,
  MapDescriptor,
  MapKey,
  MapState,
  ReducingDescriptor,
  ReducingState,
  ValueDescriptor,
  ValueState,
} from './descriptors.ts';

/** One stored entry: its value, when it was last written (for TTL) and the event time of that write. */
export interface SnapshotCell {
  state: string;
  kind: StateKind;
  key: Key;
  value: unknown;
  /** Processing or event time of the last write; TTL counts from it. */
  touched: number;
  /** Event time of the record that last changed the cell, when known. */
  eventTime: number | null;
}

/** Keyed state grouped by key group, so that a rescale can hand whole groups to new owners. */
export interface KeyedStateSnapshot {
  maxParallelism: number;
  keyGroups: Record<number, SnapshotCell[]>;
}

export interface StateMetrics {
  keyCount: number;
  approxBytes: number;
  ttlCleanups: number;
  perState: Record<string, { keys: number; approxBytes: number }>;
  /** Durable backends: keys held in the working set vs evicted to disk (only in persisted chunks). */
  keysInMemory?: number;
  keysOnDisk?: number;
}

export interface StateTime {
  processingTime(): number;
  /** Event time of the element being processed, or the watermark while a timer fires. */
  eventTime(): number;
}

/**
 * The keyed state backend. Its working set is synchronous; an asynchronous backend
 * (IndexedDB) brings evicted keys back in `prefetch` before the batch that needs them,
 * so operators never await per record.
 */
export interface KeyedStateBackend {
  setCurrentKey(key: Key): void;
  currentKey(): Key;
  value<T>(d: ValueDescriptor<T>): ValueState<T>;
  list<T>(d: ListDescriptor<T>): ListState<T>;
  map<K extends MapKey, V>(d: MapDescriptor<K, V>): MapState<K, V>;
  reducing<T>(d: ReducingDescriptor<T>): ReducingState<T>;
  aggregating<IN, ACC, OUT>(d: AggregatingDescriptor<IN, ACC, OUT>): AggregatingState<IN, OUT>;
  /** Column-wise numeric state (see ColumnsDescriptor); absent or null where a backend keeps only cells. */
  columns?(d: ColumnsDescriptor): ColumnsState | null;
  /** Keys that hold a live value for the named state. */
  keys(stateName: string): Key[];
  prefetch(keys: readonly Key[]): void | Promise<void>;
  /** Drops every expired entry; returns how many were removed. */
  cleanupExpired(): number;
  /** The synchronous part of a snapshot: a copy that later writes cannot touch. */
  snapshot(): KeyedStateSnapshot;
  /** Restores the cells whose key group passes `owns` (all by default). */
  restore(snapshots: readonly KeyedStateSnapshot[], owns?: (keyGroup: number) => boolean): void;
  metrics(): StateMetrics;
  /** Readable dump for inspectors: each key with each state's value. */
  inspect(limit?: number): { key: Key; states: Record<string, unknown>; eventTime: number | null }[];
}

/** Result of a durable backend's asynchronous snapshot part. */
export interface PersistResult {
  handle: import('./snapshotHandles.ts').KeyedStateHandle;
  /** Size of the whole state this handle describes. */
  fullBytes: number;
  /** Bytes this checkpoint wrote (equal to fullBytes for a full checkpoint). */
  writtenBytes: number;
}

/**
 * A backend that keeps a working set in memory and persists it itself at checkpoints
 * (the IndexedDB backend; Flink's RocksDB role). The synchronous part only freezes the
 * dirty set; the returned promise writes chunks.
 */
export interface DurableKeyedStateBackend extends KeyedStateBackend {
  persist(checkpointId: number, opts?: { incremental?: boolean }): { dirtyKeys: number; done: Promise<PersistResult> };
  restoreHandles(handles: readonly import('./snapshotHandles.ts').KeyedStateHandle[], owns?: (keyGroup: number) => boolean): Promise<void>;
  /** Deletes chunks that none of the given (retained) handles refer to. */
  retainOnly(handles: readonly import('./snapshotHandles.ts').KeyedStateHandle[]): Promise<void>;
  close(): void;
}

export const isDurableBackend = (b: KeyedStateBackend): b is DurableKeyedStateBackend => typeof (b as DurableKeyedStateBackend).persist === 'function';
