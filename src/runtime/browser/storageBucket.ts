// Storage Buckets (Chromium 122+): an IndexedDB of its own with its own quota, in windows and workers.
interface StorageBucket {
  indexedDB: IDBFactory;
}
interface StorageBucketManager {
  open(name: string, options?: { quota?: number; persisted?: boolean; durability?: 'strict' | 'relaxed' }): Promise<StorageBucket>;
  delete(name: string): Promise<void>;
}

function manager(): StorageBucketManager {
  const m = (navigator as unknown as { storageBuckets?: StorageBucketManager }).storageBuckets;
  if (!m) throw new Error('this browser has no Storage Buckets (navigator.storageBuckets); run the job without storageBucket');
  return m;
}

/** The IndexedDB of bucket `name`; `quotaBytes` applies only when the bucket is created. */
export async function bucketIndexedDb(name: string, quotaBytes?: number): Promise<IDBFactory> {
  return (await manager().open(name, quotaBytes === undefined ? {} : { quota: quotaBytes })).indexedDB;
}

export function deleteBucket(name: string): Promise<void> {
  return manager().delete(name);
}
