import { describe, expect, it } from 'vitest';
import { stateFrame } from './fixtures.ts';
import { STEADY_AFTER, bumpFlashes, changeStreaks, flashClass, isSteady, soonestTtl, stateWindow } from './stateLogic.ts';

describe('state table logic', () => {
  const rows = stateFrame.state!.rows;

  it('bumps the flash counter of changed rows only, alternating the animation', () => {
    const c = bumpFlashes(new Map(), rows);
    expect(flashClass(c, '"alice"')).toBe(' obs-flash-a');
    expect(flashClass(c, '"bob"')).toBe('');
    bumpFlashes(c, rows);
    expect(flashClass(c, '"alice"')).toBe(' obs-flash-b');
  });

  it('stops flashing a key that changes in every frame, and flashes it again after a quiet frame', () => {
    let s = new Map<string, number>();
    for (let i = 0; i < STEADY_AFTER; i++) s = changeStreaks(s, rows);
    expect(isSteady(s, '"alice"')).toBe(false);
    s = changeStreaks(s, rows);
    expect(isSteady(s, '"alice"')).toBe(true);
    expect(isSteady(s, '"bob"')).toBe(false); // bob did not change
    s = changeStreaks(s, rows.map((r) => ({ ...r, changed: false })));
    s = changeStreaks(s, rows);
    expect(isSteady(s, '"alice"')).toBe(false);
  });

  it('takes the soonest TTL of the descriptors', () => {
    expect(soonestTtl(rows[0])).toBe(60_000 - 900);
    expect(soonestTtl({ ...rows[0], ttlMs: { a: null } })).toBeNull();
  });

  it('asks for the rows in view plus overscan, in steps', () => {
    expect(stateWindow(0, 280, 28, 20)).toEqual({ offset: 0, limit: 61 });
    const w = stateWindow(28 * 100, 280, 28, 20);
    expect(w.offset).toBe(80);
    expect(w.offset + w.limit).toBeGreaterThan(110);
    expect(stateWindow(28 * 101, 280, 28, 20).offset).toBe(80);
  });
});
