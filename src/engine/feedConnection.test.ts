import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.ts';
import { backoffDelay, FeedConnection } from './feedConnection.ts';
import type { FeedHandlers, FeedStatus } from './feedConnection.ts';

/** A transport whose connections the test opens, feeds and drops by hand, with timers it fires by hand. */
function rig(policy = { initialDelayMs: 100, maxDelayMs: 1000, maxAttempts: null as number | null }) {
  const clock = new ManualClock(0);
  const conns: { handlers: FeedHandlers; lastId: string | null; closed: boolean }[] = [];
  const timers: { fn: () => void; at: number }[] = [];
  const got: string[] = [];
  const ended: string[] = [];
  const states: FeedStatus['phase'][] = [];
  const feed = new FeedConnection(
    'ws://x',
    (_url, lastId, handlers) => {
      const c = { handlers, lastId, closed: false };
      conns.push(c);
      return { close: () => void (c.closed = true) };
    },
    policy,
    { set: (fn, ms) => timers.push({ fn, at: clock.now() + ms }), clear: () => undefined, random: () => 1 },
    clock,
    { message: (t) => got.push(t), ended: (r) => ended.push(r), changed: (s) => states.push(s.phase) },
  );
  const fire = () => {
    const t = timers.shift()!;
    clock.set(t.at);
    t.fn();
  };
  return { feed, conns, timers, got, ended, states, clock, fire };
}

describe('FeedConnection', () => {
  it('backs off exponentially with jitter, bounded, and resets after a good connection', () => {
    const p = { initialDelayMs: 100, maxDelayMs: 1000, maxAttempts: null };
    expect([1, 2, 3, 4, 5, 9].map((a) => backoffDelay(p, a, 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(p, 3, 0)).toBe(200);
    const r = rig();
    r.feed.start();
    r.conns[0].handlers.open();
    r.conns[0].handlers.message('a', '1');
    r.conns[0].handlers.close({ kind: 'network', text: 'connection reset', retry: true });
    expect(r.feed.status()).toMatchObject({ phase: 'reconnecting', attempt: 1, retryAt: 100, reason: 'connection reset' });
    r.fire();
    expect(r.conns[1].lastId).toBe('1');
    r.conns[1].handlers.close({ kind: 'http', text: 'HTTP 503 Service Unavailable', retry: true });
    expect(r.feed.status()).toMatchObject({ attempt: 2, retryAt: 300 });
    r.fire();
    r.conns[2].handlers.open();
    expect(r.feed.status()).toMatchObject({ phase: 'live', attempt: 0, reason: null });
    r.conns[2].handlers.close({ kind: 'network', text: 'x', retry: true });
    expect(r.feed.status().retryAt).toBe(r.clock.now() + 100);
    expect(r.states).toEqual(['connecting', 'live', 'reconnecting', 'connecting', 'reconnecting', 'connecting', 'live', 'reconnecting']);
  });

  it('ends on a close retrying cannot help, or when the attempts run out, and ignores a stale connection', () => {
    const r = rig({ initialDelayMs: 10, maxDelayMs: 10, maxAttempts: 1 });
    r.feed.start();
    r.conns[0].handlers.close({ kind: 'network', text: 'refused', retry: true });
    r.fire();
    r.conns[0].handlers.message('stale');
    r.conns[1].handlers.close({ kind: 'network', text: 'refused', retry: true });
    expect(r.ended).toEqual(['refused; gave up after 1 reconnect attempt']);
    expect(r.got).toEqual([]);
    const s = rig();
    s.feed.start();
    s.conns[0].handlers.open();
    s.conns[0].handlers.close({ kind: 'server', text: 'server closed the connection (1000 feed over)', retry: false });
    expect(s.feed.status()).toMatchObject({ phase: 'closed', reason: 'server closed the connection (1000 feed over)' });
    expect(s.timers).toHaveLength(0);
  });

  it('counts messages per second on its clock and closes the connection when stopped', () => {
    const r = rig();
    r.feed.start();
    r.conns[0].handlers.open();
    for (let i = 0; i < 4; i++) r.conns[0].handlers.message(`m${i}`);
    r.clock.set(600);
    r.conns[0].handlers.message('m4');
    expect(r.feed.status()).toMatchObject({ ratePerSec: 5, received: 5 });
    r.clock.set(1500);
    expect(r.feed.status().ratePerSec).toBe(1);
    r.feed.stop('stopped by the user');
    expect(r.conns[0].closed).toBe(true);
    expect(r.ended).toEqual(['stopped by the user']);
  });
});
