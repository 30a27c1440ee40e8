import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';

// A view keyed by a field that is not its input's unique key keeps every live row of the key, and
// a retraction removes the last row whose JSON text is its own.
describe('changelog table: which row a retraction takes back', () => {
  const view = () => new OperatorHarness('viewSink', { primaryKey: ['id'] });

  it('removes the latest equal flat row and leaves the others', () => {
    const h = view();
    h.processElement({ id: 1, v: 'a', n: 1 }, { kind: '+I' });
    h.processElement({ id: 1, v: 'b', n: 2 }, { kind: '+I' });
    h.processElement({ id: 1, v: 'b', n: 2 }, { kind: '-D' });
    expect(h.rows()).toEqual([{ id: 1, v: 'a', n: 1 }]);
    expect(h.deadLetters).toEqual([]);
  });

  it('compares as JSON does: the key order counts, a value of another type does not match', () => {
    const h = view();
    h.processElement({ id: 1, v: 'a' }, { kind: '+I' });
    h.processElement({ v: 'a', id: 1 }, { kind: '-D' });
    h.processElement({ id: 1, v: 1 }, { kind: '-D' });
    expect(h.deadLetters).toHaveLength(2);
    expect(h.rows()).toEqual([{ id: 1, v: 'a' }]);
  });

  it('matches rows that JSON writes alike: NaN as null, nested values, an undefined field left out', () => {
    const h = view();
    h.processElement({ id: 2, x: Number.NaN }, { kind: '+I' });
    h.processElement({ id: 3, o: { a: [1, 2] } }, { kind: '+I' });
    h.processElement({ id: 4, y: undefined, z: 1 }, { kind: '+I' });
    h.processElement({ id: 2, x: null }, { kind: '-D' });
    h.processElement({ id: 3, o: { a: [1, 2] } }, { kind: '-D' });
    h.processElement({ id: 4, z: 1 }, { kind: '-D' });
    expect(h.deadLetters).toEqual([]);
    expect(h.rows()).toEqual([]);
  });
});
