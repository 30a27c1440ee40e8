import type { OperatorContext, Operator } from '../../operator.ts';
import type { Row } from '../../../core/types.ts';
import { mapState } from '../../../state/descriptors.ts';
import type { Windowing } from '../../../pipeline/kinds/windowing.ts';
import { maxTimestamp, windowId } from './assigners.ts';
import { firedWindow, WindowedInput } from './windowing.ts';
import { topRanks } from '../topRanks.ts';
import type { RankFunction } from '../../../pipeline/kinds/topN.ts';

/**
 * Flink's WindowRankOperator (window Top-N): per partition and window only the rows that rank
 * within n are kept (more than n when ties share a rank), sorted; when the window fires they leave
 * once as +I with their rank and the window's state goes.
 */
export function windowRank(ctx: OperatorContext, w: Windowing, n: number, rankField: string, cmp: (a: Row, b: Row) => number, fn: RankFunction): Operator {
  const windows = new WindowedInput(ctx, w);
  const top = ctx.state.map(mapState<string, Row[]>('windowRank'));
  return {
    processElement(el) {
      if (el.kind !== '+I') return ctx.deadLetter(`window Top-N takes only inserts, got ${el.kind}`, el.row);
      const bounds = windows.windowsOf(el);
      if (typeof bounds === 'string') return ctx.deadLetter(bounds, el.row);
      for (const b of bounds) {
        const id = windowId(b);
        const rows = top.get(id) ?? [];
        // After every equal row, so ties keep arrival order.
        let at = rows.length;
        while (at > 0 && cmp(rows[at - 1], el.row) > 0) at--;
        if (fn === 'rowNumber' && at >= n) continue;
        rows.splice(at, 0, el.row);
        rows.length = topRanks(rows, n, fn, cmp).length;
        if (at >= rows.length) continue;
        if (rows.length === 1) windows.watch(b);
        top.put(id, rows);
      }
    },
    onTimer(t) {
      const id = String(t.namespace);
      const rows = top.get(id);
      if (!rows) return;
      top.remove(id);
      const b = firedWindow(t.namespace);
      const ranks = topRanks(rows, n, fn, cmp);
      rows.forEach((r, i) => ctx.emit({ kind: '+I', row: { ...windows.rowIn(r, b), [rankField]: ranks[i] }, ts: maxTimestamp(b) }));
    },
    inspect: () => ({ watermark: ctx.currentWatermark(), windows: ctx.state.keys('windowRank').length }),
  };
}
