import { describe, expect, it } from 'vitest';
import type { Key } from '../../core/types.ts';
import { buildChunks, entryCells, entryCount, entryKey, forEachLatest, isColumnar, mergeChunks, type CellRecord, type ChunkEntry, type ChunkRecord } from './chunks.ts';
import { COLUMNAR_FORMAT, ColumnarChunkBuilder, type ColumnarChunk } from './columnarChunk.ts';

const decode = (r: ChunkRecord): ChunkEntry[] => Array.from({ length: entryCount(r) }, (_, i) => [entryKey(r, i), entryCells(r, i)]);

let serial = 0;
const nextId = () => `op#0~${String(serial++).padStart(12, '0')}`;

describe('columnar chunk values', () => {
  it('give back exactly the entries they were built from: keys, states, kinds, times, tombstones', () => {
    const entries: ChunkEntry[] = [
      ['a', [['cnt', 'value', 3, 10, null], ['hist', 'list', [[1, 5], [2, 6]], 7, 1_000]]],
      [7, [['cnt', 'value', { deep: [1, { x: 'y' }] }, 11, -Infinity]]],
      [null, null],
      [true, [['attrs', 'map', [['f', 1, 3]], 0, Number.NaN]]],
      ['', [['cnt', 'value', null, 12, 0]]],
    ];
    const { records, refs } = buildChunks(3, entries, 2, 9, nextId);
    expect(records.map((r) => r.keys.length)).toEqual([2, 2, 1]);
    expect(refs.map((r) => [r.keyGroup, r.entries, r.writtenBy])).toEqual([
      [3, 2, 9],
      [3, 2, 9],
      [3, 1, 9],
    ]);
    // What IndexedDB stores is the structured clone of the value.
    const stored = records.map((r) => structuredClone(r));
    expect(stored.flatMap(decode)).toEqual(entries);
    for (const r of stored) expect(isColumnar(r)).toBe(true);
  });

  it('keep every column a plain array and fold a column whose cells agree into one value', () => {
    const b = new ColumnarChunkBuilder();
    for (let k = 0; k < 5; k++) {
      b.beginEntry(k * 1.5);
      b.cell('sum', 'reducing', k * 0.1, 7, null);
      b.endEntry();
    }
    const same = structuredClone(b.seal('c1', 0, 1)!.record);
    expect(same).toMatchObject({ v: 3, keys: [0, 1.5, 3, 4.5, 6], ends: null, state: null, touched: 7, eventTime: null, values: [0, 0.1, 0.2, 0.30000000000000004, 0.4] });
    expect(decode(same).map((e) => e[1]![0])).toEqual([0, 1, 2, 3, 4].map((k) => ['sum', 'reducing', k * 0.1, 7, null]));

    b.beginEntry(1);
    b.cell('v', 'value', 'x', 0, 4);
    b.endEntry();
    b.beginEntry('two');
    b.cell('v', 'value', 1, 3, Number.NaN);
    b.cell('w', 'value', 2, 0, null);
    b.endEntry();
    b.beginEntry('gone');
    b.endEntry();
    const mixed = structuredClone(b.seal('c2', 0, 1)!.record);
    expect(mixed).toMatchObject({ keys: [1, 'two', 'gone'], ends: [1, 3, 3], state: [0, 0, 1], touched: [0, 3, 0], eventTime: [4, Number.NaN, null] });
    expect(decode(mixed)).toEqual([
      [1, [['v', 'value', 'x', 0, 4]]],
      ['two', [['v', 'value', 1, 3, Number.NaN], ['w', 'value', 2, 0, null]]],
      ['gone', null],
    ]);
  });

  it('read chunks of format 2, whose number columns are typed arrays (NaN standing for a null event time)', () => {
    const f2: ColumnarChunk = {
      id: 'f2',
      kg: 0,
      writtenBy: 1,
      v: 2,
      keys: new Float64Array([1, 2, 3]),
      ends: new Uint32Array([1, 3, 3]),
      states: ['v', 'w'],
      kinds: ['value', 'list'],
      state: new Uint16Array([0, 0, 1]),
      touched: new Float64Array([5, 6, 7]),
      eventTime: new Float64Array([Number.NaN, 10, 11]),
      values: new Float64Array([0.5, 1, 2]),
    };
    expect(isColumnar(f2)).toBe(true);
    expect(decode(f2)).toEqual([
      [1, [['v', 'value', 0.5, 5, null]]],
      [2, [['v', 'value', 1, 6, 10], ['w', 'list', 2, 7, 11]]],
      [3, null],
    ]);
  });

  it('drop a trailing empty entry on request, and only an empty one', () => {
    const b = new ColumnarChunkBuilder();
    b.beginEntry('gone');
    expect(b.endEntry()).toBe(false);
    b.dropLastEntry();
    b.beginEntry('kept');
    b.cell('v', 'value', 1, 0, null);
    expect(b.endEntry()).toBe(true);
    expect(() => b.dropLastEntry()).toThrow(/only an entry without cells/);
    expect(decode(b.seal('c', 0, 1)!.record)).toEqual([['kept', [['v', 'value', 1, 0, null]]]]);
    expect(b.seal('c', 0, 1)).toBeNull();
  });

  it('merge with row chunks of the first format, later entries winning and tombstones deleting', () => {
    const cell = (v: number): CellRecord[] => [['v', 'value', v, 0, null]];
    const row: ChunkRecord = { id: 'old', kg: 0, writtenBy: 1, entries: [['a', cell(1)], ['b', cell(2)], ['c', cell(3)]] };
    const col = buildChunks(0, [['b', null], ['d', cell(4)], ['a', cell(10)]], 8, 2, nextId).records[0];
    const again = buildChunks(0, [['b', cell(20)]], 8, 3, nextId).records[0];
    const chunks = [row, col, again];
    const merged = mergeChunks(chunks);
    expect([...merged].map(([k, m]) => [k, m.cells[0][2], m.chunk])).toEqual([
      ['a', 10, col.id],
      ['c', 3, 'old'],
      ['d', 4, col.id],
      ['b', 20, again.id],
    ]);
    const latest: [Key, unknown][] = [];
    forEachLatest(chunks, (c, i) => latest.push([entryKey(chunks[c], i), entryCells(chunks[c], i)![0][2]]));
    expect(latest).toEqual([...merged].map(([k, m]) => [k, m.cells[0][2]]));
  });

  it('refuse a chunk of an unknown format with a clear error', () => {
    const future = { ...buildChunks(0, [['a', null]], 8, 1, nextId).records[0], v: 4 } as unknown as ColumnarChunk;
    expect(COLUMNAR_FORMAT).toBe(3);
    expect(() => isColumnar(future)).toThrow(/format 4, which this version of Weir cannot read/);
  });
});
