import { describe, expect, it } from 'vitest';
import { diffPaths } from './diffPaths.ts';

describe('state diff paths', () => {
  it('lists only the leaves that changed, with readable paths', () => {
    const before = { group: { n: 24, accs: [24, 358.68, {}], out: { store_id: 's4', revenue: 358.68 } } };
    const after = { group: { n: 36, accs: [36, 503.4, {}], out: { store_id: 's4', revenue: 503.4 } } };
    expect(diffPaths(before, after)).toEqual([
      { path: 'group.n', before: 24, after: 36 },
      { path: 'group.accs.0', before: 24, after: 36 },
      { path: 'group.accs.1', before: 358.68, after: 503.4 },
      { path: 'group.out.revenue', before: 358.68, after: 503.4 },
    ]);
  });

  it('reports added and removed fields, and stops at the limit', () => {
    expect(diffPaths({ a: 1 }, { b: 2 })).toEqual([
      { path: 'a', before: 1, after: undefined },
      { path: 'b', before: undefined, after: 2 },
    ]);
    expect(diffPaths({ a: 1, b: 1, c: 1 }, { a: 2, b: 2, c: 2 }, 2)).toHaveLength(2);
    expect(diffPaths(3, 4)).toEqual([{ path: '', before: 3, after: 4 }]);
  });
});
