import type { OperatorDefinition } from '../operator.ts';
import { appendOnlyInput } from '../operator.ts';
import type { Element } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import type { WindowParams } from '../../pipeline/kinds/window.ts';
import { fixedAssigner, windowId } from './window/assigners.ts';
import { PaneKeeper } from './window/panes.ts';
import { SliceKeeper, sliceShape } from './window/slices.ts';
import { processSessionElement } from './window/sessions.ts';
import type { Outcome } from './window/sessions.ts';
import { numericInputCheck } from '../aggregateInput.ts';

/**
 * Event-time window aggregate (Flink's TUMBLE / HOP / CUMULATE / SESSION window TVFs + GROUP BY).
 * Panes live in keyed map state; event-time timers fire and purge them, so a snapshot of
 * state and timers is all a restore needs. With `slicing`, HOP and TUMBLE windows whose calls
 * merge keep one slice per gcd(size, slide) and key instead of a pane per window (SliceKeeper).
 */
function windowAggregateOf(slicing: boolean): OperatorDefinition<WindowParams> {
  return {
    kind: 'window',
    keyFields: (p) => p.groupBy,
    create({ ctx, params, inputs }) {
      const lateness = params.allowedLatenessMs ?? 0;
      const keeper = new PaneKeeper(ctx, params.aggregates, params.groupBy, lateness, appendOnlyInput(inputs));
      const session = params.type === 'session';
      const assign = session ? null : fixedAssigner(params);
      const shape = slicing ? sliceShape(params, params.aggregates) : null;
      const slices = shape ? new SliceKeeper(keeper, ctx, shape, params.groupBy, lateness) : null;
      const processFixed = (el: Element, ts: number): Outcome => slices?.process(el, ts) ?? processPanes(el, ts);

      function processPanes(el: Element, ts: number): Outcome {
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
        onTimer: (t) => {
          if (!keeper.onTimer(t)) slices?.onTimer(t);
        },
        inspect: () => keeper.inspect(200, slices?.views(200)),
      };
    },
  };
}

export const windowAggregate = windowAggregateOf(true);
/** Every window in a pane of its own: the reference the sliced path must match, for tests and benchmarks. */
export const perPaneWindowAggregate = windowAggregateOf(false);
