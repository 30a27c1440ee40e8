import { describe, expect, it } from 'vitest';
import type { SinkSample } from '../../worker/protocol.ts';
import { heldRows, keepUnchanged } from './stableSinks.ts';

// Each call builds fresh arrays and objects, as a structured clone from the worker does.
const sample = (version: number, rows: number[], o: Partial<SinkSample> = {}): SinkSample => ({
  total: rows.length,
  offset: 0,
  rows: rows.map((n) => ({ city: `c${n}`, revenue: n })),
  columns: ['city', 'revenue'],
  types: { city: 'string', revenue: 'number' },
  key: ['city'],
  version,
  changes: rows.length,
  recent: [],
  ...o,
});

describe('keepUnchanged', () => {
  it('keeps the rows, columns, types and key of a sample whose version did not change', () => {
    const prev = { v: sample(3, [1, 2]) };
    const next = keepUnchanged(prev, { v: sample(3, [1, 2], { changes: 9 }) });
    expect(next.v.rows).toBe(prev.v.rows);
    expect(next.v.columns).toBe(prev.v.columns);
    expect(next.v.types).toBe(prev.v.types);
    expect(next.v.key).toBe(prev.v.key);
    expect(next.v.changes).toBe(9);
  });

  it('takes the new rows with a new version, and keeps the column layout that stayed', () => {
    const prev = { v: sample(3, [1, 2]) };
    const fresh = sample(4, [1, 2, 3]);
    const next = keepUnchanged(prev, { v: fresh });
    expect(next.v.rows).toBe(fresh.rows);
    expect(next.v.rows).toHaveLength(3);
    expect(next.v.columns).toBe(prev.v.columns);
    expect(next.v.types).toBe(prev.v.types);
  });

  it('takes new columns, types and key when they differ', () => {
    const prev = { v: sample(3, [1]) };
    const next = keepUnchanged(prev, { v: sample(3, [1], { columns: ['city'], types: { city: 'string' }, key: null }) });
    expect(next.v.columns).toEqual(['city']);
    expect(next.v.types).toEqual({ city: 'string' });
    expect(next.v.key).toBeNull();
    expect(keepUnchanged({ v: sample(3, [1], { types: { city: 'string', revenue: 'integer' } }) }, { v: sample(3, [1]) }).v.types).toEqual({ city: 'string', revenue: 'number' });
  });

  it('takes the rows as sent when either side has no version, and a sink it did not have', () => {
    const prev = { v: sample(3, [1]) };
    const unversioned = sample(3, [5], { version: undefined });
    expect(keepUnchanged(prev, { v: unversioned, w: sample(1, [2]) }).v.rows).toBe(unversioned.rows);
    expect(keepUnchanged(undefined, { v: unversioned }).v).toBe(unversioned);
  });
});

describe('acceptSnapshot', () => {
  it('hands the panels the same rows and columns while a sink version stays, so the chart is not rebuilt per snapshot', async () => {
    const { acceptSnapshot, runStore } = await import('./runStore.ts');
    const snap = (version: number) => ({ status: 'running' as const, records: 1, rate: 1, clockMs: 0, metrics: {}, deadLetters: {}, sinks: { v: sample(version, [1, 2]) }, checkpoints: 0, restarts: 0, error: null, frame: null, log: [] });
    acceptSnapshot(snap(7));
    const first = runStore.get().snapshot!.sinks.v;
    acceptSnapshot(snap(7));
    const second = runStore.get().snapshot!.sinks.v;
    expect(second.rows).toBe(first.rows);
    expect(second.columns).toBe(first.columns);
    expect(second.types).toBe(first.types);
    acceptSnapshot(snap(8));
    expect(runStore.get().snapshot!.sinks.v.rows).not.toBe(first.rows);
  });
});

describe('rows the worker left out', () => {
  it('come back from the sample of the same version the page holds', () => {
    const prev = { v: sample(3, [1, 2]) };
    const next = keepUnchanged(prev, { v: sample(3, [], { rowsHeld: true, total: 2 }) });
    expect(next.v.rows).toBe(prev.v.rows);
    expect(next.v.rowsHeld).toBeUndefined();
    expect(heldRows(next)).toEqual({ v: 3 });
  });

  it('leave an empty table without a version when the page no longer holds them, so its next ack asks for them again', () => {
    const next = keepUnchanged({ v: sample(2, [1]) }, { v: sample(3, [], { rowsHeld: true }) });
    expect(next.v.rows).toEqual([]);
    expect(next.v.version).toBeUndefined();
    expect(heldRows(next)).toEqual({});
    expect(keepUnchanged(undefined, { v: sample(3, [], { rowsHeld: true }) }).v.version).toBeUndefined();
  });
});
