import { describe, expect, it } from 'vitest';
import { stateFrame } from './fixtures.ts';
import { bumpFlashes, flashClass, soonestTtl, stateWindow } from './stateLogic.ts';

describe('state table logic', () => {
  const rows = stateFrame.state!.rows;

  it('bumps the flash counter of changed rows only, alternating the animation', () => {
    const c = bumpFlashes(new Map(), rows);
    expect(flashClass(c, '"alice"')).toBe(' obs-flash-a');
    expect(flashClass(c, '"bob"')).toBe('');
    bumpFlashes(c, rows);
    expect(flashClass(c, '"alice"')).toBe(' obs-flash-b');
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
