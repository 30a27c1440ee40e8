import type { OperatorDefinition } from '../operator.ts';
import { appendOnlyInput } from '../operator.ts';
import type { Element } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import type { WindowParams } from '../../pipeline/kinds/window.ts';
import { fixedAssigner, windowId } from './window/assigners.ts';
import { PaneKeeper } from './window/panes.ts';
import { processSessionElement } from './window/sessions.ts';
import type { Outcome } from './window/sessions.ts';
import { numericInputCheck } from '../aggregateInput.ts';

/**
 * Event-time window aggregate (Flink's TUMBLE / HOP / CUMULATE / SESSION window TVFs + GROUP BY).
 * Panes live in keyed map state; event-time timers fire and purge them, so a snapshot of
 * state and timers is all a restore needs.
 */
export const windowAggregate: OperatorDefinition<WindowParams> = {
  kind: 'window',
  keyFields: (p) => p.groupBy,
  create({ ctx, params, inputs }) {
    const keeper = new PaneKeeper(ctx, params.aggregates, params.groupBy, params.allowedLatenessMs ?? 0, appendOnlyInput(inputs));
    const session = params.type === 'session';
    const assign = session ? null : fixedAssigner(params);

    function processFixed(el: Element, ts: number): Outcome {
      // A hop record late for some of its windows still counts in the others.
      const windows = assign!(ts).filter((w) => !keeper.isLate(w));
      if (windows.length === 0) return 'late';
      const adding = isAddition(el.kind);
      const panes = windows.map((w) => keeper.panes.get(windowId(w)));
      // Checked before touching any pane, so a bad retraction changes nothing.
      if (!adding && panes.some((p) => !p || p.n <= 0)) return { deadLetter: 'retraction for a window that holds no rows' };
      windows.forEach((w, i) => {
        const p = panes[i] ?? keeper.open(w, el.row);
        keeper.apply(p, el);
        keeper.save(p);
      });
      return 'ok';
    }

    // The retracted row's own time decides its windows: an upstream (Deduplicate, Top N, an upsert
    // source) stamps a -U with the time of the row that displaced it, which may lie in another window.
    const timeField = inputs?.in?.eventTime ?? null;
    const timeOf = (el: Element): number | null => {
      if (timeField && !isAddition(el.kind)) {
        const v = el.row[timeField];
        if (typeof v === 'number' && Number.isFinite(v)) return v;
      }
      return el.ts;
    };

    const notNumeric = numericInputCheck(ctx.nodeId, params.aggregates);
    return {
      processElement(el) {
        const bad = notNumeric?.(el.row);
        if (bad) return ctx.deadLetter(bad, el.row);
        const ts = timeOf(el);
        if (typeof ts !== 'number' || !Number.isFinite(ts)) return ctx.deadLetter('no event time: a window needs records with a timestamp', el.row);
        const outcome = session ? processSessionElement(keeper, params.gapMs!, el, ts) : processFixed(el, ts);
        if (outcome === 'late') {
          ctx.count('lateRecords');
          ctx.emit(el, 'late');
        } else if (outcome !== 'ok') ctx.deadLetter(outcome.deadLetter, el.row);
      },
      onTimer: (t) => keeper.onTimer(t),
      inspect: () => keeper.inspect(),
    };
  },
};
