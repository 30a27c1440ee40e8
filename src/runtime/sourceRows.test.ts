import { describe, expect, it } from 'vitest';
import { scenario, scenarios } from '../generators/index.ts';
import type { ScenarioContext } from '../generators/index.ts';
import { scenarioReader } from '../generators/reader.ts';
import type { RowMemo } from '../core/source.ts';
import type { Row } from '../core/types.ts';
import { SourceRows } from './sourceRows.ts';

const ctx: ScenarioContext = { seed: 7, count: 300, keys: 10, startTime: 1_700_000_000_000, intervalMs: 100, disorderMs: 2000 };

function readAll(name: string, memo?: RowMemo, from = 0): Row[] {
  const r = scenarioReader(scenario(name)!, ctx, memo);
  r.seek(from);
  const out: Row[] = [];
  while (!r.done()) for (const x of r.read(7)) out.push(x.value as Row);
  return out;
}

describe('SourceRows', () => {
  // Index order and arrival order (payments trail their orders) both.
  for (const name of scenarios.filter((s) => s.name !== 'datagen').map((s) => s.name)) {
    it(`a reader with the memo reads what one without reads, and a later pass the same objects: ${name}`, () => {
      const rows = new SourceRows();
      const first = readAll(name, rows.of('src'));
      expect(first).toEqual(readAll(name));
      const again = readAll(name, rows.of('src'));
      expect(again.length).toBe(first.length);
      for (let i = 0; i < first.length; i++) expect(again[i]).toBe(first[i]);
      // From an offset, as a source restored from a checkpoint seeks.
      expect(readAll(name, rows.of('src'), 40)).toEqual(readAll(name, undefined, 40));
    });
  }

  it('keeps rows per source node: another node makes its own', () => {
    const rows = new SourceRows();
    const a = readAll('orders', rows.of('a'));
    const b = readAll('orders', rows.of('b'));
    expect(b).toEqual(a);
    expect(b[0]).not.toBe(a[0]);
  });

  it('keeps at most its limit; past it rows are made as without it', () => {
    const rows = new SourceRows(50);
    const first = readAll('orders', rows.of('src'));
    expect(rows.size()).toBe(50);
    const again = readAll('orders', rows.of('src'));
    expect(again).toEqual(first);
    expect(again[10]).toBe(first[10]);
    expect(again.at(-1)).not.toBe(first.at(-1));
  });
});
