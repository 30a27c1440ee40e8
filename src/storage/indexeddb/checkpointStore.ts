import type { DBSchema, IDBPDatabase } from 'idb';
import type { CheckpointManifest, CheckpointStore, SubtaskSnapshot } from '../../checkpoint/types.ts';
import { approxSnapshotSize } from '../../checkpoint/snapshotSize.ts';
import { claimNamespace, defaultIdbFactory, openNamespace, storageError } from './db.ts';

type SnapshotKey = [jobId: string, checkpointId: number, subtask: string];

interface CheckpointDb extends DBSchema {
  /** Subtask snapshots of checkpoints, committed or not: invisible until their manifest exists. */
  snapshots: { key: SnapshotKey; value: { key: SnapshotKey; snap: SubtaskSnapshot } };
  /** Committed manifests: a checkpoint exists exactly when its manifest does. */
  manifests: { key: [string, number]; value: CheckpointManifest };
}

const SCHEMA_VERSION = 1;

export interface IndexedDbCheckpointStoreOptions {
  /** Default `weir-checkpoints`; jobs are kept apart by jobId inside it. */
  dbName?: string;
  idbFactory?: IDBFactory;
  /**
   * Claim `<dbName>/<jobId>` for every job this instance writes (Web Locks across tabs, a set within
   * the realm), so two tabs cannot interleave checkpoints of one job. Released by `close()`.
   */
  exclusive?: boolean;
  locks?: Parameters<typeof claimNamespace>[1];
}

const jobRange = (jobId: string) => IDBKeyRange.bound([jobId, -Infinity], [jobId, Infinity]);
// Arrays sort after strings and numbers, so [jobId, id, []] is above every subtask of that checkpoint.
const checkpointRange = (jobId: string, id: number) => IDBKeyRange.bound([jobId, id], [jobId, id, []]);
const jobSnapshotsRange = (jobId: string) => IDBKeyRange.bound([jobId], [jobId, []]);

/**
 * Checkpoints in IndexedDB: subtask snapshots as structured-clone values (Maps and Infinity
 * survive as they are), manifests committed last in a `durability: 'strict'` transaction.
 * A checkpoint whose manifest never landed (torn write, crash, abort) is invisible to
 * `latest`/`list`, and `abort`/`cleanupUncommitted` remove its data.
 */
export class IndexedDbCheckpointStore implements CheckpointStore {
  private conn: Promise<IDBPDatabase<CheckpointDb>> | null = null;
  private closedReason: string | null = null;
  private readonly claims = new Map<string, Promise<() => void>>();
  /** Set to make the next subtask write fail, for fault injection. */
  failNextWrite: string | null = null;

  constructor(private readonly opts: IndexedDbCheckpointStoreOptions = {}) {}

  private get name(): string {
    return this.opts.dbName ?? 'weir-checkpoints';
  }

  private db(): Promise<IDBPDatabase<CheckpointDb>> {
    if (this.closedReason) return Promise.reject(new Error(`checkpoint store: ${this.closedReason}`));
    this.conn ??= openNamespace<CheckpointDb>({
      factory: defaultIdbFactory(this.opts.idbFactory),
      name: this.name,
      version: SCHEMA_VERSION,
      upgrade: (db) => {
        if (!db.objectStoreNames.contains('snapshots')) db.createObjectStore('snapshots', { keyPath: 'key' });
        if (!db.objectStoreNames.contains('manifests')) db.createObjectStore('manifests', { keyPath: ['jobId', 'checkpointId'] });
      },
      onClosed: (reason) => (this.closedReason ??= reason),
    });
    return this.conn;
  }

  /** One writer per job: a second tab running the same job fails instead of interleaving checkpoints. */
  private claim(jobId: string): Promise<unknown> {
    if (!this.opts.exclusive) return Promise.resolve();
    let c = this.claims.get(jobId);
    if (!c) {
      c = claimNamespace(`${this.name}/${jobId}`, this.opts.locks);
      this.claims.set(jobId, c);
      c.catch(() => this.claims.delete(jobId));
    }
    return c;
  }

  async writeSubtask(jobId: string, checkpointId: number, snap: SubtaskSnapshot): Promise<{ ref: string; bytes: number }> {
    await this.claim(jobId);
    if (this.failNextWrite) {
      const reason = this.failNextWrite;
      this.failNextWrite = null;
      throw new Error(reason);
    }
    const key: SnapshotKey = [jobId, checkpointId, snap.subtask];
    const db = await this.db();
    try {
      const tx = db.transaction('snapshots', 'readwrite');
      tx.store.put({ key, snap }).catch(() => {});
      await tx.done;
    } catch (e) {
      throw storageError(e, `writing checkpoint ${checkpointId} of ${snap.subtask}`, await this.lastGood(jobId));
    }
    return { ref: JSON.stringify(key), bytes: approxSnapshotSize(snap) };
  }

  async commit(manifest: CheckpointManifest): Promise<void> {
    await this.claim(manifest.jobId);
    const db = await this.db();
    try {
      const tx = db.transaction('manifests', 'readwrite', { durability: 'strict' });
      tx.store.put(manifest).catch(() => {});
      await tx.done;
    } catch (e) {
      throw storageError(e, `committing checkpoint ${manifest.checkpointId}`, await this.lastGood(manifest.jobId));
    }
  }

  private async lastGood(jobId: string): Promise<number | null | undefined> {
    return this.latest(jobId).then(
      (m) => m?.checkpointId ?? null,
      () => undefined,
    );
  }

  async latest(jobId: string): Promise<CheckpointManifest | null> {
    const db = await this.db();
    const cursor = await db.transaction('manifests').store.openCursor(jobRange(jobId), 'prev');
    return cursor?.value ?? null;
  }

  async list(jobId: string): Promise<CheckpointManifest[]> {
    return (await this.db()).getAll('manifests', jobRange(jobId));
  }

  async readSubtask(ref: string): Promise<SubtaskSnapshot> {
    let key: SnapshotKey;
    try {
      key = JSON.parse(ref) as SnapshotKey;
    } catch {
      throw new Error(`checkpoint reference ${ref} is not one of this store's`);
    }
    const rec = await (await this.db()).get('snapshots', key);
    if (!rec) throw new Error(`checkpoint data ${ref} is missing`);
    return rec.snap;
  }

  async discard(jobId: string, checkpointId: number): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(['manifests', 'snapshots'], 'readwrite', { durability: 'strict' });
    const manifests = tx.objectStore('manifests');
    const others = (await manifests.getAll(jobRange(jobId))).filter((m) => m.checkpointId !== checkpointId);
    const stillUsed = new Set(others.flatMap((m) => Object.values(m.subtasks)));
    await manifests.delete([jobId, checkpointId]);
    const snaps = tx.objectStore('snapshots');
    for (const key of await snaps.getAllKeys(checkpointRange(jobId, checkpointId))) {
      if (!stillUsed.has(JSON.stringify(key))) await snaps.delete(key);
    }
    await tx.done;
  }

  async abort(jobId: string, checkpointId: number): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(['manifests', 'snapshots'], 'readwrite');
    // A committed checkpoint is never aborted away: only `discard` removes it.
    if (!(await tx.objectStore('manifests').get([jobId, checkpointId]))) await tx.objectStore('snapshots').delete(checkpointRange(jobId, checkpointId));
    await tx.done;
  }

  /** Removes the data of every checkpoint of the job that has no manifest (torn by a crash); returns their ids. */
  async cleanupUncommitted(jobId: string): Promise<number[]> {
    const db = await this.db();
    const tx = db.transaction(['manifests', 'snapshots'], 'readwrite');
    const committed = new Set((await tx.objectStore('manifests').getAllKeys(jobRange(jobId))).map((k) => k[1]));
    const torn = new Set<number>();
    for (const key of await tx.objectStore('snapshots').getAllKeys(jobSnapshotsRange(jobId))) if (!committed.has(key[1])) torn.add(key[1]);
    for (const id of torn) await tx.objectStore('snapshots').delete(checkpointRange(jobId, id));
    await tx.done;
    return [...torn].sort((a, b) => a - b);
  }

  async close(): Promise<void> {
    this.closedReason ??= 'closed';
    for (const c of this.claims.values()) (await c.catch(() => () => {}))();
    this.claims.clear();
    (await this.conn?.catch(() => null))?.close();
  }
}
