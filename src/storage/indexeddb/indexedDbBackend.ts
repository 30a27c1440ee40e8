import type { IDBPDatabase } from 'idb';
import type { Key } from '../../core/types.ts';
import { DEFAULT_MAX_PARALLELISM } from '../../core/keys.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import type { DurableKeyedStateBackend, KeyedStateSnapshot, PersistResult, StateMetrics, StateTime } from '../../state/backend.ts';
import { MemoryStateBackend, type Cell } from '../../state/memory/memoryBackend.ts';
import type { ColumnTable } from '../../state/memory/columnTable.ts';
import { isExpired, ttlNow } from '../../state/ttl.ts';
import { createStateStores, STATE_SCHEMA_VERSION, type StateChunksDb } from './chunks.ts';
import { raiseSerialFromDisk, type BackendCore } from './core.ts';
import { claimNamespace, defaultIdbFactory, openNamespace } from './db.ts';
import { ChunkLayout } from './layout.ts';
import { beginPersist } from './persist.ts';
import { enforceBudget, prefetchKeys } from './residency.ts';
import { chunksToSnapshot, restoreChunkHandles } from './restore.ts';
import { collectGarbage, compact } from './compaction.ts';
import { WorkingSet } from './workingSet.ts';

export interface IndexedDbBackendOptions {
  /** One namespace per running job, e.g. `weir-state-<jobId>`; subtasks of the job share it. */
  dbName: string;
  /** `node#index`: chunk ids are prefixed with it, and only one backend may hold it at a time. */
  subtask: string;
  maxParallelism?: number;
  /** Working-set budget; clean keys beyond it are evicted and prefetched back. Default: unlimited. */
  memoryBudgetBytes?: number;
  time: StateTime;
  idbFactory?: IDBFactory;
  /**
   * Entries per chunk value: larger writes and restores faster, smaller prefetches less. Default
   * 256 under a memory budget; without one nothing reads single keys back, so 1024: Chromium
   * stores a value over 64 KiB as a blob file beside its database, which wrote and read faster.
   */
  chunkEntries?: number;
  /** Dirty keys up to which a checkpoint is written inside `persist()` (default 4096); above, copy-on-write in slices. */
  syncPersistKeys?: number;
  /** A key group with more chunks than this is merged by `retainOnly` (default 8). */
  maxChunksPerKeyGroup?: number;
  /** The Web Locks manager guarding the namespace across tabs; default `navigator.locks`, null for none. */
  locks?: Parameters<typeof claimNamespace>[1];
}

/**
 * Keyed state in the role of Flink's RocksDB backend, on IndexedDB. Operators see the memory
 * backend's synchronous API and semantics (this class extends it); the working set tracks
 * dirty keys, checkpoints write only those as a few chunk values per key group, and keys
 * beyond the memory budget live on disk until `prefetch` brings them back for a batch.
 */
export class IndexedDbStateBackend extends MemoryStateBackend implements DurableKeyedStateBackend {
  private readonly ws: WorkingSet;
  private readonly core: BackendCore;
  private conn: IDBPDatabase<StateChunksDb> | null = null;
  private closedReason: string | null = 'the backend is not open yet: call `await backend.open()`';
  private release: (() => void) | null = null;

  constructor(private readonly opts: IndexedDbBackendOptions) {
    const maxParallelism = opts.maxParallelism ?? DEFAULT_MAX_PARALLELISM;
    super(opts.time, maxParallelism);
    this.ws = new WorkingSet(this.tables, this.descriptors, maxParallelism, this.columnTables);
    this.core = {
      store: opts.dbName,
      subtask: opts.subtask,
      maxParallelism,
      memoryBudgetBytes: opts.memoryBudgetBytes ?? Infinity,
      chunkEntries: opts.chunkEntries ?? (opts.memoryBudgetBytes !== undefined && Number.isFinite(opts.memoryBudgetBytes) ? 256 : 1024),
      syncPersistKeys: opts.syncPersistKeys ?? 4096,
      maxChunksPerKeyGroup: opts.maxChunksPerKeyGroup ?? 8,
      ws: this.ws,
      layout: new ChunkLayout(opts.subtask),
      db: () => {
        if (!this.conn || this.closedReason) throw new Error(`state backend ${opts.subtask}: ${this.closedReason ?? 'closed'}`);
        return this.conn;
      },
      epoch: 0,
      lastPersist: null,
      serializing: null,
      recentHandles: [],
      rewriteLock: Promise.resolve(),
      // Until a restore says which key groups are ours, only chunks we wrote ourselves are ours to delete.
      owns: () => false,
    };
    this.ws.tracker.trackRecency = Number.isFinite(this.core.memoryBudgetBytes);
  }

  async open(): Promise<this> {
    if (this.conn) return this;
    this.release = await claimNamespace(`${this.opts.dbName}/${this.opts.subtask}`, this.opts.locks);
    try {
      this.conn = await openNamespace<StateChunksDb>({
        factory: defaultIdbFactory(this.opts.idbFactory),
        name: this.opts.dbName,
        version: STATE_SCHEMA_VERSION,
        upgrade: createStateStores,
        onClosed: (reason) => (this.closedReason ??= reason),
      });
      this.closedReason = null;
      await raiseSerialFromDisk(this.core);
    } catch (e) {
      this.close();
      throw e;
    }
    return this;
  }

  close(): void {
    this.closedReason ??= 'the backend was closed';
    this.conn?.close();
    this.release?.();
    this.release = null;
  }

  protected override newTable(state: string): Map<Key, Cell> {
    return this.ws.newTable(state);
  }

  /**
   * Columns states (an aggregate's numbers in typed arrays, the fused path) only without a memory
   * budget: nothing is evicted then, and a checkpoint copies their dirty keys' numbers at once.
   */
  protected override keepsColumns(): boolean {
    return !Number.isFinite(this.core.memoryBudgetBytes);
  }

  protected override columnsMade(t: ColumnTable): void {
    t.track(this.ws.tracker);
    this.ws.tablesChanged();
  }

  protected override changed(c?: Cell): void {
    this.ws.tracker.markDirty(this.currentKey(), c);
  }

  persist(checkpointId: number, opts: { incremental?: boolean } = {}): { dirtyKeys: number; done: Promise<PersistResult> } {
    return beginPersist(this.core, checkpointId, opts.incremental ?? true);
  }

  /** Brings the batch's evicted keys back (one read transaction), then evicts down to the budget. */
  override prefetch(keys: readonly Key[]): void | Promise<void> {
    if (this.ws.tracker.evicted.size === 0 && !Number.isFinite(this.core.memoryBudgetBytes)) return;
    return prefetchKeys(this.core, keys);
  }

  /** Evicts clean keys beyond the budget now (prefetch does this after every batch). */
  evictToBudget(protect: readonly Key[] = []): number {
    return enforceBudget(this.core, new Set(protect));
  }

  async restoreHandles(handles: readonly KeyedStateHandle[], owns: (keyGroup: number) => boolean = () => true): Promise<void> {
    this.resetState();
    this.core.owns = owns;
    // Inline snapshots are not on disk yet: their keys come back dirty and the next checkpoint writes them.
    const inline = handles.flatMap((h) => (h.type === 'inline' ? [h.snapshot] : []));
    if (inline.length) super.restore(inline, owns);
    await restoreChunkHandles(this.core, handles, owns);
  }

  override restore(snapshots: readonly KeyedStateSnapshot[], owns?: (keyGroup: number) => boolean): void {
    this.resetState();
    super.restore(snapshots, owns);
  }

  private resetState(): void {
    this.core.epoch++;
    this.ws.reset();
    this.core.layout.clear();
    this.core.lastPersist = null;
    this.core.serializing = null;
  }

  /**
   * The state a chunk handle describes, as an inline snapshot: for checkpoint stores that outlive
   * this database (files in Node, where fake-indexeddb dies with the process). Restoring it
   * brings every key back dirty, so the next checkpoint rewrites them all.
   */
  async toInline(handle: KeyedStateHandle): Promise<KeyedStateHandle> {
    if (handle.type === 'inline') return handle;
    return { type: 'inline', snapshot: await chunksToSnapshot(this.core, handle) };
  }

  /** Compacts key groups with many chunks, then deletes chunks no retained handle (of any subtask) refers to. */
  async retainOnly(handles: readonly KeyedStateHandle[]): Promise<void> {
    await compact(this.core);
    await collectGarbage(this.core, handles);
  }

  override snapshot(): KeyedStateSnapshot {
    const n = this.ws.tracker.evicted.size;
    if (n) throw new Error(`${n} keys of ${this.opts.subtask} live only in IndexedDB: use persist() for a checkpoint (snapshot() copies the heap)`);
    return super.snapshot();
  }

  override keys(stateName: string): Key[] {
    const out = super.keys(stateName);
    const { evicted } = this.ws.tracker;
    if (evicted.size === 0) return out;
    const ttl = this.descriptors.get(stateName)?.ttl;
    const now = ttlNow(ttl, this.opts.time);
    for (const [key, states] of evicted) {
      const s = states.find((x) => x[0] === stateName);
      if (s && !isExpired(ttl, s[1], now)) out.push(key);
    }
    return out;
  }

  override metrics(): StateMetrics {
    const m = super.metrics();
    const { evicted } = this.ws.tracker;
    for (const states of evicted.values()) {
      for (const [state] of states) (m.perState[state] ??= { keys: 0, approxBytes: 0 }).keys++;
    }
    return { ...m, keysInMemory: m.keyCount, keysOnDisk: evicted.size, keyCount: m.keyCount + evicted.size };
  }

  /** Bookkeeping for tests and the inspector. */
  diagnostics(): { chunks: number; chunkBytes: number; dirtyKeys: number; evictedKeys: number; residentBytes: number } {
    const { layout } = this.core;
    return { chunks: layout.chunkCount(), chunkBytes: layout.bytes(), dirtyKeys: this.ws.tracker.dirty.size, evictedKeys: this.ws.tracker.evicted.size, residentBytes: this.ws.residentBytes() };
  }
}
