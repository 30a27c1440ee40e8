import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { checkpointStoreSuite, manifestOf, writeCheckpoint } from '../../checkpoint/storeBehaviour.suite.ts';
import { IndexedDbCheckpointStore } from './checkpointStore.ts';
import { retainedKeyedHandles, sweepStateChunks } from './retention.ts';
import { valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { idbWorld } from './testkit.ts';

checkpointStoreSuite('IndexedDbCheckpointStore', async () => new IndexedDbCheckpointStore({ idbFactory: new IDBFactory() }));

describe('IndexedDbCheckpointStore', () => {
  it('survives reopening; torn checkpoints stay invisible and are cleaned up', async () => {
    const idbFactory = new IDBFactory();
    const first = new IndexedDbCheckpointStore({ idbFactory });
    const refs1 = await writeCheckpoint(first, 'job', 1);
    await first.commit(manifestOf('job', 1, refs1));
    const torn = await writeCheckpoint(first, 'job', 2);
    await first.close();
    // "Reload": a new store on the same database.
    const second = new IndexedDbCheckpointStore({ idbFactory });
    expect((await second.latest('job'))?.checkpointId).toBe(1);
    expect(await second.readSubtask(torn['op#0'])).toBeTruthy();
    expect(await second.cleanupUncommitted('job')).toEqual([2]);
    await expect(second.readSubtask(torn['op#0'])).rejects.toThrow(/missing/);
    // abort never removes a committed checkpoint.
    await second.abort('job', 1);
    expect((await second.readSubtask(refs1['op#1'])).subtask).toBe('op#1');
  });

  it('says storage is full when a write hits the quota, and keeps the last good checkpoint', async () => {
    const store = new IndexedDbCheckpointStore({ idbFactory: new IDBFactory() });
    await store.commit(manifestOf('job', 1, await writeCheckpoint(store, 'job', 1)));
    // fake-indexeddb has no quota: make every put fail the way a full disk does.
    const putOf = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    try {
      await expect(writeCheckpoint(store, 'job', 2)).rejects.toThrow(/storage is full.*the last good checkpoint \(1\) is kept/);
    } finally {
      IDBObjectStore.prototype.put = putOf;
    }
    expect((await store.latest('job'))?.checkpointId).toBe(1);
  });

  it('tells backends which chunks remain referenced after a discard', async () => {
    const world = idbWorld();
    const store = new IndexedDbCheckpointStore({ idbFactory: world.idbFactory, dbName: 'cps' });
    const { time } = testClock();
    const b = await world.make(time, { subtask: 'op#0' });
    const v = b.value(valueState<number>('v'));
    for (let id = 1; id <= 3; id++) {
      for (let i = 0; i < 20; i++) {
        b.setCurrentKey(`k${i}`);
        v.update(id * 100 + i);
      }
      const { handle } = await b.persist(id).done;
      const { ref } = await store.writeSubtask('job', id, { ...sampleKeyed(handle), subtask: 'op#0' });
      await store.commit(manifestOf('job', id, { 'op#0': ref }));
    }
    await store.discard('job', 1);
    await store.discard('job', 2);
    const retained = await retainedKeyedHandles(store, 'job');
    expect(retained).toHaveLength(1);
    await b.retainOnly(retained);
    // A torn checkpoint 4 of a crashed run: its chunks are swept at recovery.
    b.setCurrentKey('k0');
    v.update(-1);
    await b.persist(4).done;
    b.close();
    expect(await sweepStateChunks({ dbName: world.dbName, idbFactory: world.idbFactory }, retained)).toBeGreaterThan(0);
    const back = await world.make(time);
    await back.restoreHandles(retained);
    back.setCurrentKey('k0');
    expect(back.value(valueState('v')).value()).toBe(300);
  });
});

function sampleKeyed(keyed: import('../../state/snapshotHandles.ts').KeyedStateHandle) {
  return { subtask: '', parallelism: 1, keyed, operator: { lists: {}, broadcast: {} }, timers: [], watermark: 0, counters: {} };
}
