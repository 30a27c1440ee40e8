import { describe, expect, it } from 'vitest';
import { datagen, datagenLimit } from './datagen.ts';
import type { DatagenTable } from './datagen.ts';
import { scenarioReader } from './reader.ts';
import type { ScenarioContext } from './scenario.ts';

const table: DatagenTable = {
  schema: { id: 'integer', name: 'string', price: 'number', qty: 'integer', flag: 'boolean', at: 'timestamp', made: 'timestamp', maybe: 'string' },
  columns: {
    id: { kind: 'sequence', start: 10, end: 509 },
    name: { length: 6 },
    price: { min: 1, max: 2 },
    qty: { min: -3, max: 3 },
    at: { maxPastMs: 5000 },
    made: { kind: 'arrival' },
    maybe: { length: 2, nullRate: 0.25 },
  },
};
const ctx = (over: Partial<ScenarioContext> = {}): ScenarioContext => ({ seed: 7, count: Math.min(10_000, datagenLimit(table)), keys: 1, startTime: 1_000_000, intervalMs: 100, disorderMs: 0, table, ...over });
const rows = (c = ctx()) => scenarioReader(datagen, c).read(1_000_000).map((r) => r.value as Record<string, unknown>);

describe('the datagen scenario', () => {
  it('makes each column as its options say, and a sequence ends the table after its last value', () => {
    const all = rows();
    expect(all).toHaveLength(500);
    expect(all.map((r) => r.id)).toEqual(Array.from({ length: 500 }, (_, i) => 10 + i));
    for (const [i, r] of all.entries()) {
      expect(r.name).toMatch(/^[0-9a-f]{6}$/);
      expect(r.price as number).toBeGreaterThanOrEqual(1);
      expect(r.price as number).toBeLessThan(2);
      expect(Number.isInteger(r.qty) && (r.qty as number) >= -3 && (r.qty as number) <= 3).toBe(true);
      expect(typeof r.flag).toBe('boolean');
      expect(r.made).toBe(1_000_000 + i * 100);
      expect(r.made as number).toBeGreaterThanOrEqual(r.at as number);
      expect((r.made as number) - (r.at as number)).toBeLessThanOrEqual(5000);
    }
    // every value of a small range is reached, and the null rate holds roughly
    expect(new Set(all.map((r) => r.qty)).size).toBe(7);
    const nulls = all.filter((r) => r.maybe === null).length;
    expect(nulls).toBeGreaterThan(80);
    expect(nulls).toBeLessThan(170);
  });

  it('is a pure function of the seed and the index, so a seek replays it', () => {
    expect(rows()).toEqual(rows());
    expect(rows(ctx({ seed: 8 }))).not.toEqual(rows());
    const reader = scenarioReader(datagen, ctx());
    reader.seek(123);
    expect(reader.read(5).map((r) => r.value)).toEqual(rows().slice(123, 128));
  });

  it('without a sequence has no limit of its own', () => {
    expect(datagenLimit({ schema: { a: 'integer' }, columns: {} })).toBe(Infinity);
    expect(datagenLimit({ schema: { a: 'integer', b: 'integer' }, columns: { a: { kind: 'sequence', start: 1, end: 10 }, b: { kind: 'sequence', start: 0, end: 4 } } })).toBe(5);
  });
});
