import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { MemoryStateBackend } from '../../state/memory/memoryBackend.ts';
import type { Key } from '../../core/types.ts';
import type { Cell } from '../../state/memory/memoryBackend.ts';
import { seededRng } from '../../core/rng.ts';
import type { Row, RowKind } from '../../core/types.ts';
import type { NodeTaskSnapshot } from '../nodeTask.ts';

/** A heap backend that, like the durable one, keeps per-key cells only (no columns state). */
class CellsOnlyBackend extends MemoryStateBackend {
  protected override newTable(): Map<Key, Cell> {
    return new Map();
  }
}
const cellsOnly = { backend: (time: ConstructorParameters<typeof MemoryStateBackend>[0]) => new CellsOnlyBackend(time) };

/** Random changes over few groups: NULLs, NaN, missing fields, ±Infinity, and retractions of earlier rows. */
function changes(n: number, groupBy: string[], seed: number): { row: Row; kind: RowKind; ts: number }[] {
  const rng = seededRng(seed);
  const live: Row[] = [];
  const out: { row: Row; kind: RowKind; ts: number }[] = [];
  for (let i = 0; i < n; i++) {
    if (live.length && rng.next() < 0.3) {
      out.push({ row: live.splice(rng.int(live.length), 1)[0], kind: rng.next() < 0.5 ? '-D' : '-U', ts: i });
      continue;
    }
    const r = rng.next();
    const amount = r < 0.08 ? null : r < 0.12 ? Number.NaN : r < 0.14 ? Infinity : r < 0.16 ? undefined : Math.round(rng.next() * 1e6) / 100 - 5000;
    const row: Row = { amount, ts: i };
    for (const f of groupBy) row[f] = f === 'k' ? rng.int(9) : ['x', 'y', null][rng.int(3)];
    live.push(row);
    out.push({ row, kind: rng.next() < 0.2 ? '+U' : '+I', ts: i });
  }
  return out;
}

const cellValues = (s: NodeTaskSnapshot) =>
  Object.entries(s.keyed.keyGroups)
    .flatMap(([kg, cells]) => cells.map((c) => [kg, JSON.stringify(c)]))
    .sort(([a, x], [b, y]) => Number(a) - Number(b) || (x < y ? -1 : x > y ? 1 : 0));

describe('aggregate in the backend columns', () => {
  it.each([
    ['one key field, COUNT + SUM + COUNT(x)', ['k'], [{ fn: 'count', as: 'cnt' }, { fn: 'sum', field: 'amount', as: 'total' }, { fn: 'count', field: 'amount', as: 'present' }]],
    ['two key fields, SUM + AVG', ['k', 'tag'], [{ fn: 'sum', field: 'amount', as: 'total' }, { fn: 'avg', field: 'amount', as: 'mean' }]],
    ['no key field, AVG', [], [{ fn: 'avg', field: 'amount', as: 'mean' }]],
  ])('%s: the same changelog, dead letters and checkpoint cells as per-key cells', (_name, groupBy, aggregates) => {
    const params = { groupBy, aggregates };
    const columns = new OperatorHarness('aggregate', params);
    const cells = new OperatorHarness('aggregate', params, cellsOnly);
    const observed = (columns.task.state as MemoryStateBackend).observeTables();
    expect(observed.map((t) => [t.name, t.table instanceof Map])).toEqual([['group', false]]);
    const input = changes(3000, groupBy, 5);
    input.forEach((c, i) => {
      columns.processElement(c.row, { kind: c.kind, ts: c.ts });
      cells.processElement(c.row, { kind: c.kind, ts: c.ts });
      if (i % 500 === 0) expect(cellValues(columns.snapshot())).toEqual(cellValues(cells.snapshot()));
    });
    expect(columns.lines()).toEqual(cells.lines());
    expect(columns.deadLetters.map((d) => d.reason)).toEqual(cells.deadLetters.map((d) => d.reason));
    expect(cellValues(columns.snapshot())).toEqual(cellValues(cells.snapshot()));
    expect(columns.task.state.inspect()).toEqual(cells.task.state.inspect());
  });

  it('checkpoints cross both ways: columns restore what cells wrote and the reverse, and continue identically', () => {
    const params = { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'cnt' }, { fn: 'sum', field: 'amount', as: 'total' }] };
    const input = changes(2000, ['k'], 8);
    const first = input.slice(0, 1000);
    const rest = input.slice(1000);
    const a = new OperatorHarness('aggregate', params);
    const b = new OperatorHarness('aggregate', params, cellsOnly);
    for (const c of first) {
      a.processElement(c.row, { kind: c.kind, ts: c.ts });
      b.processElement(c.row, { kind: c.kind, ts: c.ts });
    }
    const fromColumns = a.snapshot();
    const fromCells = b.snapshot();
    const runs = [a.restored(fromCells), b.restored(fromColumns), a.restored(fromColumns)];
    for (const h of [b, ...runs]) h.clearOutput();
    for (const c of rest) for (const h of [b, ...runs]) h.processElement(c.row, { kind: c.kind, ts: c.ts });
    for (const h of runs) expect(h.lines()).toEqual(b.lines());
  });

  it('a snapshot is a copy: later updates do not reach it', () => {
    const h = new OperatorHarness('aggregate', { groupBy: ['k'], aggregates: [{ fn: 'sum', field: 'amount', as: 'total' }] });
    h.processElement({ k: 1, amount: 2 });
    const snap = h.task.snapshot();
    h.processElement({ k: 1, amount: 3 });
    const cell = Object.values(snap.keyed.keyGroups)[0][0];
    expect(cell.value).toMatchObject({ n: 1, out: { k: 1, total: 2 }, a0: 2, a1: 1 });
  });

  it('grows past its first capacity and reuses the slots of emptied groups', () => {
    const params = { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'cnt' }] };
    const h = new OperatorHarness('aggregate', params);
    for (let k = 0; k < 1000; k++) h.processElement({ k });
    for (let k = 0; k < 500; k++) h.processElement({ k }, { kind: '-D' });
    for (let k = 1000; k < 1500; k++) h.processElement({ k });
    h.processElement({ k: 1499 });
    expect(h.task.state.keys('group').length).toBe(1000);
    expect(h.lines().at(-1)).toBe('+U {"k":1499,"cnt":2}');
    expect(h.task.state.metrics().keyCount).toBe(1000);
  });

  it('a batch takes the slots its claim pass took: the same changelog, dead letters and cells as record by record', () => {
    // Keys the index keeps in its two halves (integers; text, fractions, NaN, NULL) and -0 beside 0;
    // SUM refuses text amounts, so the claim pass and the loop must both pass over them.
    const keys: unknown[] = [0, -0, 1, 2, 7, 'x', 'y', 0.5, Number.NaN, null, 2 ** 31, -1];
    const rng = seededRng(11);
    const row = (ts: number): Row => ({ k: keys[rng.int(keys.length)], amount: rng.next() < 0.05 ? 'text' : rng.int(1000) / 8, ts });
    const params = { groupBy: ['k'], aggregates: [{ fn: 'count', as: 'cnt' }, { fn: 'sum', field: 'amount', as: 'total' }] };
    const batched = new OperatorHarness('aggregate', params);
    const single = new OperatorHarness('aggregate', params);
    const fed: Row[] = [];
    for (let ts = 0; ts < 4000; ) {
      // Batches of one skip the claim pass, and leave the last pass's slots behind them.
      const batch = Array.from({ length: rng.next() < 0.2 ? 1 : 2 + rng.int(300) }, () => row(ts++));
      batched.processBatch(batch);
      fed.push(...batch);
    }
    for (const r of fed) single.processElement(r);
    expect(batched.lines()).toEqual(single.lines());
    expect(batched.deadLetters.map((d) => [d.reason, d.row])).toEqual(single.deadLetters.map((d) => [d.reason, d.row]));
    expect(cellValues(batched.snapshot())).toEqual(cellValues(single.snapshot()));
  });
});
