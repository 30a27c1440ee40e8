import { describe, expect, it } from 'vitest';
import { markShared, sharedId } from './sharedRows.ts';

describe('sharedId', () => {
  it('makes the id of a shared row once, and of any other row every time', () => {
    let made = 0;
    const make = (r: { a: number }) => (made++, `id${r.a}`);
    const shared = { a: 1 };
    markShared(shared);
    expect([sharedId(shared, make), sharedId(shared, make)]).toEqual(['id1', 'id1']);
    expect(made).toBe(1);
    const other = { a: 2 };
    expect([sharedId(other, make), sharedId(other, make)]).toEqual(['id2', 'id2']);
    expect(made).toBe(3);
  });

  it('marking a row again keeps the id it has', () => {
    const row = { a: 1 };
    markShared(row);
    expect(sharedId(row, () => 'first')).toBe('first');
    markShared(row);
    expect(sharedId(row, () => 'second')).toBe('first');
  });
});
