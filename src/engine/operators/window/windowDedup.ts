import type { OperatorContext, Operator } from '../../operator.ts';
import type { Row } from '../../../core/types.ts';
import { mapState } from '../../../state/descriptors.ts';
import type { Windowing } from '../../../pipeline/kinds/windowing.ts';
import { maxTimestamp, windowId } from './assigners.ts';
import { firedWindow, WindowedInput } from './windowing.ts';

/**
 * Flink's RowTimeWindowDeduplicateOperator: per key and window one row is kept, the first or
 * the last by event time; it leaves once as +I when the window fires, and the window's state goes.
 */
export function windowDedup(ctx: OperatorContext, w: Windowing, keepFirst: boolean): Operator {
  const windows = new WindowedInput(ctx, w);
  const kept = ctx.state.map(mapState<string, { row: Row; ts: number }>('windowDedup'));
  return {
    processElement(el) {
      if (el.kind !== '+I') return ctx.deadLetter(`Deduplicate needs an insert-only input, got ${el.kind}`, el.row);
      if (typeof el.ts !== 'number' || !Number.isFinite(el.ts)) return ctx.deadLetter('row has no event time to order duplicates by', el.row);
      const bounds = windows.windowsOf(el);
      if (typeof bounds === 'string') return ctx.deadLetter(bounds, el.row);
      for (const b of bounds) {
        const id = windowId(b);
        const old = kept.get(id);
        if (old) {
          ctx.count('duplicatesDropped');
          // Equal times: the earlier arrival stays first, the later one becomes last.
          if (keepFirst ? el.ts >= old.ts : el.ts < old.ts) continue;
        } else windows.watch(b);
        kept.put(id, { row: el.row, ts: el.ts });
      }
    },
    onTimer(t) {
      const id = String(t.namespace);
      const k = kept.get(id);
      if (!k) return;
      kept.remove(id);
      const b = firedWindow(t.namespace);
      ctx.emit({ kind: '+I', row: windows.rowIn(k.row, b), ts: maxTimestamp(b) });
    },
    inspect: () => ({ watermark: ctx.currentWatermark(), windows: ctx.state.keys('windowDedup').length }),
  };
}
