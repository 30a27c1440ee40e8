import { wrap, type DBSchema, type IDBPDatabase } from 'idb';

export { isQuotaError, storageError, StorageFullError } from './errors.ts';

/**
 * Opening, guarding and closing IndexedDB namespaces. Everything that can go wrong across
 * tabs (an upgrade blocked by an old connection, another tab deleting the database, two
 * runs of one job) ends in a clear Error instead of a hang or silently shared data.
 */

export function defaultIdbFactory(given?: IDBFactory): IDBFactory {
  const f = given ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!f) throw new Error('IndexedDB is not available here (pass idbFactory, e.g. fake-indexeddb in Node)');
  return f;
}

export interface OpenOptions {
  factory: IDBFactory;
  name: string;
  version: number;
  /** Creates or migrates the stores; `tx` is the upgrade transaction (requests on it complete before the open does). */
  upgrade: (db: IDBDatabase, tx: IDBTransaction) => void;
  /** Called once when the connection is closed under us (versionchange from another tab, or storage cleared). */
  onClosed: (reason: string) => void;
}

export async function openNamespace<S extends DBSchema>(o: OpenOptions): Promise<IDBPDatabase<S>> {
  const req = o.factory.open(o.name, o.version);
  req.onupgradeneeded = () => o.upgrade(req.result, req.transaction!);
  let gaveUp = false;
  const blocked = new Promise<never>((_, reject) => {
    req.onblocked = () => {
      gaveUp = true;
      reject(new Error(`IndexedDB "${o.name}" is blocked: another tab still has an older version open; close it and retry`));
    };
  });
  const opened = wrap(req).then((db) => {
    if (!db) throw new Error(`IndexedDB "${o.name}" did not open`);
    // A connection that arrives after we reported "blocked" must not linger and block others.
    if (gaveUp) db.close();
    return db as unknown as IDBPDatabase<S>;
  });
  const db = await Promise.race([opened, blocked]);
  db.addEventListener('versionchange', () => {
    // Another tab deletes or upgrades this namespace: let it, and fail our own writes clearly.
    db.close();
    o.onClosed(`IndexedDB "${o.name}" was deleted or upgraded by another tab; this connection is closed`);
  });
  db.addEventListener('close', () => o.onClosed(`IndexedDB "${o.name}" was closed by the browser (storage cleared?)`));
  return db;
}

export async function deleteNamespace(name: string, factory?: IDBFactory): Promise<void> {
  const req = defaultIdbFactory(factory).deleteDatabase(name);
  await new Promise<void>((resolve, reject) => {
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error ?? new Error(`could not delete IndexedDB "${name}"`));
    req.onblocked = () => reject(new Error(`deleting IndexedDB "${name}" is blocked: a tab still has it open`));
  });
}

// Namespaces held by this realm: two backends for the same subtask would overwrite each other's chunks.
const heldHere = new Set<string>();

interface LockManagerLike {
  request(name: string, opts: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<void>): Promise<unknown>;
}

/**
 * Claims `name` for this backend until `release()`. Inside one realm a set suffices; across
 * tabs and workers the Web Locks API (when present) makes a second claim fail fast.
 */
export async function claimNamespace(name: string, locks?: LockManagerLike | null): Promise<() => void> {
  if (heldHere.has(name)) throw new Error(`state namespace "${name}" is already open here (two runs of one job, or a backend that was not closed)`);
  heldHere.add(name);
  const lm = locks === undefined ? (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks : locks;
  if (!lm) return () => void heldHere.delete(name);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const got = await new Promise<boolean>((resolve) => {
    void lm.request(`weir:${name}`, { ifAvailable: true }, async (lock) => {
      resolve(lock !== null);
      if (lock !== null) await held;
    });
  });
  if (!got) {
    heldHere.delete(name);
    throw new Error(`state namespace "${name}" is in use by another tab or worker; a job's state must not be shared`);
  }
  return () => {
    heldHere.delete(name);
    release();
  };
}
