// The behaviour every KeyedStateBackend must show, written once and run against each backend
// (memory; IndexedDB with and without a tiny memory budget). Test-only: imported by *.test.ts.
import { describe, expect, it } from 'vitest';
import type { Key } from '../core/types.ts';
import type { KeyedStateBackend, StateTime } from './backend.ts';
import { aggregatingState, listState, mapState, reducingState, valueState } from './descriptors.ts';

export interface TestClock {
  proc: number;
  event: number;
  time: StateTime;
}

export function testClock(): TestClock {
  const c = { proc: 0, event: Number.NEGATIVE_INFINITY } as TestClock;
  c.time = { processingTime: () => c.proc, eventTime: () => c.event };
  return c;
}

export interface BackendTarget {
  make(time: StateTime): Promise<KeyedStateBackend>;
  /** Called before synchronous work on `keys`: durable backends checkpoint and prefetch here (and may evict others). */
  touch(b: KeyedStateBackend, keys: readonly Key[]): Promise<void>;
  /** Restores `from`'s current state into `into`, keeping the key groups `owns` accepts. */
  transfer(from: KeyedStateBackend, into: KeyedStateBackend, owns?: (kg: number) => boolean): Promise<void>;
}

const sorted = (keys: Key[]) => [...keys].sort((a, b) => String(a).localeCompare(String(b)));

export function keyedStateBackendSuite(name: string, target: BackendTarget): void {
  describe(`${name}: keyed state behaviour`, () => {
    const setup = async () => {
      const clock = testClock();
      const b = await target.make(clock.time);
      const at = async (keys: Key[], fn: (k: Key) => void) => {
        await target.touch(b, keys);
        for (const k of keys) {
          b.setCurrentKey(k);
          fn(k);
        }
      };
      return { clock, b, at };
    };

    it('value state is per key; update(null) and clear remove the key', async () => {
      const { b, at } = await setup();
      const v = b.value(valueState<number>('v'));
      await at(['a', 'b', 'c', 1, true], (k) => v.update(String(k).length));
      await at(['a'], () => v.clear());
      await at(['b'], () => v.update(null as unknown as number));
      await at(['c', 1, true, 'a'], (k) => expect(v.value()).toBe(k === 'a' ? undefined : String(k).length));
      await target.touch(b, []);
      expect(sorted(b.keys('v'))).toEqual(sorted(['c', 1, true]));
    });

    it('list state adds, replaces and clears', async () => {
      const { b, at } = await setup();
      const l = b.list(listState<string>('l'));
      await at(['k1', 'k2'], (k) => l.add(`${k}-1`));
      await at(['k1'], () => l.add('k1-2'));
      await at(['k2'], () => l.update(['x', 'y', 'z']));
      await at(['k1', 'k2'], (k) => expect(l.get()).toEqual(k === 'k1' ? ['k1-1', 'k1-2'] : ['x', 'y', 'z']));
      await at(['k1'], () => l.update([]));
      await at(['k2'], () => l.clear());
      await at(['k1', 'k2'], () => expect(l.get()).toEqual([]));
      expect(b.keys('l')).toEqual([]);
    });

    it('map state puts, removes and reports its entries', async () => {
      const { b, at } = await setup();
      const m = b.map(mapState<string, number>('m'));
      await at(['a', 'b'], (k) => {
        m.put('x', 1);
        m.put('y', k === 'a' ? 2 : 3);
      });
      await at(['a'], () => m.remove('x'));
      await at(['a', 'b'], (k) => {
        expect(m.get('y')).toBe(k === 'a' ? 2 : 3);
        expect(m.contains('x')).toBe(k === 'b');
        expect(m.size()).toBe(k === 'a' ? 1 : 2);
        expect(m.entries()).toEqual(k === 'a' ? [['y', 2]] : [['x', 1], ['y', 3]]);
      });
      await at(['a'], () => m.remove('y'));
      await at(['a', 'b'], (k) => expect(m.isEmpty()).toBe(k === 'a'));
      await target.touch(b, []);
      expect(b.keys('m')).toEqual(['b']);
    });

    it('reducing and aggregating state fold what is added', async () => {
      const { b, at } = await setup();
      const r = b.reducing(reducingState<number>('sum', (x, y) => x + y));
      const avg = b.aggregating(
        aggregatingState('avg', { create: () => ({ s: 0, n: 0 }), add: (a: { s: number; n: number }, x: number) => ({ s: a.s + x, n: a.n + 1 }), get: (a) => a.s / a.n }),
      );
      for (const x of [1, 2, 3, 4]) {
        await at(['p', 'q'], (k) => {
          r.add(k === 'p' ? x : 10 * x);
          avg.add(k === 'p' ? x : 10 * x);
        });
      }
      await at(['p', 'q'], (k) => {
        expect(r.get()).toBe(k === 'p' ? 10 : 100);
        expect(avg.get()).toBe(k === 'p' ? 2.5 : 25);
      });
      await at(['p'], () => r.clear());
      await at(['p'], () => expect(r.get()).toBeUndefined());
    });

    it('rejects one name bound as two kinds', async () => {
      const { b } = await setup();
      b.value(valueState('same'));
      expect(() => b.list(listState('same'))).toThrow(/already registered/);
    });

    it('expires values after their processing-time TTL; onReadAndWrite refreshes on read', async () => {
      const { b, at, clock } = await setup();
      const plain = b.value(valueState<number>('plain', { ttlMs: 100 }));
      const touchy = b.value(valueState<number>('touchy', { ttlMs: 100, update: 'onReadAndWrite' }));
      await at(['a', 'b'], () => {
        plain.update(1);
        touchy.update(2);
      });
      clock.proc = 60;
      await at(['a'], () => expect(touchy.value()).toBe(2));
      clock.proc = 120;
      expect(sorted(b.keys('plain'))).toEqual([]);
      await at(['a', 'b'], (k) => {
        expect(plain.value()).toBeUndefined();
        expect(touchy.value()).toBe(k === 'a' ? 2 : undefined);
      });
      clock.proc = 500;
      await at(['a'], () => expect(touchy.value()).toBeUndefined());
    });

    it('expires list and map entries one by one, and cleanupExpired counts them', async () => {
      const { b, at, clock } = await setup();
      const l = b.list(listState<number>('l', { ttlMs: 100 }));
      const m = b.map(mapState<string, number>('m', { ttlMs: 100 }));
      await at(['k', 'j'], () => {
        l.add(1);
        m.put('old', 1);
      });
      clock.proc = 50;
      await at(['k'], () => {
        l.add(2);
        m.put('new', 2);
      });
      clock.proc = 120;
      expect(b.keys('l')).toEqual(['k']);
      await at(['k'], () => {
        expect(l.get()).toEqual([2]);
        expect(m.entries()).toEqual([['new', 2]]);
      });
      await target.touch(b, ['k', 'j']);
      // How many entries keys() already dropped on the way differs (it cannot expire what is on disk); the end state does not.
      expect(b.cleanupExpired()).toBeGreaterThanOrEqual(1);
      expect(b.cleanupExpired()).toBe(0);
      expect(b.keys('m')).toEqual(['k']);
      expect(b.metrics().ttlCleanups).toBeGreaterThanOrEqual(4);
    });

    it('measures event-time TTL against the current event time', async () => {
      const { b, at, clock } = await setup();
      const v = b.value(valueState<string>('v', { ttlMs: 1000, time: 'event' }));
      clock.event = 5000;
      await at(['e'], () => v.update('x'));
      clock.event = 5999;
      await at(['e'], () => expect(v.value()).toBe('x'));
      clock.event = 6000;
      await at(['e'], () => expect(v.value()).toBeUndefined());
    });

    it('restores its state into another backend; later writes do not leak into it', async () => {
      const { b, at, clock } = await setup();
      const v = b.value(valueState<{ n: number; tags: Map<string, number> }>('v'));
      const l = b.list(listState<number>('l'));
      const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
      await at(keys, (k) => {
        v.update({ n: Number(String(k).slice(4)), tags: new Map([['t', 1]]) });
        l.add(1);
      });
      const into = await target.make(clock.time);
      into.value(valueState('v'));
      into.list(listState('l'));
      await target.transfer(b, into);
      await at(keys, () => {
        const cur = v.value()!;
        cur.n = -1;
        v.update(cur);
        l.add(2);
      });
      await target.touch(into, keys);
      for (const k of keys) {
        into.setCurrentKey(k);
        expect(into.value(valueState<{ n: number; tags: Map<string, number> }>('v')).value()).toEqual({ n: Number(String(k).slice(4)), tags: new Map([['t', 1]]) });
        expect(into.list(listState<number>('l')).get()).toEqual([1]);
      }
    });

    it('restore replaces what was there and keeps only owned key groups', async () => {
      const { b, at, clock } = await setup();
      const v = b.value(valueState<number>('v'));
      const keys = Array.from({ length: 64 }, (_, i) => i);
      await at(keys, (k) => v.update(Number(k) * 2));
      const into = await target.make(clock.time);
      const iv = into.value(valueState<number>('v'));
      await target.touch(into, ['stale']);
      into.setCurrentKey('stale');
      iv.update(7);
      const even = (kg: number) => kg % 2 === 0;
      await target.transfer(b, into, even);
      const snapKeys = sorted(into.keys('v'));
      expect(snapKeys).not.toContain('stale');
      expect(snapKeys.length).toBeGreaterThan(5);
      expect(snapKeys.length).toBeLessThan(60);
      await target.touch(into, snapKeys);
      for (const k of snapKeys) {
        into.setCurrentKey(k);
        expect(iv.value()).toBe(Number(k) * 2);
      }
    });

    it('reports metrics and an inspector view', async () => {
      const { b, at } = await setup();
      const v = b.value(valueState<number>('v'));
      const m = b.map(mapState<string, number>('m'));
      await at(['a', 'b', 'c'], (k) => v.update(String(k).charCodeAt(0)));
      await at(['a'], () => m.put('x', 1));
      const metrics = b.metrics();
      expect(metrics.keyCount).toBe(3);
      expect(metrics.perState.v.keys).toBe(3);
      expect(metrics.perState.m.keys).toBe(1);
      await target.touch(b, ['a', 'b', 'c']);
      const rows = b.inspect();
      expect(rows.find((r) => r.key === 'a')?.states).toEqual({ v: 97, m: { x: 1 } });
    });
  });
}
