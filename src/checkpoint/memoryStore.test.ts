import { MemoryCheckpointStore } from './memoryStore.ts';
import { checkpointStoreSuite } from './storeBehaviour.suite.ts';

checkpointStoreSuite('MemoryCheckpointStore', async () => new MemoryCheckpointStore());
checkpointStoreSuite('MemoryCheckpointStore (handover)', async () => new MemoryCheckpointStore({ ownership: 'handover' }));

import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStateBackend } from '../state/memory/memoryBackend.ts';
import type { SubtaskSnapshot } from './types.ts';
import { TimerService } from '../engine/time/timers.ts';
import { listState, mapState, valueState } from '../state/descriptors.ts';
import { OperatorStateStore } from '../state/operatorState.ts';
import { LOG_CHUNK } from '../state/appendLog.ts';
import { sampleSnapshot } from './storeBehaviour.suite.ts';
import { approxSize } from '../state/size.ts';

describe('MemoryCheckpointStore copies', () => {
  afterEach(() => vi.restoreAllMocks());

  it('copies an append log\'s sealed chunks once: a checkpoint copies its open tail, not the whole log', async () => {
    const ops = new OperatorStateStore();
    const log = ops.log<{ i: number }>('rows');
    for (let i = 0; i < 20_000; i++) log.push({ i });
    const snap = (): SubtaskSnapshot => ({ subtask: 'out#0', parallelism: 1, keyed: { type: 'inline', snapshot: { maxParallelism: 128, keyGroups: {} } }, operator: ops.snapshot(), timers: [], watermark: 0, counters: {} });
    const store = new MemoryCheckpointStore();
    const first = await store.writeSubtask('j', 1, snap());
    for (let i = 20_000; i < 20_100; i++) log.push({ i });
    const clone = vi.spyOn(globalThis, 'structuredClone');
    const s2 = snap();
    const second = await store.writeSubtask('j', 2, s2);
    // Rows copied: the tail (what came since the last full chunk), never a sealed chunk again.
    const copiedRows = clone.mock.calls.reduce((n, [arg]) => n + (Array.isArray(arg) ? arg.length : 0), 0);
    expect(copiedRows).toBe(20_100 - LOG_CHUNK * Math.floor(20_100 / LOG_CHUNK));
    clone.mockRestore();
    const rows = (s: SubtaskSnapshot) => Object.values(s.operator.logs ?? {}).flat(2) as { i: number }[];
    expect(rows(await store.readSubtask(second.ref)).map((r) => r.i)).toEqual([...Array(20_100).keys()]);
    expect(rows(await store.readSubtask(first.ref))).toHaveLength(20_000);
    // What the writer does with its log afterwards cannot change what is stored.
    log.removeLast((r) => r.i === 5);
    log.push({ i: -1 });
    expect(rows(await store.readSubtask(second.ref))).toHaveLength(20_100);
  });

  it('copies only the keys and timers that changed since the last checkpoint, and reads back every one', async () => {
    const time = { processingTime: () => 0, eventTime: () => 0 };
    const backend = new MemoryStateBackend(time);
    const count = backend.value(valueState<number>('n'));
    const timers = new TimerService();
    for (let k = 0; k < 200; k++) {
      backend.setCurrentKey(k);
      count.update(k);
      timers.register({ domain: 'event', key: k, ts: 1000, namespace: null });
    }
    const snap = (): SubtaskSnapshot => ({ subtask: 'agg#0', parallelism: 1, keyed: { type: 'inline', snapshot: backend.snapshot() }, operator: { lists: {}, broadcast: {} }, timers: timers.snapshot(), watermark: 0, counters: {} });
    const store = new MemoryCheckpointStore();
    const first = await store.writeSubtask('j', 1, snap());
    backend.setCurrentKey(7);
    count.update(70);
    timers.register({ domain: 'event', key: 'late', ts: 5, namespace: null });
    const clone = vi.spyOn(globalThis, 'structuredClone');
    const s2 = snap();
    const second = await store.writeSubtask('j', 2, s2);
    // The changed key, the new timer and the snapshot's own fields; not the other 199 keys and 200 timers.
    const copied = clone.mock.calls.reduce((n, [arg]) => n + approxSize(arg), 0);
    expect(copied).toBeLessThan(approxSize(s2) / 20);
    clone.mockRestore();
    const back = await store.readSubtask(second.ref);
    const cells = Object.values((back.keyed as { snapshot: { keyGroups: Record<number, { key: unknown; value: unknown }[]> } }).snapshot.keyGroups).flat();
    expect(cells).toHaveLength(200);
    expect(cells.find((c) => c.key === 7)?.value).toBe(70);
    expect(cells.find((c) => c.key === 8)?.value).toBe(8);
    expect(back.timers).toHaveLength(201);
    const old = await store.readSubtask(first.ref);
    expect(Object.values((old.keyed as { snapshot: { keyGroups: Record<number, { key: unknown; value: unknown }[]> } }).snapshot.keyGroups).flat().find((c) => c.key === 7)?.value).toBe(7);
  });
});

describe('MemoryCheckpointStore handover', () => {
  const cellsOf = (s: SubtaskSnapshot) => (s.keyed as { snapshot: { keyGroups: Record<number, { key: unknown; value: unknown }[]> } }).snapshot.keyGroups;

  it('stores a handed-over snapshot without copying it', async () => {
    const store = new MemoryCheckpointStore({ ownership: 'handover' });
    const clone = vi.spyOn(globalThis, 'structuredClone');
    await store.writeSubtask('j', 1, sampleSnapshot('op#0', 1));
    expect(clone).not.toHaveBeenCalled();
    clone.mockRestore();
  });

  it('gives each reader its own envelope: changing what it read leaves the checkpoint as written', async () => {
    const store = new MemoryCheckpointStore({ ownership: 'handover' });
    const snap: SubtaskSnapshot = { ...sampleSnapshot('op#0', 1), pendingCommits: [{ origin: 'op#0', epoch: 1, els: [{ kind: '+I', row: { a: 1 }, ts: 0 }] }], deadLetterEpochs: [{ origin: 'op#0', epoch: 1, items: [] }] };
    const written = structuredClone(snap);
    const { ref } = await store.writeSubtask('j', 1, snap);
    const r = await store.readSubtask(ref);
    cellsOf(r)[3].push({ key: 'extra', value: 1 });
    cellsOf(r)[3].splice(0, 1);
    cellsOf(r)[9] = [];
    r.timers.length = 0;
    r.operator.lists.offsets.push('more');
    r.operator.broadcast.rules[0][1] = { on: false };
    r.counters.in = 99;
    r.source!.offset = 0;
    r.channels![0].ended = false;
    r.pendingCommits![0].els.push({ kind: '-D', row: { a: 1 }, ts: 0 });
    r.deadLetterEpochs![0].items.push({ node: 'op', reason: 'x', record: null } as never);
    r.watermark = 0;
    expect(await store.readSubtask(ref)).toEqual(written);
  });

  it('a restored backend, timer service and operator state cannot change the checkpoint they came from', async () => {
    const time = { processingTime: () => 0, eventTime: () => 0 };
    const backend = new MemoryStateBackend(time);
    const total = backend.value(valueState<{ n: number; seen: number[] }>('total'));
    const items = backend.list(listState<{ id: number }>('items'));
    const byId = backend.map(mapState<string, { q: number }>('byId'));
    for (let k = 0; k < 20; k++) {
      backend.setCurrentKey(k);
      total.update({ n: k, seen: [k] });
      items.add({ id: k });
      byId.put('a', { q: k });
    }
    const timers = new TimerService();
    timers.register({ domain: 'event', key: 3, ts: 100, namespace: null });
    const ops = new OperatorStateStore();
    ops.list<{ o: number }>('offsets').push({ o: 1 });
    const snap: SubtaskSnapshot = { subtask: 'agg#0', parallelism: 1, keyed: { type: 'inline', snapshot: backend.snapshot() }, operator: ops.snapshot(), timers: timers.snapshot(), watermark: 0, counters: {} };
    const written = structuredClone(snap);
    const store = new MemoryCheckpointStore({ ownership: 'handover' });
    const { ref } = await store.writeSubtask('j', 1, snap);

    // The writer goes on as a live job does after a checkpoint: its next reads and writes are copy-on-write.
    for (let k = 0; k < 20; k++) {
      backend.setCurrentKey(k);
      total.value()!.seen.push(-1);
      items.get()[0].id = -1;
      items.add({ id: -2 });
      byId.get('a')!.q = -1;
      byId.put('b', { q: -2 });
    }

    // A reader restores what it read and mutates it the way operators do, with and without update().
    const r = await store.readSubtask(ref);
    const restored = new MemoryStateBackend(time);
    const rTotal = restored.value(valueState<{ n: number; seen: number[] }>('total'));
    const rItems = restored.list(listState<{ id: number }>('items'));
    const rById = restored.map(mapState<string, { q: number }>('byId'));
    restored.restore([(r.keyed as { snapshot: Parameters<MemoryStateBackend['restore']>[0][number] }).snapshot]);
    for (let k = 0; k < 20; k++) {
      restored.setCurrentKey(k);
      const t = rTotal.value()!;
      t.n = -1;
      t.seen.push(-1);
      if (k % 2) rTotal.update(t);
      rItems.get()[0].id = -1;
      rItems.add({ id: -2 });
      rById.get('a')!.q = -1;
      rById.put('b', { q: -2 });
    }
    const rTimers = new TimerService();
    rTimers.restore(r.timers);
    rTimers.delete({ domain: 'event', key: 3, ts: 100, namespace: null });
    rTimers.register({ domain: 'event', key: 4, ts: 50, namespace: null });
    const rOps = new OperatorStateStore();
    rOps.restore([r.operator]);
    rOps.list<{ o: number }>('offsets')[0].o = -1;

    expect(await store.readSubtask(ref)).toEqual(written);
  });
});
