import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../../testing/harness.ts';
import { seededRng } from '../../core/rng.ts';
import type { Row, RowKind } from '../../core/types.ts';
import { compareRows } from './changelogTable.ts';
import { AppendLog } from '../../state/appendLog.ts';

// A sink without a primary key over an append-only input keeps an append log; over an updating
// input, a keyed multiset (the layout every such sink had before the log). Both must be the same
// table after any changelog, any snapshot and restore, and a restore of one layout's snapshot
// into the other.

const APPEND = { in: { changelog: 'append' as const } };
const UPDATING = { in: { changelog: 'update' as const } };
const KINDS = ['collectSink', 'logSink', 'viewSink'] as const;

/** Rows from a small domain, so copies and retractions of held rows are common; key order varies too. */
const DOMAIN: Row[] = [{ a: 1, b: 'x' }, { a: 1, b: 'y' }, { a: 2, b: 'x' }, { b: 'x', a: 2 }, { a: 3, b: null }, { a: 4, b: { n: [1, 2] } }, { a: -0, b: 'z' }];

type Op = { kind: RowKind; row: Row } | { cut: true };

function randomOps(seed: number, n: number, retractions: boolean): Op[] {
  const rng = seededRng(seed);
  const ops: Op[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    // A fresh object each time, as records arrive: equal rows are never the same object.
    const row = structuredClone(rng.pick(DOMAIN));
    if (r < 0.08) ops.push({ cut: true });
    else if (retractions && r < 0.4) ops.push({ kind: rng.pick(['-D', '-U'] as const), row });
    else ops.push({ kind: rng.pick(['+I', '+I', '+U'] as const), row });
  }
  return ops;
}

/** The multiset the changelog leaves, by JSON text, and the retractions it had no row for. */
function model(ops: readonly Op[]): { rows: Row[]; missing: number } {
  const held: Row[] = [];
  let missing = 0;
  for (const op of ops) {
    if ('cut' in op) continue;
    if (op.kind === '+I' || op.kind === '+U') held.push(op.row);
    else {
      const at = held.map((r) => JSON.stringify(r)).lastIndexOf(JSON.stringify(op.row));
      if (at < 0) missing++;
      else held.splice(at, 1);
    }
  }
  return { rows: sorted(held), missing };
}

const sorted = (rows: Row[]) => [...rows].sort((a, b) => compareRows(a, b, Object.keys(a)));
/** The table as a multiset of JSON texts (rows whose fields come in another order sort apart from the comparator's order). */
const text = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort();

/** Plays `ops`, restoring into a fresh harness (of `next` layout, alternating when asked) at every cut. */
function play(kind: string, ops: readonly Op[], layouts: (cut: number) => typeof APPEND | typeof UPDATING): { h: OperatorHarness; deadLetters: number } {
  let h = new OperatorHarness(kind, {}, { inputs: layouts(0) });
  let cuts = 0;
  let deadLetters = 0;
  for (const op of ops) {
    if ('cut' in op) {
      const snap = h.snapshot();
      deadLetters += h.deadLetters.length;
      h = new OperatorHarness(kind, {}, { inputs: layouts(++cuts) });
      h.task.restore(snap);
      continue;
    }
    h.processElement(op.row, { kind: op.kind, ts: null });
  }
  return { h, deadLetters: deadLetters + h.deadLetters.length };
}

describe('multiset sink tables: append log against the keyed layout', () => {
  for (const kind of KINDS) {
    it(`${kind}: the same table as the keyed multiset, append-only and with retractions, across restores`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const ops = randomOps(seed, 120, seed % 2 === 0);
        const want = model(ops);
        const log = play(kind, ops, () => APPEND);
        const keyed = play(kind, ops, () => UPDATING);
        const what = `${kind} seed ${seed}`;
        expect(text(log.h.rows()), what).toEqual(text(want.rows));
        expect(text(keyed.h.rows()), what).toEqual(text(want.rows));
        expect(log.deadLetters, what).toBe(want.missing);
        expect(keyed.deadLetters, what).toBe(want.missing);
      }
    });
  }

  it('a snapshot of the keyed layout (a checkpoint written before the log existed) restores into the log', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const ops = randomOps(100 + seed, 150, seed % 2 === 0);
      const want = model(ops);
      const what = `seed ${seed}`;
      const upgraded = play('collectSink', ops, (cut) => (cut === 0 ? UPDATING : APPEND));
      expect(text(upgraded.h.rows()), what).toEqual(text(want.rows));
      expect(upgraded.deadLetters, what).toBe(want.missing);
    }
  });

  it('keeps no per-row keyed state while its input is append-only', () => {
    const h = new OperatorHarness('collectSink', {}, { inputs: APPEND });
    for (let i = 0; i < 1000; i++) h.processElement({ i, s: `r${i % 10}` }, { ts: null });
    expect(h.task.state.metrics().keyCount).toBe(0);
    expect(h.rows()).toHaveLength(1000);
    const keyed = new OperatorHarness('collectSink', {}, { inputs: UPDATING });
    for (let i = 0; i < 1000; i++) keyed.processElement({ i, s: `r${i % 10}` }, { ts: null });
    expect(keyed.task.state.metrics().keyCount).toBe(1000);
  });
});

describe('AppendLog', () => {
  it('hands over sealed chunks unchanged and copies only the tail', () => {
    const log = new AppendLog<number>(4);
    for (let i = 0; i < 10; i++) log.push(i);
    const a = log.snapshot();
    for (let i = 10; i < 13; i++) log.push(i);
    const b = log.snapshot();
    expect(a.flat()).toEqual([...Array(10).keys()]);
    expect(b.flat()).toEqual([...Array(13).keys()]);
    // The two sealed chunks are the same objects in both snapshots; the tail was a copy.
    expect(b[0]).toBe(a[0]);
    expect(b[1]).toBe(a[1]);
    expect(b[2]).not.toBe(a[2]);
    expect(a[2]).toEqual([8, 9]);
  });

  it('removes by copying the chunk, so no snapshot sees a change', () => {
    const log = new AppendLog<number>(4);
    for (let i = 0; i < 9; i++) log.push(i % 3);
    const before = log.snapshot();
    const frozen = structuredClone(before);
    // Chunks [0,1,2,0] [1,2,0,1], tail [2]: both removals change the second sealed chunk.
    expect(log.removeLast((v) => v === 1)).toBe(true);
    expect(log.removeLast((v) => v === 0)).toBe(true);
    expect(log.removeLast((v) => v === 7)).toBe(false);
    expect(before).toEqual(frozen);
    const values: number[] = [];
    log.forEach((v) => values.push(v));
    expect(values).toEqual([0, 1, 2, 0, 1, 2, 2]);
    expect(log.size()).toBe(7);
    const restored = new AppendLog<number>(4);
    restored.adopt(log.snapshot());
    restored.push(5);
    expect(restored.snapshot().flat()).toEqual([0, 1, 2, 0, 1, 2, 2, 5]);
    expect(log.snapshot().flat()).toEqual([0, 1, 2, 0, 1, 2, 2]);
  });
});
