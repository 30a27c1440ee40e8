import { describe, expect, it } from 'vitest';
import { packColumn, unpackColumn, type WireColumn } from './packedRows.ts';

/** What a store or another thread gets back: the structured clone of the packed column, unpacked. */
const roundTrip = (values: unknown[]) => {
  const packed = structuredClone(packColumn(values));
  return { col: packed.col, out: Array.from(unpackColumn(packed)) };
};

const kindOf = (c: WireColumn): string => (c instanceof Float64Array ? 'numbers' : c.t);

/** Every leaf column of a packed column, depth first. */
function leaves(c: WireColumn): WireColumn[] {
  if (c instanceof Float64Array || (c.t !== 'rec' && c.t !== 'tup')) return [c];
  return c.cols.flatMap(leaves);
}

describe('a packed column of values', () => {
  it("takes an aggregate's state apart into number columns only: the record, its accumulator tuples and its output row", () => {
    const values = Array.from({ length: 50 }, (_, k) => ({ n: 3 + k, accs: [3 + k, [41.5 + k, k % 7 ? k : -0]], out: { key: k, cnt: 3 + k, total: k % 9 ? 41.5 + k : NaN } }));
    const { col, out } = roundTrip(values);
    expect(kindOf(col)).toBe('rec');
    expect(leaves(col).map(kindOf)).toEqual(['numbers', 'numbers', 'numbers', 'numbers', 'numbers', 'numbers', 'numbers']);
    expect(out).toEqual(values);
    for (let k = 0; k < values.length; k++) {
      expect(Array.isArray((out[k] as { accs: unknown }).accs)).toBe(true);
      const second = (v: unknown) => ((v as { accs: [number, number[]] }).accs[1] as number[])[1];
      expect(Object.is(second(out[k]), second(values[k]))).toBe(true);
    }
  });

  it('packs plain numbers (a count) into one typed array, -0 and NaN kept', () => {
    const values = [1, -0, NaN, Infinity, 2.5];
    const { col, out } = roundTrip(values);
    expect(kindOf(col)).toBe('numbers');
    values.forEach((v, i) => expect(Object.is(out[i], v)).toBe(true));
  });

  it('leaves as values what a tuple column could not rebuild exactly: holes, named fields, lengths that differ, objects inside, long arrays', () => {
    const holey = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const named = Object.assign([1, 2], { tag: 'x' });
    const cases: unknown[][] = [
      [[1, 2, 3], holey, [4, 5, 6]],
      [[1, 2], named],
      [[1, 2], [3, 4, 5]],
      [[1, new Map([[1, 2]])], [2, new Map()]],
      [Array.from({ length: 17 }, (_, i) => i), Array.from({ length: 17 }, (_, i) => -i)],
    ];
    for (const values of cases) {
      const { col, out } = roundTrip(values);
      expect(kindOf(col)).toBe('any');
      expect(out).toEqual(values);
    }
    const back = roundTrip([[1, 2, 3], holey, [4, 5, 6]]).out;
    expect(1 in (back[1] as unknown[])).toBe(false);
    expect((roundTrip([[1, 2], named]).out[1] as unknown as { tag: string }).tag).toBe('x');
  });

  it('round-trips tuples of strings, nulls and nested tuples, and mixed or empty lists as they are', () => {
    const tuples = Array.from({ length: 20 }, (_, i) => [i % 3 ? `s${i % 2}` : null, [i, [i / 2, i % 4 ? null : 1]], true]);
    const { col, out } = roundTrip(tuples);
    expect(kindOf(col)).toBe('tup');
    expect(out).toEqual(tuples);
    for (const values of [[1, 'a', null, { x: 1 }, [1]], [], [undefined, 1], [new Map([[1, 2]]), new Map()]]) expect(roundTrip(values).out).toEqual(values);
  });
});
