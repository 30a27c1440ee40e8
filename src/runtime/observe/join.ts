import type { JoinBufferView } from '../../engine/operators/join.ts';
import type { IntervalBufferView } from '../../engine/operators/intervalJoin.ts';
import type { Key } from '../../core/types.ts';
import type { SubtaskRunner } from '../subtaskRunner.ts';
import type { Recorder } from './recorder.ts';
import { isObservable } from './stateSource.ts';
import type { JoinBufferRow, JoinObservation } from './types.ts';

export const JOIN_KINDS = new Set(['join', 'intervalJoin']);

/** Buffers of both sides (from the operators' inspect()), eviction counters and recent matches. */
export function observeJoin(node: string, runners: readonly SubtaskRunner[], subtask: number | null, rec: Recorder): JoinObservation | null {
  const first = runners[0];
  if (!first || !JOIN_KINDS.has(first.node.kind)) return null;
  const left: JoinBufferRow[] = [];
  const right: JoinBufferRow[] = [];
  let watermarkEvicted = 0;
  let ttlEvicted = 0;
  for (const r of runners) {
    if (subtask !== null && r.index !== subtask) continue;
    const task = r.task!;
    watermarkEvicted += task.counters.evictedRows ?? 0;
    ttlEvicted += isObservable(task.state) ? task.state.ttlCleanupCount() : task.state.metrics().ttlCleanups;
    const views = (task.operator.inspect?.() ?? []) as (JoinBufferView | IntervalBufferView)[];
    for (const v of views) (v.side === 'left' ? left : right).push(bufferRow(v));
  }
  return {
    node,
    joinType: String(first.node.params.type ?? (first.node.kind === 'intervalJoin' ? 'interval' : 'inner')),
    left,
    right,
    evicted: { watermark: watermarkEvicted, ttl: ttlEvicted },
    recentMatches: rec.detailNode === node ? rec.recentMatches.drain() : [],
  };
}

function bufferRow(v: JoinBufferView | IntervalBufferView): JoinBufferRow {
  if ('matchesOtherFrom' in v) {
    return { side: v.side, key: v.key as Key, row: v.row, ts: v.ts, matches: v.matched ? 1 : 0, range: [v.matchesOtherFrom, v.matchesOtherTo], evictAfter: v.evictAfter };
  }
  return { side: v.side, key: v.key as Key, row: v.row, ts: v.ts, matches: v.matches, range: null, evictAfter: null };
}
