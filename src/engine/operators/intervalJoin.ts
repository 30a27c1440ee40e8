import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../../core/types.ts';
import { mapState, withImmutableValues } from '../../state/descriptors.ts';
import type { MapState } from '../../state/descriptors.ts';
import type { IntervalJoinParams } from '../../pipeline/kinds/intervalJoin.ts';
import { joinKeyFields } from '../../pipeline/kinds/join.ts';
import { hasNullKey, JOIN_INSPECT_LIMIT, maxTs, RowJoiner } from '../../pipeline/kinds/joinColumns.ts';

type Side = 'left' | 'right';

/**
 * One buffered row; `matched` decides padding at eviction on outer sides. Buckets and their
 * entries are never changed once put (a change puts new ones), so checkpoints share them.
 */
interface Entry {
  row: Row;
  ts: number;
  matched: boolean;
}

export interface IntervalBufferView {
  side: Side;
  key: unknown;
  row: Row;
  ts: number;
  matched: boolean;
  /** Event times of the other side this row can still join with, inclusive. */
  matchesOtherFrom: number;
  matchesOtherTo: number;
  /** The row is evicted once the watermark passes this time. */
  evictAfter: number;
}

const other = (s: Side): Side => (s === 'left' ? 'right' : 'left');

/**
 * Event-time interval join: `right.ts BETWEEN left.ts + lower AND left.ts + upper`.
 * Buffers are map state per join key from event time to the rows at that time, so eviction
 * and range scans work per timestamp rather than per row.
 */
export const intervalJoin: OperatorDefinition<IntervalJoinParams> = {
  kind: 'intervalJoin',
  keyFields: joinKeyFields,
  create({ ctx, params }) {
    const lower = params.lowerBoundMs;
    const upper = params.upperBoundMs;
    const buffers: Record<Side, MapState<number, Entry[]>> = {
      left: ctx.state.map(withImmutableValues(mapState<number, Entry[]>('intervalJoin.left'))),
      right: ctx.state.map(withImmutableValues(mapState<number, Entry[]>('intervalJoin.right'))),
    };
    const outer: Record<Side, boolean> = { left: params.type === 'left' || params.type === 'full', right: params.type === 'right' || params.type === 'full' };
    const keys: Record<Side, string[]> = { left: params.leftKey, right: params.rightKey };
    const joiner = new RowJoiner(ctx.inputs.left, ctx.inputs.right, params.leftKey);

    /** The last watermark at which a row of this side can still meet a future row of the other side. */
    const evictAfter = (side: Side, ts: number) => (side === 'left' ? ts + upper : ts - lower);
    /** The bucket whose eviction timer (evictAfter + 1) is at `t`. */
    const bucketOf = (side: Side, t: number) => (side === 'left' ? t - 1 - upper : t - 1 + lower);
    const evict = (side: Side, ts: number, entries: readonly Entry[]): void => {
      for (const e of entries) {
        ctx.count('evictedRows');
        if (outer[side] && !e.matched) ctx.emit({ kind: '+I', row: side === 'left' ? joiner.padRight(e.row) : joiner.padLeft(e.row), ts: e.ts });
      }
      buffers[side].remove(ts);
    };
    /** Event times on the other side this row joins with, inclusive. */
    const otherRange = (side: Side, ts: number): [number, number] => (side === 'left' ? [ts + lower, ts + upper] : [ts - upper, ts - lower]);

    return {
      processElement(el, port) {
        if (port !== 'left' && port !== 'right') return ctx.deadLetter(`interval join has no input port "${port}"`, el.row);
        const side: Side = port;
        if (el.kind !== '+I') return ctx.deadLetter(`interval join takes only inserts, got ${el.kind} on ${side}`, el.row);
        if (el.ts === null || !Number.isFinite(el.ts)) return ctx.deadLetter(`interval join needs event time; the ${side} row has none`, el.row);
        const ts = el.ts;
        const wm = ctx.currentWatermark();
        const until = evictAfter(side, ts);
        if (wm > until) {
          ctx.count('lateRecords');
          return ctx.deadLetter(`late ${side} row: watermark ${wm} is past ${until}, the last time it could match a ${other(side)} row`, el.row);
        }
        const self: Entry = { row: el.row, ts, matched: false };
        if (!hasNullKey(el.row, keys[side])) {
          const [from, to] = otherRange(side, ts);
          const theirs = buffers[other(side)];
          for (const [bucket, entries] of theirs.entries()) {
            if (bucket < from || bucket > to) continue;
            let changed = false;
            for (const o of entries) {
              ctx.emit({ kind: '+I', row: side === 'left' ? joiner.join(el.row, o.row) : joiner.join(o.row, el.row), ts: maxTs(ts, o.ts) });
              ctx.count('joinMatches');
              self.matched = true;
              if (!o.matched) changed = true;
            }
            if (changed) theirs.put(bucket, entries.map((o) => (o.matched ? o : { row: o.row, ts: o.ts, matched: true })));
          }
        }
        const mine = buffers[side];
        const bucket = mine.get(ts);
        mine.put(ts, bucket ? [...bucket, self] : [self]);
        // Timers fire when watermark >= their time; eviction is due once watermark > until. A bucket
        // already held has this very timer set (its firing would have evicted the bucket).
        if (!bucket) ctx.timers.registerEventTimeTimer(until + 1, side);
      },

      onTimer(timer) {
        if (timer.namespace !== 'left' && timer.namespace !== 'right') return;
        const side: Side = timer.namespace;
        const mine = buffers[side];
        // Each bucket set this timer for itself (until + 1), and a bucket is never made again once
        // its timer fired (its rows would be late): the bucket is found from the timer, as Flink's
        // interval join finds it, instead of scanning the key's buckets at every timer (a hot key
        // with B buckets paid B²/2 reads as its timers fired one by one). Only where no bucket
        // matches the timer (bounds changed across a restore) does a scan evict whatever is due.
        const own = bucketOf(side, timer.ts);
        const bucket = evictAfter(side, own) + 1 === timer.ts ? mine.get(own) : undefined;
        if (bucket) return evict(side, own, bucket);
        const due: number[] = [];
        for (const ts of mine.keys()) if (evictAfter(side, ts) < timer.ts) due.push(ts);
        if (due.length > 1) due.sort((a, b) => a - b);
        for (const ts of due) evict(side, ts, mine.get(ts) ?? []);
      },

      inspect(): IntervalBufferView[] {
        const out: IntervalBufferView[] = [];
        const saved = ctx.state.currentKey();
        try {
          for (const side of ['left', 'right'] as const) {
            for (const key of ctx.state.keys(`intervalJoin.${side}`)) {
              ctx.state.setCurrentKey(key);
              for (const [, entries] of buffers[side].entries()) {
                for (const e of entries) {
                  if (out.length >= JOIN_INSPECT_LIMIT) return out;
                  const [from, to] = otherRange(side, e.ts);
                  out.push({ side, key, row: e.row, ts: e.ts, matched: e.matched, matchesOtherFrom: from, matchesOtherTo: to, evictAfter: evictAfter(side, e.ts) });
                }
              }
            }
          }
          return out;
        } finally {
          ctx.state.setCurrentKey(saved);
        }
      },
    };
  },
};
