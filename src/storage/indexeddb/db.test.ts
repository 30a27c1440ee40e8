import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { claimNamespace, deleteNamespace, openNamespace, storageError, StorageFullError } from './db.ts';
import { idbWorld } from './testkit.ts';

describe('IndexedDB namespaces', () => {
  it('surfaces a blocked upgrade as a clear error', async () => {
    const factory = new IDBFactory();
    // An old tab that ignores versionchange (no handler) keeps the upgrade blocked.
    const req = factory.open('ns', 1);
    const old = await new Promise<IDBDatabase>((r) => (req.onsuccess = () => r(req.result)));
    await expect(openNamespace({ factory, name: 'ns', version: 2, upgrade: () => {}, onClosed: () => {} })).rejects.toThrow(/blocked.*older version/);
    old.close();
  });

  it('closes on versionchange, and the backend then fails its writes clearly', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    b.setCurrentKey('a');
    b.value(valueState<number>('v')).update(1);
    await b.persist(1).done;
    // Another tab deletes the job's state: our connection steps aside instead of blocking it.
    await deleteNamespace(world.dbName, world.idbFactory);
    b.value(valueState<number>('v')).update(2);
    await expect(b.persist(2).done).rejects.toThrow(/deleted or upgraded by another tab/);
  });

  it('never lets two backends hold one subtask of one namespace', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const a = await world.make(time, { subtask: 'agg#0' });
    await expect(world.make(time, { subtask: 'agg#0' })).rejects.toThrow(/already open/);
    a.close();
    const again = await world.make(time, { subtask: 'agg#0' });
    again.close();
  });

  it('uses Web Locks across tabs when they exist', async () => {
    const held = new Set<string>();
    const locks = {
      request: async (name: string, _o: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<void>) => {
        if (held.has(name)) return cb(null);
        held.add(name);
        await cb({ name });
        held.delete(name);
      },
    };
    const release = await claimNamespace('job-a/op#0', locks);
    held.add('weir:job-b/op#0'); // held by "another tab"
    await expect(claimNamespace('job-b/op#0', locks)).rejects.toThrow(/in use by another tab/);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(held.has('weir:job-a/op#0')).toBe(false);
  });

  it('reports a full disk as storage full, keeping the last good checkpoint', () => {
    const e = storageError(new DOMException('quota', 'QuotaExceededError'), 'writing checkpoint 7');
    expect(e).toBeInstanceOf(StorageFullError);
    expect(e.message).toMatch(/storage is full.*last good checkpoint is kept/);
  });
});
