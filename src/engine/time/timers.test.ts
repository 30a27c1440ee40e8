import { describe, expect, it } from 'vitest';
import { seededRng } from '../../core/rng.ts';
import { TimerService, type Timer } from './timers.ts';

describe('TimerService', () => {
  it('fires in (time, registration) order, once per distinct timer, skipping deleted ones', () => {
    const rng = seededRng(7);
    const timers = new TimerService();
    const expected: Timer[] = [];
    const seen = new Set<string>();
    const keys = ['a', 'b', 1, 2, null, true, 'n1', 's'] as const;
    for (let i = 0; i < 2000; i++) {
      const t: Timer = { domain: 'event', key: rng.pick(keys), ts: rng.int(300), namespace: rng.int(3) };
      timers.register(t);
      const id = JSON.stringify([t.key, t.ts, t.namespace]);
      if (!seen.has(id)) expected.push(t);
      seen.add(id);
    }
    const gone = expected.filter((_, i) => i % 5 === 0);
    for (const t of gone) timers.delete(t);
    const want = expected.filter((_, i) => i % 5 !== 0).sort((x, y) => x.ts - y.ts);
    const got: Timer[] = [];
    for (let t = timers.pollDue('event', 299); t; t = timers.pollDue('event', 299)) got.push(t);
    expect(got).toEqual(want);
    expect(timers.count()).toBe(0);
  });

  it('keeps the string key "1" and the number key 1 apart', () => {
    const timers = new TimerService();
    timers.register({ domain: 'event', key: '1', ts: 5, namespace: null });
    timers.register({ domain: 'event', key: 1, ts: 5, namespace: null });
    expect(timers.count()).toBe(2);
  });
});
