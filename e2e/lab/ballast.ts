// Fills a Storage Bucket up to its quota with incompressible ballast, so the next write of a job
// in that bucket meets a real QuotaExceededError; deleting the ballast gives the space back.
const BALLAST_DB = 'weir-ballast';

function open(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = factory.open(BALLAST_DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore('b');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error(`opening ${BALLAST_DB} failed`));
  });
}

function put(db: IDBDatabase, key: number, bytes: number): Promise<boolean> {
  const value = new Uint8Array(bytes);
  // getRandomValues fills at most 64 KiB per call; random bytes defeat IndexedDB's compression.
  for (let i = 0; i < bytes; i += 65536) crypto.getRandomValues(value.subarray(i, Math.min(bytes, i + 65536)));
  return new Promise((resolve, reject) => {
    const tx = db.transaction('b', 'readwrite');
    tx.objectStore('b').put(value, key);
    tx.oncomplete = () => resolve(true);
    tx.onabort = () => (tx.error?.name === 'QuotaExceededError' ? resolve(false) : reject(tx.error ?? new Error('ballast write aborted')));
  });
}

function count(db: IDBDatabase): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = db.transaction('b', 'readonly').objectStore('b').count();
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('counting the ballast failed'));
  });
}

/** Writes ballast until the quota refuses even small values; returns the bytes written. */
export async function fillWithBallast(factory: IDBFactory): Promise<number> {
  const db = await open(factory);
  // After the existing ballast, so that a second call tops it up instead of overwriting it.
  let key = await count(db);
  let written = 0;
  try {
    for (let size = 1 << 20; size >= 1024; size >>= 2) {
      while (await put(db, key, size)) {
        key++;
        written += size;
      }
    }
  } finally {
    db.close();
  }
  return written;
}

export function removeBallast(factory: IDBFactory): Promise<void> {
  return new Promise((resolve, reject) => {
    const r = factory.deleteDatabase(BALLAST_DB);
    r.onsuccess = () => resolve();
    r.onerror = () => reject(r.error ?? new Error(`deleting ${BALLAST_DB} failed`));
  });
}
