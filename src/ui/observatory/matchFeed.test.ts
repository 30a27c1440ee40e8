import { describe, expect, it } from 'vitest';
import { joinFrame } from './fixtures.ts';
import { MatchFeed, isPadded } from './matchFeed.ts';

const order = { order_id: 'o1', amount: 10, ts: 1000 };
const payment = { order_id: 'o1', paid: 10, ts: 9500 };
const padded = { order_id: 'o1', amount: 10, ts: 1000, order_id_right: null, paid: null, ts_right: null };
const joined = { order_id: 'o1', amount: 10, ts: 1000, order_id_right: 'o1', paid: 10, ts_right: 9500 };

describe('join output feed', () => {
  it('tells padded rows and their retractions from joined rows, whichever side arrived', () => {
    expect(isPadded({ left: order, right: null, out: padded })).toBe(true); // the order arrives alone
    expect(isPadded({ left: null, right: payment, out: padded })).toBe(true); // -D of the padded row
    expect(isPadded({ left: null, right: payment, out: joined })).toBe(false); // +I of the pair
    expect(isPadded({ left: order, right: payment, out: joined })).toBe(false);
  });

  it('keeps the last pairs across frames with fresh ids, ignoring a frame seen twice', () => {
    const feed = new MatchFeed(4);
    const join = joinFrame.join!;
    const first = feed.accept(join);
    expect(first.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(feed.accept(join)).toBe(first);
    const next = feed.accept({ ...join, recentMatches: join.recentMatches.slice(0, 2) });
    expect(next.map((m) => m.id)).toEqual([2, 3, 4, 5]);
    expect(feed.accept({ ...join, recentMatches: [] })).toBe(next);
  });
});
