import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { seededRng } from '../../core/rng.ts';
import type { Element, Row } from '../../core/types.ts';

// Object layout (MIN/MAX keep multisets, COUNT DISTINCT) and the columns layout (COUNT/SUM/AVG only).
const layouts = {
  object: [
    { fn: 'count', as: 'n' },
    { fn: 'sum', field: 'v', as: 'total' },
    { fn: 'min', field: 'v', as: 'low' },
    { fn: 'max', field: 'v', as: 'high' },
    { fn: 'countDistinct', field: 'v', as: 'distinct' },
  ],
  columns: [
    { fn: 'count', as: 'n' },
    { fn: 'count', field: 'v', as: 'nv' },
    { fn: 'avg', field: 'v', as: 'mean' },
  ],
};
const UPDATING = { inputs: { in: { changelog: 'update' as const } } };

/** Batches of random sizes over few keys: additions (some NULL), retractions of rows still in, and retractions of rows never added. */
function batches(seed: number): Element[][] {
  const rng = seededRng(seed);
  const live: Row[] = [];
  const out: Element[][] = [];
  for (let b = 0; b < 120; b++) {
    const batch: Element[] = [];
    const size = 1 + rng.int(12);
    for (let i = 0; i < size; i++) {
      const r = rng.next();
      if (r < 0.3 && live.length > 0) batch.push({ kind: '-D', row: live.splice(rng.int(live.length), 1)[0], ts: b });
      else if (r < 0.33) batch.push({ kind: '-D', row: { k: `k${rng.int(4)}`, v: 999 }, ts: b });
      else {
        const row = { k: `k${rng.int(4)}`, v: rng.next() < 0.1 ? null : rng.int(20) };
        live.push(row);
        batch.push({ kind: '+I', row, ts: b });
      }
    }
    out.push(batch);
  }
  return out;
}

/** Applies a changelog to a table by key, failing on any change that does not fit what is there. */
function applyChecked(els: readonly Element[], table: Map<unknown, Row>): void {
  for (let i = 0; i < els.length; i++) {
    const { kind, row } = els[i];
    const key = row.k;
    if (kind === '+I') expect(table.has(key)).toBe(false);
    else if (kind === '-U' || kind === '-D') expect(table.get(key)).toEqual(row);
    if (kind === '-U') expect(els[i + 1]).toMatchObject({ kind: '+U', row: { k: key } });
    if (kind === '+I' || kind === '+U') table.set(key, row);
    else table.delete(key);
  }
}

const sorted = (t: Map<unknown, Row>) => [...t.values()].sort((a, b) => String(a.k).localeCompare(String(b.k)));

describe('aggregate mini-batch', () => {
  for (const [layout, aggregates] of Object.entries(layouts)) {
    for (const seed of [1, 2, 3]) {
      it(`${layout} layout, seed ${seed}: same table and dead letters as record by record, one consistent change per group per batch`, () => {
        const perRecord = new OperatorHarness('aggregate', { groupBy: ['k'], aggregates }, UPDATING);
        const mini = new OperatorHarness('aggregate', { groupBy: ['k'], aggregates, miniBatch: true }, UPDATING);
        const expected = new Map<unknown, Row>();
        const got = new Map<unknown, Row>();
        for (const batch of batches(seed)) {
          perRecord.processElements(batch);
          const from = mini.output().length;
          mini.processElements(batch);
          const changes = mini.output().slice(from);
          // One change per group: +I, -D, or a -U/+U pair.
          const keys = changes.filter((e) => e.kind !== '+U').map((e) => e.row.k);
          expect(new Set(keys).size).toBe(keys.length);
          applyChecked(changes, got);
        }
        applyChecked(perRecord.output(), expected);
        expect(sorted(got)).toEqual(sorted(expected));
        expect(mini.deadLetters.map((d) => [d.reason, d.row])).toEqual(perRecord.deadLetters.map((d) => [d.reason, d.row]));
        expect(perRecord.deadLetters.length).toBeGreaterThan(0);
        expect(mini.output().length).toBeLessThan(perRecord.output().length);
      });
    }

    it(`${layout} layout: a checkpoint between batches restores into the same results`, () => {
      const params = { groupBy: ['k'], aggregates, miniBatch: true };
      const whole = new OperatorHarness('aggregate', params, UPDATING);
      const first = new OperatorHarness('aggregate', params, UPDATING);
      const all = batches(7);
      all.forEach((b) => whole.processElements(b));
      all.slice(0, 60).forEach((b) => first.processElements(b));
      const resumed = first.restored(first.snapshot());
      all.slice(60).forEach((b) => resumed.processElements(b));
      expect([...first.output(), ...resumed.output()].map((e) => `${e.kind} ${JSON.stringify(e.row)}`)).toEqual(whole.lines());
    });
  }

  it('a group that empties and refills within one batch starts afresh: its MIN forgets the rows retracted', () => {
    const h = new OperatorHarness('aggregate', { groupBy: ['k'], aggregates: layouts.object, miniBatch: true }, UPDATING);
    h.processElements([{ kind: '+I', row: { k: 'a', v: 1 }, ts: 1 }]);
    h.processElements([
      { kind: '-D', row: { k: 'a', v: 1 }, ts: 2 },
      { kind: '+I', row: { k: 'a', v: 5 }, ts: 3 },
      { kind: '+I', row: { k: 'b', v: 2 }, ts: 4 },
    ]);
    expect(h.lines()).toEqual([
      '+I {"k":"a","n":1,"total":1,"low":1,"high":1,"distinct":1}',
      '-U {"k":"a","n":1,"total":1,"low":1,"high":1,"distinct":1}',
      '+U {"k":"a","n":1,"total":5,"low":5,"high":5,"distinct":1}',
      '+I {"k":"b","n":1,"total":2,"low":2,"high":2,"distinct":1}',
    ]);
    expect(h.output().map((e) => e.ts)).toEqual([1, 3, 3, 4]);
  });
});
