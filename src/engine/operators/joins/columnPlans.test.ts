import { describe, expect, it } from 'vitest';
import { renameRight, RowJoiner, rowId, sortedJson } from '../../../pipeline/kinds/joinColumns.ts';
import { unknownStream } from '../../../core/streamInfo.ts';
import type { StreamInfo } from '../../../core/streamInfo.ts';
import type { Row } from '../../../core/types.ts';
import { copyRow } from '../../../pipeline/kinds/rowShapes.ts';

const info = (fields: Record<string, 'integer' | 'string'> | null): StreamInfo => ({ ...unknownStream(), fields });

/** Row building as it was before per-shape plans: the renaming worked out for every row. */
class PerRowJoiner {
  private readonly leftNames: string[] | null;
  private readonly leftSet: ReadonlySet<string>;
  private readonly rightNames: string[] | null;
  private readonly fixed: Record<string, string> | null;
  constructor(left: StreamInfo, right: StreamInfo, private readonly leftKey: readonly string[]) {
    this.leftNames = left.fields ? Object.keys(left.fields) : null;
    this.rightNames = right.fields ? Object.keys(right.fields) : null;
    this.leftSet = new Set(this.leftNames ?? []);
    this.fixed = this.leftNames && this.rightNames ? renameRight(new Set(this.leftNames), this.rightNames) : null;
  }
  private namesFor(leftRow: Row | null, rightFields: readonly string[]): Record<string, string> {
    if (this.fixed && rightFields.every((f) => f in this.fixed!) && (!leftRow || Object.keys(leftRow).every((f) => this.leftSet.has(f)))) return this.fixed;
    const left = new Set<string>(this.leftNames ?? this.leftKey);
    if (leftRow) for (const f of Object.keys(leftRow)) left.add(f);
    return renameRight(left, [...new Set([...(this.rightNames ?? []), ...rightFields])]);
  }
  join(l: Row, r: Row): Row {
    const out: Row = { ...l };
    const names = this.namesFor(l, Object.keys(r));
    for (const [f, v] of Object.entries(r)) out[names[f]] = v;
    return out;
  }
  padRight(l: Row): Row {
    const out: Row = { ...l };
    if (!this.rightNames) return out;
    const names = this.namesFor(l, this.rightNames);
    for (const f of this.rightNames) out[names[f]] = null;
    return out;
  }
  padLeft(r: Row): Row {
    const out: Row = {};
    for (const f of this.leftNames ?? []) out[f] = null;
    const names = this.namesFor(null, Object.keys(r));
    for (const [f, v] of Object.entries(r)) out[names[f]] = v;
    return out;
  }
}

/** Byte for byte, key order included (toEqual would not see a different order). */
const bytes = (r: Row) => JSON.stringify(Object.entries(r));

describe('join row building with per-shape plans', () => {
  // Shapes interleave, change and come back, more of them than a shape cache keeps.
  const lefts: Row[] = [];
  const rights: Row[] = [];
  for (let i = 0; i < 60; i++) {
    const l: Row = { id: i, a: `a${i}` };
    if (i % 3 === 0) l.extra = i;
    if (i % 7 === 0) l[`only${i % 21}`] = true;
    if (i % 5 === 0) l.id_right = 'taken';
    lefts.push(i % 11 === 0 ? { a: l.a, id: l.id } : l);
    const r: Row = i % 4 === 0 ? { b: `b${i}`, id: i } : { id: i, b: `b${i}` };
    if (i % 6 === 0) r.a = 'clash';
    if (i % 9 === 0) r[`r${i % 27}`] = i;
    rights.push(r);
  }
  const schemas: [string, StreamInfo, StreamInfo][] = [
    ['both schemas known', info({ id: 'integer', a: 'string' }), info({ id: 'integer', b: 'string' })],
    ['left unknown', info(null), info({ id: 'integer', b: 'string' })],
    ['right unknown', info({ id: 'integer', a: 'string' }), info(null)],
    ['both unknown', info(null), info(null)],
  ];
  for (const [name, left, right] of schemas) {
    it(`builds exactly the rows the per-row renaming built (${name})`, () => {
      const planned = new RowJoiner(left, right, ['id']);
      const reference = new PerRowJoiner(left, right, ['id']);
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < lefts.length; i++) {
          const l = lefts[i];
          const r = rights[(i * 7) % rights.length];
          expect(bytes(planned.join(l, r))).toBe(bytes(reference.join(l, r)));
          expect(bytes(planned.padRight(l))).toBe(bytes(reference.padRight(l)));
          expect(bytes(planned.padLeft(r))).toBe(bytes(reference.padLeft(r)));
        }
      }
    });
  }
});

describe('copyRow', () => {
  it('copies as a spread does, symbol keys and an own __proto__ included', () => {
    const sym = Symbol('k');
    const rows: Row[] = [
      { b: 1, a: 'x', 10: 'ten', 2: 'two' },
      Object.assign({ a: 1 }, { [sym]: 2 }),
      JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Row,
      Object.assign(Object.create(null) as Row, { z: 1, y: 2 }),
    ];
    for (const r of rows) {
      const copy = copyRow(r, Object.keys(r));
      const spread = { ...r };
      expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys(spread));
      for (const k of Reflect.ownKeys(spread)) expect(copy[k as string]).toBe(spread[k as string]);
      expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(spread));
      expect(copy).not.toBe(r);
    }
  });
});

describe('rowId', () => {
  it('is the key-sorting JSON for every kind of row, shapes repeating or not', () => {
    const rows: Row[] = [
      { b: 1, a: 2 },
      { a: 2, b: 1 },
      { order_id: 'o-1', customer_id: 'c-1', city: 'Taipei', amount: 12.5, status: 'CREATED', ts: 1_700_000_000_000 },
      { z: NaN, y: Infinity, x: -0, w: -Infinity, v: undefined, u: null, t: false, s: 'quote " and \\ and \u2028' },
      { 10: 'ten', 9: 'nine', b: 'b', a: 'a', '01': 'zero-one', '-1': 'minus' },
      { a: 1, b: { d: 2, c: 3 } },
      { a: [3, { z: 1, y: 2 }], b: new Date(0) },
      { f: () => 1, a: 1 },
      JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}') as Row,
      Object.assign(Object.create(null) as Row, { b: 2, a: 1 }),
      { toJSON: 'not a function', a: 1 },
      { é: 1, e: 2, E: 3, '': 4 },
      {},
    ];
    for (let round = 0; round < 3; round++) for (const r of rows) expect(rowId(r)).toBe(sortedJson(r));
    // More shapes than are cached, in turn.
    for (let i = 0; i < 40; i++) {
      const r: Row = { [`k${i % 13}`]: i, id: i, a: `x${i}` };
      expect(rowId(r)).toBe(sortedJson(r));
    }
  });
});
