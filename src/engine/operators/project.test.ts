import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { compileExpr } from '../../expr/index.ts';
import { fieldByField, projection } from './project.ts';
import { objectLiteralFunction } from '../../core/objectLiteral.ts';

// Rows compared with their key order and prototype: a compiled literal must build the very row
// that field-by-field assignment builds.
const exact = (row: object) => ({ proto: Object.getPrototypeOf(row), keys: Reflect.ownKeys(row), entries: Object.entries(row) });

const cases: { names: string[]; exprs: string[] }[] = [
  { names: ['a', 'b', 'c'], exprs: ['x', 'y.z', 'x + 1'] },
  { names: ['b', '2', 'a', '1'], exprs: ['x', 'x', 'y', 'y'] },
  { names: ['a', 'a'], exprs: ['x', 'y.z'] },
  { names: ['quote"d', 'new\nline', 'sep\u2028', 'back\\slash', '', 'constructor', 'toString'], exprs: ['x', 'x', 'x', 'x', 'x', 'x', 'x'] },
  { names: ['__proto__', 'a'], exprs: ['y', 'x'] },
  { names: ['a', 'b', 'c', 'd', 'e', 'f'], exprs: ['y.length', 'y.z.w', 'y.constructor', 'constructor', '`we"ird`.z', 'y.`0`'] },
];
const rows = [{ x: 1, y: { z: 'v' } }, { x: null, y: null }, {}, { x: 'text', y: { z: null } }, { y: [1, 2] }, { y: 'text' }, { y: { z: { w: 0 }, length: undefined } }, { y: Object.create({ z: 'inherited' }) }];

describe('project: a compiled literal builds the row field-by-field assignment builds', () => {
  for (const { names, exprs } of cases) {
    it(`fields ${JSON.stringify(names)}`, () => {
      // Compiled indeed: a name that broke the generated source would fall back without a word.
      expect(objectLiteralFunction(['r'], names, () => 'r')).not.toBeNull();
      const evals = exprs.map((e) => compileExpr(e).evaluate);
      const compiled = projection(names, evals, exprs.map((e) => compileExpr(e).ast));
      const plain = fieldByField(names, evals);
      for (const row of rows) expect(exact(compiled(row))).toEqual(exact(plain(row)));
    });
  }

  it('keeps kind, time and origin, and turns missing values into NULL', () => {
    const h = new OperatorHarness('project', { fields: [{ name: 'p', expr: 'bid.price * 2' }, { name: 'gone', expr: 'nothing' }] });
    h.processElement({ bid: { price: 3 } }, { ts: 5, kind: '-U' }).processElement({ bid: null }, { ts: null, kind: '+U' });
    expect(h.output()).toEqual([
      { kind: '-U', row: { p: 6, gone: null }, ts: 5 },
      { kind: '+U', row: { p: null, gone: null }, ts: null },
    ]);
  });
});
