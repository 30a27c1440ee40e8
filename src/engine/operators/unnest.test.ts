import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import type { UnnestParams } from '../../pipeline/kinds/unnest.ts';

const unnest = (params: UnnestParams) => new OperatorHarness('unnest', { ...params });

describe('unnest', () => {
  it('gives one row per element of an array of scalars, NULL elements kept, the input fields first', () => {
    const h = unnest({ expr: 'tags', as: ['tag'] }).processElement({ id: 1, tags: ['a', null, 'b'] });
    expect(h.lines()).toEqual(['+I {"id":1,"tags":["a",null,"b"],"tag":"a"}', '+I {"id":1,"tags":["a",null,"b"],"tag":null}', '+I {"id":1,"tags":["a",null,"b"],"tag":"b"}']);
  });

  it('fills the columns from a row element by the element fields named, whatever their order in the object', () => {
    const h = unnest({ expr: 'items', as: ['s', 'q'], elementFields: ['sku', 'qty'] }).processElement({ id: 1, items: [{ qty: 2, sku: 'x' }, { sku: 'y' }] });
    expect(h.output().map((e) => [e.row.s, e.row.q])).toEqual([
      ['x', 2],
      ['y', null],
    ]);
  });

  it('fills them from a row element in its own field order without element fields, and from an array element by position', () => {
    const rows = unnest({ expr: 'items', as: ['a', 'b'] }).processElement({ items: [{ x: 1, y: 2 }, [3, 4]] });
    expect(rows.output().map((e) => [e.row.a, e.row.b])).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('gives a map one row per entry: key and value', () => {
    const h = unnest({ expr: 'attrs', as: ['k', 'v'] }).processElement({ attrs: { w: 1.5, h: 2 } });
    expect(h.output().map((e) => [e.row.k, e.row.v])).toEqual([
      ['w', 1.5],
      ['h', 2],
    ]);
  });

  it('gives nothing for a NULL, missing or empty collection, and with outer one row of NULLs', () => {
    const inner = unnest({ expr: 'tags', as: ['tag'] });
    inner.processElement({ id: 1, tags: null }).processElement({ id: 2 }).processElement({ id: 3, tags: [] });
    expect(inner.output()).toEqual([]);
    const outer = unnest({ expr: 'tags', as: ['tag'], outer: true });
    outer.processElement({ id: 1, tags: null }).processElement({ id: 3, tags: [] }).processElement({ id: 4, tags: ['z'] });
    expect(outer.output().map((e) => [e.row.id, e.row.tag])).toEqual([
      [1, null],
      [3, null],
      [4, 'z'],
    ]);
  });

  it('passes the changelog kind and the event time to every row, so a retraction retracts each row its input gave', () => {
    const h = unnest({ expr: 'tags', as: ['tag'] })
      .processElement({ id: 1, tags: ['a', 'b'] }, { ts: 1000 })
      .processElement({ id: 1, tags: ['a', 'b'] }, { ts: 1000, kind: '-U' });
    expect(h.output().map((e) => `${e.kind} ${e.row.tag} ${e.ts}`)).toEqual(['+I a 1000', '+I b 1000', '-U a 1000', '-U b 1000']);
  });

  it('evaluates an expression, not only a field', () => {
    const h = unnest({ expr: 'COALESCE(tags, fallback)', as: ['tag'] }).processElement({ tags: null, fallback: ['none'] });
    expect(h.output().map((e) => e.row.tag)).toEqual(['none']);
  });

  it('sends a value that is no collection to the dead letters with the reason, and emits nothing of it', () => {
    const h = unnest({ expr: 'tags', as: ['tag'] }).processElement({ id: 4, tags: 'oops' });
    expect(h.output()).toEqual([]);
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['UNNEST(tags) is a string, not an array or a map']);
  });

  it('sends a record whose element does not fit the columns to the dead letters whole: no half of its rows leaves', () => {
    const h = unnest({ expr: 'items', as: ['a', 'b'] }).processElement({ id: 1, items: [[1, 2], [3], 'x'] });
    expect(h.output()).toEqual([]);
    expect(h.deadLetters.map((d) => d.reason)).toEqual(['UNNEST(items): an element holds 1 values, the columns are 2 (a, b)']);
    const scalar = unnest({ expr: 'items', as: ['a', 'b'] }).processElement({ items: [7] });
    expect(scalar.deadLetters[0].reason).toBe('UNNEST(items): an element is a number, but 2 columns need a row or an array of 2 values (a, b)');
  });
});
