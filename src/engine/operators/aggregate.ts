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
    const layout = columns ? null : (groupLayout(calls) as GroupLayout<FieldGroup | ArrayGroup>);
    const update = columns?.update ?? groupUpdater(ctx, params, layout!);
    // Only the columns layout can serve a chained view: its rows are built from the numbers on read.
    // Both layouts refuse text in SUM/AVG the same way, before any accumulator changes.
    const notNumeric = numericInputCheck(ctx.nodeId, params.aggregates);
    const claimBatch = columns && appendOnlyInput(inputs) ? (els: readonly Element[], keyOf: KeySelector) => columns.claimBatch(els, keyOf, notNumeric) : undefined;
    const processKeyGroup = params.miniBatch ? (columns?.fold ?? groupFolder(ctx, params, layout!)) : undefined;
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

function groupUpdater<G extends FieldGroup | ArrayGroup>(ctx: OperatorContext, params: AggregateParams, layout: GroupLayout<G>): (el: Element) => void {
  const groupBy = params.groupBy;
  const group = ctx.state.value(valueState<FieldGroup | ArrayGroup>('group'));
  // Every result row has exactly these columns, so comparing them replaces two for-in walks.
  const columns = [...groupBy, ...params.aggregates.map((c) => c.as)];
  const unchanged = (a: Row, b: Row): boolean => {
    for (let i = 0; i < columns.length; i++) if (a[columns[i]] !== b[columns[i]]) return false;
    return true;
  };
  return (el) => {
    const stored = group.value();
    const g = stored ? layout.adopt(stored) : layout.create();
    if (isAddition(el.kind)) {
      g.n++;
      layout.apply(g, el.row, 1);
    } else {
      if (g.n === 0) return ctx.deadLetter('retraction for a group that holds no rows', el.row);
      g.n--;
      layout.apply(g, el.row, -1);
    }
    const prev = g.out;
    if (g.n === 0) {
      group.clear();
      if (prev) ctx.emit({ kind: '-D', row: prev, ts: el.ts });
      return;
    }
    const next: Row = {};
    for (const f of groupBy) next[f] = el.row[f] ?? null;
    layout.write(g, next);
    // An unchanged result keeps the row already stored (and held by the view): the new one dies young.
    const same = prev !== null && unchanged(prev, next);
    if (!same) g.out = next;
    group.update(g);
    if (!prev) ctx.emit({ kind: '+I', row: next, ts: el.ts });
    else if (!same) {
      ctx.emit({ kind: '-U', row: prev, ts: el.ts });
      ctx.emit({ kind: '+U', row: next, ts: el.ts });
    }
  };
}

/**
 * Mini-batch over one group: the batch's records of the current key applied in order to the group
 * read once, then one change against the row emitted before the batch, written once. A group that
 * empties within the batch starts afresh, as it would record by record (its MIN/MAX forget).
 */
function groupFolder<G extends FieldGroup | ArrayGroup>(ctx: OperatorContext, params: AggregateParams, layout: GroupLayout<G>): (els: readonly Element[], notNumeric: NumericCheck) => void {
  const groupBy = params.groupBy;
  const group = ctx.state.value(valueState<FieldGroup | ArrayGroup>('group'));
  const columns = [...groupBy, ...params.aggregates.map((c) => c.as)];
  const unchanged = (a: Row, b: Row): boolean => {
    for (let i = 0; i < columns.length; i++) if (a[columns[i]] !== b[columns[i]]) return false;
    return true;
  };
  return (els, notNumeric) => {
    const stored = group.value();
    let g = stored ? layout.adopt(stored) : layout.create();
    const prev = g.out;
    let last: Element | null = null;
    for (let i = 0; i < els.length; i++) {
      const el = els[i];
      const bad = notNumeric === null ? null : notNumeric(el.row);
      if (bad) {
        ctx.deadLetter(bad, el.row, el);
        continue;
      }
      if (isAddition(el.kind)) {
        g.n++;
        layout.apply(g, el.row, 1);
      } else {
        if (g.n === 0) {
          ctx.deadLetter('retraction for a group that holds no rows', el.row, el);
          continue;
        }
        g.n--;
        layout.apply(g, el.row, -1);
        if (g.n === 0) g = layout.create();
      }
      last = el;
    }
    if (last === null) return;
    if (g.n === 0) {
      group.clear();
      if (prev) ctx.emit({ kind: '-D', row: prev, ts: last.ts });
      return;
    }
    const next: Row = {};
    for (const f of groupBy) next[f] = last.row[f] ?? null;
    layout.write(g, next);
    const same = prev !== null && unchanged(prev, next);
    g.out = same ? prev : next;
    group.update(g);
    if (!prev) ctx.emit({ kind: '+I', row: next, ts: last.ts });
    else if (!same) {
      ctx.emit({ kind: '-U', row: prev, ts: last.ts });
      ctx.emit({ kind: '+U', row: next, ts: last.ts });
    }
  };
}
