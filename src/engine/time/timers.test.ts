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

  it('treats a namespace as its text and a key as its value, and shows each registration as it was written', () => {
    const timers = new TimerService();
    timers.register({ domain: 'event', key: 0, ts: 5, namespace: 1 });
    timers.register({ domain: 'event', key: -0, ts: 5, namespace: '1' });
    expect(timers.count()).toBe(1);
    timers.delete({ domain: 'event', key: 0, ts: 5, namespace: '1' });
    expect(timers.has({ domain: 'event', key: 0, ts: 5, namespace: 1 })).toBe(false);
    // Registered again while its first entry is queued: both entries show, the first one fires.
    timers.register({ domain: 'event', key: -0, ts: 5, namespace: '1' });
    timers.register({ domain: 'event', key: 'x', ts: 5, namespace: null });
    timers.register({ domain: 'event', key: 'x', ts: 5, namespace: 'null' });
    expect(timers.snapshot()).toEqual([
      { domain: 'event', key: 0, ts: 5, namespace: 1 },
      { domain: 'event', key: -0, ts: 5, namespace: '1' },
      { domain: 'event', key: 'x', ts: 5, namespace: null },
    ]);
    expect(Object.is(timers.snapshot()[1].key, -0)).toBe(true);
    expect(timers.pollDue('event', 5)).toEqual({ domain: 'event', key: 0, ts: 5, namespace: 1 });
    expect(timers.pollDue('event', 5)).toEqual({ domain: 'event', key: 'x', ts: 5, namespace: null });
    expect(timers.pollDue('event', 5)).toBeUndefined();
    expect(timers.count()).toBe(0);
  });

  it('fires a timer set while its time is being drained after the ones set before, and an earlier one next', () => {
    const timers = new TimerService();
    for (const key of ['a', 'b', 'c']) timers.register({ domain: 'event', key, ts: 10, namespace: null });
    const fired: (string | number)[] = [];
    for (let t = timers.pollDue('event', 10); t; t = timers.pollDue('event', 10)) {
      fired.push(`${t.key}@${t.ts}`);
      if (t.key === 'a' && fired.length === 1) timers.register({ domain: 'event', key: 'a', ts: 10, namespace: null });
      if (t.key === 'b') timers.register({ domain: 'event', key: 'early', ts: 3, namespace: null });
      if (t.key === 'c' && fired.length < 6) timers.register({ domain: 'event', key: 'c', ts: 10, namespace: null });
    }
    expect(fired).toEqual(['a@10', 'b@10', 'early@3', 'c@10', 'a@10', 'c@10']);
    expect(timers.nextTime('event')).toBeUndefined();
  });

  it('snapshots, fires and restores exactly as a set of live ids over one heap does, through deletes, re-registrations and restores', () => {
    const rng = seededRng(11);
    const timers = new TimerService();
    const ref = new ReferenceTimers();
    const pick = (): Timer => ({ domain: rng.next() < 0.8 ? 'event' : 'processing', key: rng.pick(['a', 'b', 1, 2] as const), ts: rng.int(40), namespace: rng.int(2) });
    let upTo = 0;
    for (let i = 0; i < 6000; i++) {
      const r = rng.next();
      if (r < 0.45) {
        const t = pick();
        timers.register(t);
        ref.register(t);
      } else if (r < 0.65) {
        const t = pick();
        timers.delete(t);
        ref.delete(t);
      } else if (r < 0.8) {
        const d = rng.next() < 0.5 ? 'event' : 'processing';
        if (rng.next() < 0.1) upTo += 1;
        expect(timers.pollDue(d, upTo)).toEqual(ref.pollDue(d, upTo));
        expect(timers.nextTime(d)).toBe(ref.nextTime(d));
      } else if (r < 0.97) {
        expect(timers.snapshot()).toEqual(ref.snapshot());
        expect(timers.count()).toBe(ref.count());
      } else {
        const snap = ref.snapshot();
        timers.restore(snap);
        ref.restore(snap);
      }
    }
  });

  it('hands unchanged timers to the next snapshot as the same objects', () => {
    const timers = new TimerService();
    for (let k = 0; k < 100; k++) timers.register({ domain: 'event', key: k, ts: 10, namespace: null });
    const first = timers.snapshot();
    timers.register({ domain: 'event', key: 'new', ts: 5, namespace: null });
    timers.delete({ domain: 'event', key: 3, ts: 10, namespace: null });
    const second = timers.snapshot();
    expect(second).toHaveLength(100);
    expect(second[0].key).toBe('new');
    expect(second[1]).toBe(first[0]);
    expect(second.slice(1)).toEqual(first.filter((t) => t.key !== 3));
  });
});

/** How timers behaved before snapshots kept their order: a heap sorted on every snapshot, liveness a set of ids. */
class ReferenceTimers {
  private items: Record<string, (Timer & { seq: number; id: string })[]> = { event: [], processing: [] };
  private live = new Set<string>();
  private seq = 0;
  private id = (t: Timer) => JSON.stringify([t.domain, t.ts, t.namespace, typeof t.key, t.key]);
  private sorted = (d: string) => this.items[d].sort((a, b) => a.ts - b.ts || a.seq - b.seq);
  register(t: Timer) {
    const id = this.id(t);
    if (this.live.has(id)) return;
    this.live.add(id);
    this.items[t.domain].push({ ...t, seq: this.seq++, id });
  }
  delete(t: Timer) {
    this.live.delete(this.id(t));
  }
  pollDue(d: 'event' | 'processing', upTo: number): Timer | undefined {
    for (;;) {
      const top = this.sorted(d)[0];
      if (!top || top.ts > upTo) return undefined;
      this.items[d].shift();
      if (!this.live.delete(top.id)) continue;
      return { domain: top.domain, key: top.key, ts: top.ts, namespace: top.namespace };
    }
  }
  nextTime(d: 'event' | 'processing') {
    const s = this.sorted(d);
    while (s.length && !this.live.has(s[0].id)) s.shift();
    return s[0]?.ts;
  }
  count() {
    return this.live.size;
  }
  snapshot(): Timer[] {
    return (['event', 'processing'] as const).flatMap((d) => this.sorted(d).filter((q) => this.live.has(q.id)).map((q) => ({ domain: q.domain, key: q.key, ts: q.ts, namespace: q.namespace })));
  }
  restore(timers: readonly Timer[]) {
    this.items = { event: [], processing: [] };
    this.live.clear();
    for (const t of timers) this.register(t);
  }
}
