import type { CheckpointManifest, CheckpointRecord, CheckpointStore } from '../../checkpoint/types.ts';
import { IndexedDbCheckpointStore } from '../../storage/indexeddb/checkpointStore.ts';
import { JobManager } from '../threaded/jobManager.ts';
import type { JobOptions, JobResult, JobStats } from '../threaded/jobOptions.ts';
import { WorkerPool } from '../threaded/workerPool.ts';
import { browserSpawn } from './browserSpawn.ts';

export interface BrowserJobOptions extends Omit<JobOptions, 'spawn' | 'prewarm'> {
  /** Default: checkpoints in IndexedDB, one writer per job across tabs. */
  store?: CheckpointStore;
  /** Keep standby workers warm so a restart does not wait for workers to load (default true). */
  standby?: boolean;
}

/**
 * The parallel runtime for the designer: a job on Web Workers with checkpoints in IndexedDB,
 * restarts, exactly-once sink output, stats and fault injection. One BrowserJob runs one job;
 * `dispose()` stops its workers.
 */
export class BrowserJob {
  readonly manager: JobManager;
  readonly store: CheckpointStore;
  private readonly pool = new WorkerPool(browserSpawn());
  private running: Promise<JobResult> | null = null;

  constructor(doc: unknown, opts: BrowserJobOptions = {}) {
    if (opts.storageBucket && !opts.store) throw new Error(`storageBucket "${opts.storageBucket}" needs a checkpoint store on the same bucket: store: new IndexedDbCheckpointStore({ idbFactory: await bucketIndexedDb("${opts.storageBucket}") })`);
    this.store = opts.store ?? new IndexedDbCheckpointStore({ exclusive: true });
    const standby = opts.standby ?? true;
    this.manager = new JobManager(doc, { ...opts, store: this.store, spawn: this.pool.take, prewarm: standby ? (n) => this.pool.prewarm(n) : undefined });
  }

  /** The last completed checkpoint of a job, e.g. to offer "resume" after a page reload. */
  static async resumable(jobId: string, store: CheckpointStore = new IndexedDbCheckpointStore()): Promise<CheckpointManifest | null> {
    return store.latest(jobId);
  }

  /** Runs the job to its end (or failure); pass `resume: true` in the options to continue from the last checkpoint. */
  run(): Promise<JobResult> {
    this.running ??= this.manager.run();
    return this.running;
  }

  stats(): Promise<JobStats> {
    return this.manager.stats();
  }

  checkpoints(): CheckpointRecord[] {
    return this.manager.checkpointHistory();
  }

  triggerCheckpoint(): number | null {
    return this.manager.triggerCheckpoint();
  }

  killSubtask(subtask: string): boolean {
    return this.manager.killSubtask(subtask);
  }

  throwInUdfAt(node: string, n: number, index = 0): void {
    this.manager.throwInUdfAt(node, n, index);
  }

  failNextSnapshotWrite(reason?: string): void {
    this.manager.failNextSnapshotWrite(reason);
  }

  fillStorage(): void {
    this.manager.fillStorage();
  }

  async dispose(): Promise<void> {
    this.manager.cancel('the job was disposed');
    await this.running?.catch(() => undefined);
    this.pool.close();
    await (this.store as { close?: () => Promise<void> }).close?.();
  }
}
