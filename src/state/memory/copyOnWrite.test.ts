import { describe, expect, it } from 'vitest';
import { MemoryStateBackend } from './memoryBackend.ts';
import { aggregatingState, listState, mapState, reducingState, valueState, withImmutableValues } from '../descriptors.ts';
import type { KeyedStateSnapshot } from '../backend.ts';

type Acc = { sum: number; seen: Set<string> };

// Snapshots share values with the live tables; these sequences would leak later writes into a
// snapshot if a read handed out a shared object or a changed cell reused its old snapshot cell.
function setup() {
  let now = 0;
  const b = new MemoryStateBackend({ processingTime: () => now, eventTime: () => now });
  const states = {
    value: b.value(valueState<{ n: number; tags: string[] }>('v')),
    list: b.list(listState<{ x: number }>('l')),
    map: b.map(mapState<string, { max: Map<string, number> }>('m')),
    reducing: b.reducing(reducingState<number[]>('r', (a, x) => (a.push(...x), a))),
    aggregating: b.aggregating(
      aggregatingState<string, Acc, number>('a', {
        create: () => ({ sum: 0, seen: new Set() }),
        add: (acc, s) => (acc.sum += s.length, acc.seen.add(s), acc),
        get: (acc) => acc.sum,
      }),
    ),
  };
  return { b, states, advance: (ms: number) => (now += ms) };
}

function fill({ b, states }: ReturnType<typeof setup>): void {
  for (const k of ['k1', 'k2']) {
    b.setCurrentKey(k);
    states.value.update({ n: 1, tags: ['a'] });
    states.list.add({ x: 1 });
    states.map.put('p', { max: new Map([['q', 1]]) });
    states.reducing.add([1]);
    states.aggregating.add('ab');
  }
}

function mutateEverything({ b, states }: ReturnType<typeof setup>): void {
  b.setCurrentKey('k1');
  // In place, then update (the documented pattern).
  const v = states.value.value()!;
  v.n = 99;
  v.tags.push('late');
  states.value.update(v);
  states.list.get()[0].x = 99;
  states.list.add({ x: 2 });
  states.map.get('p')!.max.set('q', 99);
  states.map.put('p2', { max: new Map() });
  states.reducing.add([99]);
  states.aggregating.add('late');
  // In place without update: not allowed, but it must not reach an earlier snapshot either.
  b.setCurrentKey('k2');
  states.value.value()!.tags.push('sneaky');
  (states.map.get('p')!.max as Map<string, number>).set('sneaky', 1);
  states.list.update([{ x: 7 }]);
  states.map.remove('p');
}

function readAll({ b, states }: ReturnType<typeof setup>) {
  const out: Record<string, unknown> = {};
  for (const k of ['k1', 'k2']) {
    b.setCurrentKey(k);
    out[k] = {
      value: states.value.value(),
      list: states.list.get(),
      map: states.map.entries(),
      reducing: states.reducing.get(),
      aggregating: states.aggregating.get(),
    };
  }
  return out;
}

describe('MemoryStateBackend copy-on-write snapshots', () => {
  it('a snapshot never sees a later write, in place or via update, and restores what it saw', () => {
    const live = setup();
    fill(live);
    const before = readAll(live);
    const snap = live.b.snapshot();
    const frozen = structuredClone(snap);
    mutateEverything(live);
    expect(readAll(live)).not.toEqual(before);
    expect(snap).toEqual(frozen);

    const fresh = setup();
    fresh.b.restore([snap]);
    expect(readAll(fresh)).toEqual(before);
  });

  it('restoring one snapshot twice gives independent states that do not write back into it', () => {
    const live = setup();
    fill(live);
    const before = readAll(live);
    const snap = live.b.snapshot();
    const frozen = structuredClone(snap);
    const a = setup();
    const c = setup();
    a.b.restore([snap]);
    c.b.restore([snap]);
    mutateEverything(a);
    expect(readAll(c)).toEqual(before);
    expect(snap).toEqual(frozen);
    // And a snapshot of the mutated restore holds the mutations.
    const d = setup();
    d.b.restore([a.b.snapshot()]);
    expect(readAll(d)).toEqual(readAll(a));
  });

  it('the next snapshot holds every change since the previous one, including in-place ones and access times', () => {
    const live = setup();
    fill(live);
    live.b.snapshot();
    mutateEverything(live);
    const after = readAll(live);
    const fresh = setup();
    fresh.b.restore([live.b.snapshot()]);
    expect(readAll(fresh)).toEqual(after);

    const ttl = new MemoryStateBackend({ processingTime: () => 5, eventTime: () => 0 });
    let now = 0;
    const timed = new MemoryStateBackend({ processingTime: () => now, eventTime: () => 0 });
    const s = timed.value(valueState<number>('t', { ttlMs: 100, update: 'onReadAndWrite', time: 'processing' }));
    timed.setCurrentKey('k');
    s.update(1);
    expect(cellsOf(timed.snapshot())[0].touched).toBe(0);
    now = 50;
    s.value();
    expect(cellsOf(timed.snapshot())[0].touched).toBe(50);
    expect(ttl.snapshot().keyGroups).toEqual({});
  });

  it('shares the snapshot cells of unchanged keys with the previous snapshot and rebuilds only changed ones', () => {
    const b = new MemoryStateBackend({ processingTime: () => 0, eventTime: () => 0 });
    const count = b.value(valueState<number>('count'));
    for (let i = 0; i < 1000; i++) {
      b.setCurrentKey(`k${i}`);
      count.update(i);
    }
    const first = cellsByKey(b.snapshot());
    b.setCurrentKey('k7');
    count.update(count.value()! + 1);
    b.setCurrentKey('k8');
    count.clear();
    const second = cellsByKey(b.snapshot());
    expect(second.size).toBe(999);
    let reused = 0;
    for (const [k, cell] of second) if (first.get(k) === cell) reused++;
    expect(reused).toBe(998);
    expect(second.get('k7')!.value).toBe(8);
    expect(first.get('k7')!.value).toBe(7);
  });
});

function cellsOf(s: KeyedStateSnapshot) {
  return Object.values(s.keyGroups).flat();
}
function cellsByKey(s: KeyedStateSnapshot) {
  return new Map(cellsOf(s).map((c) => [c.key, c]));
}

describe('immutable list and map values', () => {
  it('stay shared with a snapshot on read, keep its cell, and a put after it leaves the snapshot as taken', () => {
    const b = new MemoryStateBackend({ processingTime: () => 0, eventTime: () => 0 });
    const shared = b.map(withImmutableValues(mapState<string, { x: number }[]>('shared')));
    const copied = b.map(mapState<string, { x: number }[]>('copied'));
    b.setCurrentKey('k');
    const v = [{ x: 1 }];
    shared.put('a', v);
    copied.put('a', v);
    const first = b.snapshot();
    const taken = structuredClone(first);
    expect(shared.get('a')).toBe(v);
    expect(copied.get('a')).not.toBe(v);
    const cellOf = (s: KeyedStateSnapshot, state: string) => Object.values(s.keyGroups).flat().find((c) => c.state === state);
    const second = b.snapshot();
    expect(cellOf(second, 'shared')).toBe(cellOf(first, 'shared'));
    shared.put('a', [...shared.get('a')!, { x: 2 }]);
    shared.put('b', [{ x: 3 }]);
    expect(first).toEqual(taken);
    expect(cellOf(b.snapshot(), 'shared')!.value).toEqual([['a', [{ x: 1 }, { x: 2 }], 0], ['b', [{ x: 3 }], 0]]);
  });
});

describe('immutable values of a value state', () => {
  it('stay shared with a snapshot and a restore on read, keep the snapshot cell, and an update leaves the snapshot as taken', () => {
    const b = new MemoryStateBackend({ processingTime: () => 0, eventTime: () => 0 });
    const shared = b.value(withImmutableValues(valueState<{ x: number }[]>('shared')));
    const copied = b.value(valueState<{ x: number }[]>('copied'));
    b.setCurrentKey('k');
    const v = [{ x: 1 }];
    shared.update(v);
    copied.update(v);
    const first = b.snapshot();
    const taken = structuredClone(first);
    expect(shared.value()).toBe(v);
    expect(copied.value()).not.toBe(v);
    const cellOf = (s: KeyedStateSnapshot, state: string) => Object.values(s.keyGroups).flat().find((c) => c.state === state);
    expect(cellOf(b.snapshot(), 'shared')).toBe(cellOf(first, 'shared'));
    shared.update([...shared.value()!, { x: 2 }]);
    expect(first).toEqual(taken);
    expect(cellOf(b.snapshot(), 'shared')!.value).toEqual([{ x: 1 }, { x: 2 }]);

    // A restored value is read without a copy too, and the snapshot restored from stays as it was.
    b.restore([first]);
    expect(shared.value()).toBe(cellOf(first, 'shared')!.value);
    expect(copied.value()).not.toBe(cellOf(first, 'copied')!.value);
    shared.update([{ x: 3 }]);
    expect(first).toEqual(taken);
  });
});
