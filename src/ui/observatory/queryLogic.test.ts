import { describe, expect, it } from 'vitest';
import { matchesKey, parseKeyInput, queryKeyFields } from './queryLogic.ts';

describe('pull query input', () => {
  it('asks for the primary key, else the key the input declares', () => {
    expect(queryKeyFields({ primaryKey: ['order_id'] }, undefined)).toEqual(['order_id']);
    expect(queryKeyFields({}, { fields: null, eventTime: null, keyedBy: null, changelog: 'update', uniqueKey: ['store'] })).toEqual(['store']);
    expect(queryKeyFields(undefined, undefined)).toEqual([]);
  });

  it('types the key by the declared field types', () => {
    expect(parseKeyInput({ id: '42', city: 'Paris' }, ['id', 'city'], { id: 'integer', city: 'string' })).toEqual({ key: { id: 42, city: 'Paris' }, problems: [] });
    expect(parseKeyInput({ id: '4.5' }, ['id'], { id: 'integer' }).problems).toEqual([{ field: 'id', message: 'integer' }]);
    expect(parseKeyInput({ ok: 'yes' }, ['ok'], { ok: 'boolean' }).problems).toEqual([{ field: 'ok', message: 'boolean' }]);
    expect(parseKeyInput({}, ['id'], null)).toEqual({ key: null, problems: [{ field: 'id', message: 'empty' }] });
    expect(parseKeyInput({ id: '7', name: 'x7' }, ['id', 'name'], null).key).toEqual({ id: 7, name: 'x7' });
  });

  it('keeps a key subscription to the rows of that key', () => {
    expect(matchesKey({ order_id: 'o1', paid: 10 }, { order_id: 'o1' })).toBe(true);
    expect(matchesKey({ order_id: 'o2', paid: 10 }, { order_id: 'o1' })).toBe(false);
    expect(matchesKey({ order_id: 'o2' }, null)).toBe(true);
  });
});
