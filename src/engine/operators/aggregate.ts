import type { OperatorContext, OperatorDefinition } from '../operator.ts';
import type { KeySelector } from '../../core/keys.ts';
import { appendOnlyInput } from '../operator.ts';
import type { Element, Row } from '../../core/types.ts';
import { isAddition } from '../../core/types.ts';
import { AggregateSet } from '../aggregates.ts';
import { numericInputCheck } from '../aggregateInput.ts';
import { valueState } from '../../state/descriptors.ts';
import type { AggregateParams } from '../../pipeline/kinds/aggregate.ts';
import { columnsUpdater } from './aggregateColumns.ts';
import { groupLayout, type ArrayGroup, type FieldGroup, type GroupLayout } from './aggregateGroup.ts';

export const aggregate: OperatorDefinition<AggregateParams> = {
  kind: 'aggregate',
  keyFields: (p) => p.groupBy,
  create({ ctx, params, inputs }) {
    const calls = new AggregateSet(params.aggregates, appendOnlyInput(inputs));
    const columns = columnsUpdater(ctx, params, calls);
    // Other calls (MIN/MAX, ...) or a backend with per-key cells only: one value-state object per group.
    const perKey = columns ? null : groupUpdater(ctx, params, groupLayout(calls, params.groupBy) as GroupLayout<FieldGroup | ArrayGroup>);
    const update = columns?.update ?? perKey!.update;
    // Only the columns layout can serve a chained view: its rows are built from the numbers on read.
    // Both layouts refuse text in SUM/AVG the same way, before any accumulator changes.
    const notNumeric = numericInputCheck(ctx.nodeId, params.aggregates);
    const claimBatch = columns && appendOnlyInput(inputs) ? (els: readonly Element[], keyOf: KeySelector) => columns.claimBatch(els, keyOf, notNumeric) : undefined;
    const processKeyGroup = params.miniBatch ? (columns?.fold ?? perKey!.fold) : undefined;
    const sharing = {
      arrangement: () => columns?.arrangement ?? null,
      dropChangelog: () => columns?.dropChangelog(),
      ...(claimBatch ? { claimBatch } : {}),
      ...(processKeyGroup ? { processKeyGroup: (els: readonly Element[]) => processKeyGroup(els, notNumeric) } : {}),
    };
    if (!notNumeric) return { processElement: update, ...sharing };
    return {
      processElement: (el) => {
        const bad = notNumeric(el.row);
        if (bad) ctx.deadLetter(bad, el.row);
        else update(el);
      },
      ...sharing,
    };
  },
};

/** Records `notNumeric` refuses are dead letters and change nothing, as in `processElement`. */
export type NumericCheck = ((row: Row) => string | null) | null;

/**
 * The per-key-object layouts: `update` takes one record; `fold` (mini-batch) takes the batch's
 * records of the current key, applied in order to the group read once, then one change against
 * the row emitted before the batch, written once. A group that empties within the batch starts
 * afresh, as it would record by record (its MIN/MAX forget).
 */
function groupUpdater<G extends FieldGroup | ArrayGroup>(ctx: OperatorContext, params: AggregateParams, layout: GroupLayout<G>): { update: (el: Element) => void; fold: (els: readonly Element[], notNumeric: NumericCheck) => void } {
  const groupBy = params.groupBy;
  const group = ctx.state.value(valueState<FieldGroup | ArrayGroup>('group'));
  // Every result row has exactly these columns, so comparing them replaces two for-in walks.
  const columns = [...groupBy, ...params.aggregates.map((c) => c.as)];
  const unchanged = (a: Row, b: Row): boolean => {
    for (let i = 0; i < columns.length; i++) if (a[columns[i]] !== b[columns[i]]) return false;
    return true;
  };
  /** Stores `g` and emits its change against `prev`, the row last emitted; `row` gives the group-by values. */
  const settle = (g: G, prev: Row | null, row: Row, ts: number | null): void => {
    if (g.n === 0) {
      group.clear();
      if (prev) ctx.emit({ kind: '-D', row: prev, ts });
      return;
    }
    let next: Row;
    if (layout.result) next = layout.result(g, row);
    else {
      next = {};
      for (const f of groupBy) next[f] = row[f] ?? null;
      layout.write(g, next);
    }
    // An unchanged result keeps the row already stored (and held by the view): the new one dies young.
    const same = prev !== null && unchanged(prev, next);
    g.out = same ? prev : next;
    group.update(g);
    if (!prev) ctx.emit({ kind: '+I', row: next, ts });
    else if (!same) {
      ctx.emit({ kind: '-U', row: prev, ts });
      ctx.emit({ kind: '+U', row: next, ts });
    }
  };
  const read = (): G => {
    const stored = group.value();
    return stored ? layout.adopt(stored) : layout.create();
  };
  const update = (el: Element): void => {
    const g = read();
    if (isAddition(el.kind)) {
      g.n++;
      layout.apply(g, el.row, 1);
    } else {
      if (g.n === 0) return ctx.deadLetter('retraction for a group that holds no rows', el.row);
      g.n--;
      layout.apply(g, el.row, -1);
    }
    settle(g, g.out, el.row, el.ts);
  };
  const fold = (els: readonly Element[], notNumeric: NumericCheck): void => {
    let g = read();
    const prev = g.out;
    let last: Element | null = null;
    for (let i = 0; i < els.length; i++) {
      const el = els[i];
      const bad = notNumeric === null ? null : notNumeric(el.row);
      if (bad) ctx.deadLetter(bad, el.row, el);
      else if (isAddition(el.kind)) {
        g.n++;
        layout.apply(g, el.row, 1);
        last = el;
      } else if (g.n === 0) ctx.deadLetter('retraction for a group that holds no rows', el.row, el);
      else {
        g.n--;
        layout.apply(g, el.row, -1);
        if (g.n === 0) g = layout.create();
        last = el;
      }
    }
    if (last !== null) settle(g, prev, last.row, last.ts);
  };
  return { update, fold };
}
