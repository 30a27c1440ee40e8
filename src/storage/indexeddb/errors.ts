// Kept free of 'idb' so the Node file store can share it.

/** Raised when IndexedDB (or the disk) refuses a write for lack of space. */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
}

export function isQuotaError(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || name === 'StorageFullError' || (e as { code?: unknown } | null)?.code === 'ENOSPC';
}

/** Turns a quota failure into a message that says what happened and what is kept. */
export function storageError(e: unknown, what: string, lastGood?: number | null): Error {
  if (e instanceof StorageFullError) return e;
  const kept = lastGood === undefined ? 'the last good checkpoint is kept' : lastGood === null ? 'no earlier checkpoint exists' : `the last good checkpoint (${lastGood}) is kept`;
  if (isQuotaError(e)) return new StorageFullError(`storage is full while ${what}: the write was aborted and ${kept}`);
  return e instanceof Error ? e : new Error(`${what} failed: ${String(e)}`);
}
