import { describe, expect, it } from 'vitest';
import { keyGroupOf, keySelector } from './keys.ts';

/** What a composite key has always been: the JSON text of the array of its normalized parts. */
function reference(fields: readonly string[], row: Record<string, unknown>): string {
  const norm = (v: unknown) => (v === undefined || v === null ? null : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : JSON.stringify(v));
  return JSON.stringify(fields.map((f) => norm(row[f])));
}

const VALUES: unknown[] = [0, -0, 1, -1.5, 1e21, 1e-7, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity, '', 'a', 'a,b', '"q"', 'line\nbreak', '\u2028', '\ud800', 'é', true, false, null, undefined, { a: 1 }, [1, 'x'], () => 1];

describe('keySelector', () => {
  it('writes composite keys byte for byte as JSON.stringify of the parts', () => {
    let seed = 7;
    const pick = () => VALUES[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % VALUES.length];
    for (const fields of [['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd', 'e']]) {
      const sel = keySelector(fields);
      for (let i = 0; i < 3000; i++) {
        const row: Record<string, unknown> = {};
        for (const f of fields) if (i % 11 !== 0 || f !== 'b') row[f] = pick();
        const key = sel(row);
        expect(key).toBe(reference(fields, row));
        expect(keyGroupOf(key)).toBe(keyGroupOf(reference(fields, row)));
      }
    }
  });

  it('writes the same text when parts repeat from row to row (the selector keeps the last texts)', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const fields of [['a', 'b'], ['a', 'b', 'c']]) {
      const sel = keySelector(fields);
      const row: Record<string, unknown> = {};
      for (let i = 0; i < 5000; i++) {
        // Mostly one part changes, often none: 0 then -0, NaN then NaN, 1 then '1' follow each other.
        for (const f of fields) if (next() % 4 === 0) row[f] = VALUES[next() % VALUES.length];
        expect(sel({ ...row })).toBe(reference(fields, row));
      }
    }
  });

  it('keeps one-field keys raw and an empty key list as one key', () => {
    expect(keySelector(['a'])({ a: 3 })).toBe(3);
    expect(keySelector(['a'])({ a: { x: 1 } })).toBe('{"x":1}');
    expect(keySelector([])({ a: 3 })).toBe(null);
  });
});
