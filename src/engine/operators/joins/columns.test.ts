import { describe, expect, it } from 'vitest';
import { joinedFields, renameRight, RowJoiner, rowId } from '../../../pipeline/kinds/joinColumns.ts';
import { unknownStream } from '../../../core/streamInfo.ts';

const info = (fields: Record<string, 'integer' | 'string'> | null) => ({ ...unknownStream(), fields });

describe('join columns', () => {
  it('renames clashing right fields to <name>_right, adding more suffixes while the name is taken', () => {
    expect(renameRight(new Set(['id', 'id_right']), ['id', 'v'])).toEqual({ id: 'id_right_right', v: 'v' });
    expect(renameRight(new Set(['id']), ['id', 'id_right'])).toEqual({ id: 'id_right_right', id_right: 'id_right' });
    expect(joinedFields(info({ id: 'integer', a: 'string' }), info({ id: 'string', b: 'string' }))).toEqual({ id: 'integer', a: 'string', id_right: 'string', b: 'string' });
    expect(joinedFields(info({ id: 'integer' }), info(null))).toBeNull();
  });

  it('pads known fields with NULL and, with an unknown left schema, still names right key columns as joined rows do', () => {
    const known = new RowJoiner(info({ id: 'integer', a: 'string' }), info({ id: 'integer', b: 'string' }), ['id']);
    expect(known.padLeft({ id: 1, b: 'x' })).toEqual({ id: null, a: null, id_right: 1, b: 'x' });
    expect(known.padRight({ id: 1, a: 'x' })).toEqual({ id: 1, a: 'x', id_right: null, b: null });
    const unknown = new RowJoiner(info(null), info(null), ['id']);
    expect(unknown.join({ id: 1, a: 'x' }, { id: 1, b: 'y' })).toEqual({ id: 1, a: 'x', id_right: 1, b: 'y' });
    expect(unknown.padLeft({ id: 1, b: 'y' })).toEqual({ id_right: 1, b: 'y' });
    expect(unknown.padRight({ id: 1, a: 'x' })).toEqual({ id: 1, a: 'x' });
  });

  it('identifies rows independently of field order', () => {
    expect(rowId({ a: 1, b: { d: 2, c: 3 } })).toBe(rowId({ b: { c: 3, d: 2 }, a: 1 }));
  });
});
