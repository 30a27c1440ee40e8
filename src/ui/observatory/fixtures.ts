import type { ObservationFrame, StateRow } from '../../runtime/observe/types.ts';

/**
 * Hand-made observation frames shaped like what the collector sends, for the panels' unit tests
 * and for building panels before a live engine feeds them. Times are small numbers (ms of event time).
 */

const stateRow = (key: string, count: number, updatedAt: number, changed = false, subtask = 0): StateRow => ({
  key,
  keyText: JSON.stringify(key),
  states: { count, seen: [updatedAt - 2000, updatedAt] },
  ttlMs: { count: null, seen: 60_000 - updatedAt / 10 },
  updatedAt,
  subtask,
  changed,
});

/** Orders LEFT JOIN payments, paused while order 2 waits for its payment. */
export const joinFrame: ObservationFrame = {
  at: 12_000,
  edges: [
    { edge: 'orders-join', rate: 42.5, fill: 0.1, queued: 10, capacity: 100, watermark: 9_000, barriers: [{ checkpointId: 3, progress: 0.4 }], kinds: { '+I': 20 }, sample: [{ kind: '+I', row: { order_id: 2, amount: 30 } }] },
    { edge: 'payments-join', rate: 12, fill: 0.92, queued: 92, capacity: 100, watermark: 8_500, barriers: [], kinds: { '+I': 8 }, sample: [] },
    { edge: 'join-view', rate: 30, fill: 0.55, queued: 55, capacity: 100, watermark: 8_500, barriers: [], kinds: { '+I': 12, '-D': 3 }, sample: [] },
  ],
  nodes: [
    {
      node: 'join',
      recordsIn: 28,
      recordsOut: 15,
      deadLetters: 0,
      lateRecords: 0,
      watermark: 8_500,
      keys: 3,
      bytes: 2_048,
      subtasks: [
        { id: 'join#0', index: 0, keys: 2, bytes: 1_300, keyGroups: [0, 63], watermark: 8_500, aligning: { checkpointId: 3, blockedInputs: ['left'], buffered: 4 }, lastSnapshot: null, alive: true },
        { id: 'join#1', index: 1, keys: 1, bytes: 748, keyGroups: [64, 127], watermark: 8_500, aligning: null, lastSnapshot: { checkpointId: 2, syncMs: 1.2, asyncMs: 8, at: 11_900 }, alive: true },
      ],
    },
  ],
  state: null,
  join: {
    node: 'join',
    joinType: 'left',
    left: [
      { side: 'left', key: 2, row: { order_id: 2, amount: 30 }, ts: 7_000, matches: 0, range: null, evictAfter: null },
      { side: 'left', key: 1, row: { order_id: 1, amount: 12 }, ts: 5_000, matches: 1, range: null, evictAfter: null },
    ],
    right: [{ side: 'right', key: 1, row: { order_id: 1, paid: 12 }, ts: 6_000, matches: 1, range: null, evictAfter: null }],
    evicted: { watermark: 0, ttl: 2 },
    recentMatches: [
      { left: { order_id: 2, amount: 30 }, right: null, out: { order_id: 2, amount: 30, paid: null }, kind: '+I' },
      { left: { order_id: 1, amount: 12 }, right: null, out: { order_id: 1, amount: 12, paid: null }, kind: '-D' },
      { left: { order_id: 1, amount: 12 }, right: { order_id: 1, paid: 12 }, out: { order_id: 1, amount: 12, paid: 12 }, kind: '+I' },
    ],
  },
  window: null,
  sources: [],
  checkpoints: [
    { checkpointId: 1, status: 'completed', triggeredAt: 2_000, completedAt: 2_040, stats: [{ subtask: 'join#0', alignMs: 5, syncMs: 1, asyncMs: 20, stateBytes: 900, writtenBytes: 900, bufferedDuringAlignment: 2 }], fullBytes: 900, incrementalBytes: 900 },
    { checkpointId: 2, status: 'aborted', triggeredAt: 6_000, completedAt: null, reason: 'subtask join#1 failed', stats: [], fullBytes: 0, incrementalBytes: 0 },
    { checkpointId: 3, status: 'completed', triggeredAt: 10_000, completedAt: 10_120, stats: [{ subtask: 'join#0', alignMs: 30, syncMs: 2, asyncMs: 80, stateBytes: 2_048, writtenBytes: 600, bufferedDuringAlignment: 4 }], fullBytes: 2_048, incrementalBytes: 600 },
  ],
  inFlightCheckpoint: 4,
  trace: [
    { seq: 7, source: 'orders', row: { order_id: 2, amount: 30 }, hops: [{ node: 'join', subtask: 0, emitted: [{ port: 'out', kind: '+I', row: { order_id: 2, amount: 30, paid: null } }], stateChanged: true }, { node: 'view', subtask: 0, emitted: [], stateChanged: true }] },
    { seq: 8, source: 'payments', row: { order_id: 1, paid: 12 }, hops: [{ node: 'join', subtask: 0, emitted: [{ port: 'out', kind: '-D', row: { order_id: 1, amount: 12, paid: null } }, { port: 'out', kind: '+I', row: { order_id: 1, amount: 12, paid: 12 } }], stateChanged: true }] },
  ],
  query: { sink: 'view', rows: [{ order_id: 1, amount: 12, paid: 12 }], changes: [{ kind: '+I', row: { order_id: 1, amount: 12, paid: null }, at: 5_000 }, { kind: '-D', row: { order_id: 1, amount: 12, paid: null }, at: 6_000 }, { kind: '+I', row: { order_id: 1, amount: 12, paid: 12 }, at: 6_000 }] },
  breakpointHit: { node: 'join', row: { order_id: 2, amount: 30 } },
};

/** A keyed count's state table: three keys, one that just changed. */
export const stateFrame: ObservationFrame = {
  ...joinFrame,
  join: null,
  state: { node: 'count', descriptors: ['count', 'seen'], total: 3, offset: 0, rows: [stateRow('alice', 3, 9_000, true), stateRow('bob', 1, 4_000), stateRow('carol', 2, 7_000, false, 1)] },
};

/** Tumbling windows of 10 s: one fired, one pending, one purged; a late record and a session merge. */
export const windowFrame: ObservationFrame = {
  ...joinFrame,
  join: null,
  window: {
    node: 'win',
    windowType: 'tumble',
    watermark: 19_999,
    watermarkEnded: false,
    panes: [
      { key: 'paris', start: 0, end: 10_000, rows: 4, value: { revenue: 40 }, status: 'purged' },
      { key: 'paris', start: 10_000, end: 20_000, rows: 2, value: { revenue: 25 }, status: 'fired' },
      { key: 'lyon', start: 20_000, end: 30_000, rows: 1, value: { revenue: 5 }, status: 'pending' },
    ],
    merges: [{ key: 'lyon', from: [[20_000, 25_000], [24_000, 30_000]], into: [20_000, 30_000] }],
    lateRecords: 1,
    recentLate: [{ city: 'paris', amount: 3, ts: 4_000 }],
  },
  sources: [
    {
      node: 'orders',
      points: [
        { processingTime: 1_000, eventTime: 1_000, watermark: 0, late: false },
        { processingTime: 2_000, eventTime: 2_500, watermark: 1_500, late: false },
        { processingTime: 3_000, eventTime: 1_800, watermark: 1_500, late: false },
        { processingTime: 4_000, eventTime: 400, watermark: 2_000, late: true },
      ],
    },
  ],
};
