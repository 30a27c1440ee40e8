import { describe, expect, it } from 'vitest';
import { keyGroupOf } from '../../core/keys.ts';
import type { KeyedStateHandle } from '../../state/snapshotHandles.ts';
import { valueState } from '../../state/descriptors.ts';
import { testClock } from '../../state/backendBehaviour.suite.ts';
import { idbWorld } from './testkit.ts';

const ids = (h: KeyedStateHandle) => (h.type === 'chunks' ? h.chunks.map((c) => c.id) : []);

async function valueAfterRestore(world: ReturnType<typeof idbWorld>, handle: KeyedStateHandle, key: string): Promise<unknown> {
  const b = await world.make(testClock().time);
  await b.restoreHandles([handle]);
  b.setCurrentKey(key);
  const v = b.value(valueState<number>('v')).value();
  b.close();
  return v;
}

describe('IndexedDbStateBackend under concurrency and failures', () => {
  it('compaction racing an in-flight checkpoint never deletes what that checkpoint refers to', async () => {
    const world = idbWorld({ maxChunksPerKeyGroup: 1 });
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<number>('v'));
    const [k1, k2, k3] = Array.from({ length: 2000 }, (_, i) => `s${i}`).filter((k) => keyGroupOf(k) === 3);
    const step = async (key: string, value: number, id: number) => {
      b.setCurrentKey(key);
      v.update(value);
      return b.persist(id);
    };
    const h1 = (await (await step(k1, 1, 1)).done).handle;
    const h2 = (await (await step(k2, 2, 2)).done).handle;
    // Compaction merges checkpoints 1 and 2 into a chunk no completed checkpoint refers to yet...
    await b.retainOnly([h1, h2]);
    // ...which checkpoint 3 refers to; its chunks land, but the checkpoint has not completed yet.
    const h3 = (await (await step(k3, 3, 3)).done).handle;
    // Another compaction merges that chunk away, and a collection runs while 3 is still pending.
    await b.retainOnly([h1, h2]);
    expect(ids(h3).some((id) => ![...ids(h1), ...ids(h2)].includes(id))).toBe(true);
    await b.retainOnly([h3]); // checkpoint 3 completed, 1 and 2 discarded
    expect(await valueAfterRestore(world, h3, k2)).toBe(2);
    expect(await valueAfterRestore(world, h3, k3)).toBe(3);
    const h4 = (await b.persist(4).done).handle;
    await b.retainOnly([h4]);
    for (const k of [k1, k2, k3]) expect(await valueAfterRestore(world, h4, k)).toBe([k1, k2, k3].indexOf(k) + 1);
  });

  it('when a write fails late, checkpoints built on it fail too and the next one writes everything again', async () => {
    const world = idbWorld();
    const { time } = testClock();
    const b = await world.make(time);
    const v = b.value(valueState<number>('v'));
    b.setCurrentKey('a');
    v.update(1);
    await b.persist(1).done;
    b.setCurrentKey('b');
    v.update(2);
    // The transaction of checkpoint 2 aborts after its puts were issued (a disk error, a killed tab).
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      const req = put.apply(this, args);
      const tx = this.transaction;
      queueMicrotask(() => tx.abort());
      return req;
    };
    const p2 = b.persist(2);
    IDBObjectStore.prototype.put = put;
    b.setCurrentKey('c');
    v.update(3);
    const p3 = b.persist(3);
    await expect(p2.done).rejects.toThrow();
    await expect(p3.done).rejects.toThrow(/builds on an earlier state write that failed/);
    const r4 = await b.persist(4).done;
    expect(r4.writtenBytes).toBeGreaterThan(0);
    for (const [k, x] of [['a', 1], ['b', 2], ['c', 3]] as const) expect(await valueAfterRestore(world, r4.handle, k)).toBe(x);
  });
});
