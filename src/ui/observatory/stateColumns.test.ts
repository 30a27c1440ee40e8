import { describe, expect, it } from 'vitest';
import { fmtClock, resultColumns } from './stateColumns.ts';
import type { StateTable } from '../../runtime/observe/types.ts';

const table: StateTable = {
  node: 'visits',
  descriptors: ['group'],
  total: 1,
  offset: 0,
  rows: [{ key: 'c1', keyText: '"c1"', states: { group: { n: 5, accs: [5, { max: 2 }], out: { customer_id: 'c1', name: 'Ann', visits: 5, last_visit: 2 } } }, ttlMs: {}, updatedAt: 1234, subtask: 0, changed: false }],
};

describe('state as the user declared it', () => {
  it('shows the declared output columns from the result row, not the accumulators', () => {
    const r = resultColumns(table, ['customer_id', 'name', 'visits', 'last_visit'], ['customer_id', 'name'])!;
    expect(r.columns).toEqual(['visits', 'last_visit']);
    expect(r.row(table.rows[0].states)).toMatchObject({ visits: 5, last_visit: 2 });
  });
  it('falls back to the raw state when there is no result row', () => {
    expect(resultColumns({ ...table, rows: [{ ...table.rows[0], states: { group: [1, 2] } }] }, ['visits'], [])).toBeNull();
  });
  it('gives times a unit', () => {
    expect(fmtClock(1234)).toBe('1,234 ms');
    expect(fmtClock(null)).toBe('—');
  });
});
