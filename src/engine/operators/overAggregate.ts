import type { OperatorDefinition } from '../operator.ts';
import type { Row } from '../../core/types.ts';
import { AggregateSet } from '../aggregates.ts';
import { mapState, valueState } from '../../state/descriptors.ts';
import type { OverAggregateParams } from '../../pipeline/kinds/overAggregate.ts';
import { numericInputCheck } from '../aggregateInput.ts';

/** Rows of one partition that share one event time, in arrival order. */
type RowsAt = Row[];

/** The rows of the times in [from, to], in time order. */
function inTimeOrder(entries: Iterable<[string, RowsAt]>, from: number, to: number): Row[] {
  const times = [...entries].map(([t, rs]) => [Number(t), rs] as const).filter(([t]) => t >= from && t <= to);
  times.sort((x, y) => x[0] - y[0]);
  return times.flatMap(([, rs]) => rs);
}

/**
 * Flink's row-time OverAggregate (RowTime{Rows,Range}{Bounded,Unbounded}PrecedingFunction):
 * rows wait in keyed state until the watermark passes their time (an event-time timer at that
 * time), then leave in time order with the aggregates over their frame. Everything lives in
 * keyed state and timers, so a snapshot is all a restore needs: LAG's last values are part of the
 * unbounded frame's accumulators, as in Flink's LagAggFunction.
 */
export const overAggregate: OperatorDefinition<OverAggregateParams> = {
  kind: 'overAggregate',
  keyFields: (p) => p.partitionBy,
  create({ ctx, params }) {
    const calls = new AggregateSet(params.aggregates, true);
    const notNumeric = numericInputCheck(ctx.nodeId, params.aggregates);
    const rows = params.frame === 'rows';
    const bound = rows ? params.precedingRows : params.precedingMs;
    const unbounded = bound === undefined;
    // Rows waiting for the watermark, by event time.
    const pending = ctx.state.map(mapState<string, RowsAt>('over.pending'));
    // Unbounded frames: the running accumulators of every row emitted so far.
    const running = ctx.state.value(valueState<unknown[]>('over.accs'));
    // Bounded ROWS: the last `precedingRows` rows emitted, oldest first.
    const recent = ctx.state.value(valueState<Row[]>('over.recent'));
    // Bounded RANGE: rows already emitted that later frames may still reach, by event time.
    const emitted = ctx.state.map(mapState<string, RowsAt>('over.emitted'));

    const result = (accs: unknown[], row: Row): Row => calls.write(accs, { ...row });
    const over = (frame: Iterable<Row>): unknown[] => {
      const accs = calls.create();
      for (const r of frame) calls.add(accs, r);
      return accs;
    };

    function fire(ts: number): void {
      const at = pending.get(String(ts));
      if (!at) return;
      pending.remove(String(ts));
      const out: Row[] = [];
      if (unbounded) {
        const accs = running.value() ?? calls.create();
        if (rows) {
          for (const r of at) {
            calls.add(accs, r);
            out.push(result(accs, r));
          }
        } else {
          // A RANGE frame reaches every row of the same time, so all of them are in before any leaves.
          for (const r of at) calls.add(accs, r);
          for (const r of at) out.push(result(accs, r));
        }
        running.update(accs);
      } else if (rows) {
        const frame = recent.value() ?? [];
        for (const r of at) {
          frame.push(r);
          while (frame.length > bound + 1) frame.shift();
          out.push(result(over(frame), r));
        }
        // Only the rows a later frame can still reach stay.
        if (bound === 0) recent.clear();
        else recent.update(frame.slice(-bound));
      } else {
        emitted.put(String(ts), at);
        let frame: Row[] = [];
        let inOrder = true;
        let last = -Infinity;
        for (const [t, rs] of emitted.entries()) {
          const time = Number(t);
          // Rows older than the frame of this time are older than every later frame too.
          if (time < ts - bound) emitted.remove(t);
          else if (time <= ts) {
            if (time < last) inOrder = false;
            last = time;
            for (const r of rs) frame.push(r);
          }
        }
        // FIRST_VALUE and LAST_VALUE read the frame in time order. The state keeps its times in the
        // order they fired; should a restore not keep that order, the frame is put back in order.
        if (!inOrder) frame = inTimeOrder(emitted.entries(), ts - bound, ts);
        const accs = over(frame);
        for (const r of at) out.push(result(accs, r));
      }
      for (const r of out) ctx.emit({ kind: '+I', row: r, ts });
    }

    return {
      processElement(el) {
        if (el.kind !== '+I') return ctx.deadLetter(`OVER aggregation takes only inserts, got ${el.kind}`, el.row);
        const bad = notNumeric?.(el.row);
        if (bad) return ctx.deadLetter(bad, el.row);
        const ts = el.ts;
        if (typeof ts !== 'number' || !Number.isFinite(ts)) return ctx.deadLetter('no event time: OVER aggregation orders rows by their timestamp', el.row);
        // As Flink: a row at or behind the watermark can no longer be put in order, so it is dropped.
        if (ts <= ctx.currentWatermark()) return ctx.count('lateRecords');
        const id = String(ts);
        const at = pending.get(id);
        if (at) at.push(el.row);
        else ctx.timers.registerEventTimeTimer(ts, 'over');
        pending.put(id, at ?? [el.row]);
      },
      onTimer: (t) => fire(t.ts),
      inspect: () => ({ watermark: ctx.currentWatermark() }),
    };
  },
};
