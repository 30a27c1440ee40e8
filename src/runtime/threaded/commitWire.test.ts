import { describe, expect, it } from 'vitest';
import type { SubtaskSnapshot } from '../../checkpoint/types.ts';
import type { SnapshotCell } from '../../state/backend.ts';
import { KeyedTrail, packSnapshot, packViews, unpackSnapshot, unpackViews } from './commitWire.ts';

/** Packs, sends through structured clone with the transfer list (as the events port would), unpacks. */
function roundTrip(snap: SubtaskSnapshot): { back: SubtaskSnapshot; packed: boolean; transferred: number } {
  const transfer: Transferable[] = [];
  const wire = structuredClone(packSnapshot(snap, transfer), { transfer: transfer as never });
  return { back: unpackSnapshot(wire.snap, wire.commits, wire.keyed), packed: wire.keyed !== undefined, transferred: transfer.length };
}

const cell = (key: number | string, i: number): SnapshotCell => ({
  state: i % 7 ? 'group' : 'seen',
  kind: 'value',
  key,
  value: i % 7 ? { n: i, out: { key, cnt: i, total: i % 3 ? i * 0.1 : -0 }, a0: i, a1: i * 0.1 } : [i, 'list'],
  touched: 0,
  eventTime: i % 4 ? i * 10 : null,
});

function snapshotOf(keyGroups: Record<number, SnapshotCell[]>): SubtaskSnapshot {
  return {
    subtask: 'totals#0',
    parallelism: 2,
    finished: false,
    deadLetterEpochs: [],
    keyed: { type: 'inline', snapshot: { maxParallelism: 128, keyGroups } },
    operator: { lists: {}, broadcast: {} },
    timers: [],
    watermark: -Infinity,
    counters: { seen: 3 },
    records: { in: 10, out: 4 },
    pendingCommits: [{ origin: 'view#0', epoch: 3, els: Array.from({ length: 40 }, (_, i) => ({ kind: '+I' as const, row: { key: i, cnt: 1 }, ts: null })) }],
  };
}

describe('snapshots and views on the events port', () => {
  it('carries a memory snapshot\'s keyed cells as columns and rebuilds the same snapshot, key groups and order included', () => {
    const keyGroups: Record<number, SnapshotCell[]> = {};
    let i = 0;
    for (const kg of [0, 3, 17, 127]) keyGroups[kg] = Array.from({ length: 50 + kg }, () => cell(i % 9 === 0 ? `k${i}` : i, i++));
    keyGroups[64] = [];
    const snap = snapshotOf(keyGroups);
    const { back, packed, transferred } = roundTrip(snap);
    expect(packed).toBe(true);
    // The key groups' counts, the sink epoch's columns and the cells' columns, each one buffer.
    expect(transferred).toBe(3);
    expect(back).toEqual(snap);
    const cells = (s: SubtaskSnapshot) => (s.keyed.type === 'inline' ? s.keyed.snapshot.keyGroups : {});
    expect(Object.keys(cells(back))).toEqual(Object.keys(keyGroups));
    for (const kg in keyGroups)
      cells(back)[kg].forEach((c, j) => {
        expect(Object.keys(c)).toEqual(Object.keys(keyGroups[kg][j]));
        expect(Object.is(JSON.stringify(c), JSON.stringify(keyGroups[kg][j]))).toBe(true);
        const total = (v: unknown) => (v as { out?: { total: number } }).out?.total;
        expect(Object.is(total(c.value), total(keyGroups[kg][j].value))).toBe(true);
      });
  });

  it('leaves small snapshots and chunk handles as they are', () => {
    const small = snapshotOf({ 1: [cell(1, 1)] });
    expect(roundTrip(small)).toMatchObject({ packed: false });
    expect(roundTrip(small).back).toEqual(small);
    const chunks: SubtaskSnapshot = { ...small, keyed: { type: 'chunks', store: 's', chunks: [{ id: 'c1', keyGroup: 1, entries: 1, bytes: 10, writtenBy: 1 }] } };
    expect(roundTrip(chunks).back).toEqual(chunks);
  });

  it("carries each view's rows as columns", () => {
    const views = { view: Array.from({ length: 5000 }, (_, i) => ({ key: i, cnt: i % 5, total: i / 7 })), other: [{ a: 1 }, { b: 'x' }] };
    const transfer: Transferable[] = [];
    const back = unpackViews(structuredClone(packViews(views, transfer), { transfer: transfer as never }));
    expect(transfer.length).toBeGreaterThan(0);
    expect(back).toEqual(views);
  });

  it('sends only the cells that are not the objects of the last snapshot, and the manager rebuilds the same snapshot from the one it holds', () => {
    const sent = new KeyedTrail();
    const received = new KeyedTrail();
    const trip = (snap: SubtaskSnapshot) => {
      const transfer: Transferable[] = [];
      const wire = structuredClone(packSnapshot(snap, transfer, sent), { transfer: transfer as never });
      const travelled = wire.keyed ? wire.keyed.cells.chunks.reduce((n, c) => n + ('rows' in c ? c.rows.length : c.n), 0) : null;
      return { back: unpackSnapshot(wire.snap, wire.commits, wire.keyed, received), travelled };
    };
    const groupsOf = (s: SubtaskSnapshot) => (s.keyed.type === 'inline' ? s.keyed.snapshot.keyGroups : {});
    let i = 0;
    const first: Record<number, SnapshotCell[]> = {};
    for (const kg of [0, 3, 17, 127]) first[kg] = Array.from({ length: 40 }, () => cell(i, i++));
    const one = trip(snapshotOf(first));
    expect(one.travelled).toBe(160);
    expect(one.back).toEqual(snapshotOf(first));
    // Key group 0: one cell changed; 3: a cell dropped from its middle; 17: a cell added; 127 as it was; 9: new.
    const second: Record<number, SnapshotCell[]> = {
      0: first[0].map((c, j) => (j === 5 ? cell(c.key as number, 1000) : c)),
      3: first[3].filter((_, j) => j !== 30),
      17: [...first[17], cell('new', 1001)],
      127: first[127],
      9: [cell(9999, 1002)],
    };
    const two = trip(snapshotOf(second));
    expect(two.travelled).toBe(1 + 9 + 1 + 1);
    expect(two.back).toEqual(snapshotOf(second));
    expect(groupsOf(two.back)[127][7]).toBe(groupsOf(one.back)[127][7]);
    expect(groupsOf(two.back)[0][5]).not.toBe(groupsOf(one.back)[0][5]);
    // A snapshot too small to pack starts the trail again at both ends.
    expect(trip(snapshotOf({ 1: [cell(1, 1)] })).travelled).toBeNull();
    const three = trip(snapshotOf(second));
    expect(three.travelled).toBe(161);
    expect(three.back).toEqual(snapshotOf(second));
  });

  it('refuses changes to a snapshot the manager does not hold, naming the subtask', () => {
    const sent = new KeyedTrail();
    const cells = { 4: Array.from({ length: 80 }, (_, i) => cell(i, i + 1)) };
    packSnapshot(snapshotOf(cells), [], sent);
    const wire = packSnapshot(snapshotOf(cells), [], sent);
    expect(() => unpackSnapshot(wire.snap, wire.commits, wire.keyed, new KeyedTrail())).toThrow(/totals#0 came as the changes since its snapshot 1, which the job manager does not hold/);
  });
});
